/**
 * Keyboard, accessible names and languages: the timeline controls carry their contract names in
 * English and translated ones in Chinese, the scrubber is an ARIA slider, entities can be
 * reached and selected from the keyboard, and switching language keeps the rest of the URL.
 */
import { expect, test } from '@playwright/test';
import { CONTROL_NAMES, ConsolePage, SOURCES } from './pages/console';

test.use({ viewport: { width: 1440, height: 900 } });

for (const source of SOURCES) {
  test.describe(`console keyboard and languages (${source})`, () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      test(`timeline controls have their names in ${locale}, and the scrubber is a slider`, async ({
        page,
      }) => {
        const c = new ConsolePage(page, source, locale);
        await c.open();
        const names = CONTROL_NAMES[locale];
        for (const name of [names.play, names.live, names.previous, names.next]) {
          await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
        }
        const slider = c.scrubber;
        await expect(slider).toHaveAttribute('aria-valuemin', /^\d+$/);
        await expect(slider).toHaveAttribute('aria-valuemax', /^\d+$/);
        await expect(slider).toHaveAttribute('aria-valuenow', /^\d+$/);
        await expect(slider).toHaveAttribute('aria-valuetext', /\S/);

        // Play turns into Pause, and back, with the button or with Space.
        await c.previous.click();
        await c.play.click();
        await expect(page.getByRole('button', { name: names.pause, exact: true })).toBeVisible();
        await page.locator('body').press(' ');
        await expect(c.play).toBeVisible();
      });
    }

    test('the diagram is reachable from the keyboard: arrows move, Enter selects, Escape clears', async ({
      page,
    }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      const firstNode = c.nodes.first();
      await firstNode.focus();
      await expect(firstNode).toBeFocused();
      await page.keyboard.press('ArrowDown');
      const pod = c.pods.first();
      await expect(pod).toBeFocused();
      const podId = await pod.getAttribute('data-id');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`sel=${podId}`));
      await expect(pod).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowDown');
      await expect(c.containers.first()).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(page).not.toHaveURL(/sel=/);
    });

    test('the language switcher keeps the selection, the moment and the filters', async ({
      page,
    }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      const id = await c.crashLoopingContainer();
      await c.select(id);
      // Previous steps to the selection's previous event: live, its earlier events arrive with the
      // history loaded after the first snapshot — a click before that has nothing to step to.
      await expect(c.logRows.first()).toBeVisible();
      await c.previous.click();
      await expect(page).toHaveURL(/[?&]at=/);
      const before = new URL(page.url());
      await page.getByRole('link', { name: '简体中文' }).click();
      await expect(page).toHaveURL(/\/zh-CN\?/);
      const after = new URL(page.url());
      for (const key of ['sel', 'at', 'source', 'demo'])
        expect(after.searchParams.get(key)).toBe(before.searchParams.get(key));
      const zh = new ConsolePage(page, source, 'zh-CN');
      await zh.ready();
      await expect(zh.play).toBeVisible();
      expect(await zh.isLive()).toBe(false);
    });
  });
}
