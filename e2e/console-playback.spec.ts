/**
 * Replay: playing back from an earlier moment at a chosen speed, joining live at the edge, and
 * motion that respects prefers-reduced-motion (a pulse becomes a brief highlight).
 */
import { expect, test, type Page } from '@playwright/test';
import { ConsolePage, SOURCES } from './pages/console';

test.use({ viewport: { width: 1440, height: 900 } });

/** The animation of the pulses drawn while events happen (polled: pulses come and go). */
async function pulseAnimations(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.ps-scene .ps-pulse')].map(
      (el) => getComputedStyle(el).animationName,
    ),
  );
}

for (const source of SOURCES) {
  test.describe(`replay (${source})`, () => {
    test('plays from an earlier moment at 16× and joins live at the edge', async ({ page }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      await expect(c.logRows.nth(3)).toBeVisible({ timeout: 30_000 });
      const { max } = await c.slider();
      await c.scrubTo(max - 90_000);
      await expect.poll(() => c.isLive()).toBe(false);
      await page.getByRole('combobox', { name: 'Playback speed' }).selectOption('16');
      await expect(page).toHaveURL(/[?&]speed=16/);
      const start = (await c.slider()).now;
      const wallStart = Date.now();
      await c.play.click();
      await expect(c.pause).toBeVisible();
      await page.waitForTimeout(2_000);
      const moved = (await c.slider()).now - start;
      const wall = Date.now() - wallStart;
      // Cluster time runs about 16 times faster than the wall clock (frames and clicks add slack).
      expect(moved / wall).toBeGreaterThan(8);
      expect(moved / wall).toBeLessThan(17);
      // The rest of the way to now takes a few seconds more; then it is live again.
      await expect.poll(() => c.isLive(), { timeout: 20_000 }).toBe(true);
      await expect(c.play).toBeVisible();
    });

    for (const reduced of [false, true]) {
      test(`entities pulse when an event changes them${reduced ? ', as a brief highlight with reduced motion' : ''}`, async ({
        page,
      }) => {
        if (reduced) await page.emulateMedia({ reducedMotion: 'reduce' });
        const c = new ConsolePage(page, source);
        await c.open();
        await expect(c.logRows.nth(3)).toBeVisible({ timeout: 30_000 });
        // Replay a busy stretch at 4×, so something changes while we watch.
        const { max } = await c.slider();
        await c.scrubTo(max - 60_000);
        await page.getByRole('combobox', { name: 'Playback speed' }).selectOption('4');
        await c.play.click();
        await expect
          .poll(() => pulseAnimations(page), { timeout: 20_000 })
          .toContain(reduced ? 'ps-flash' : 'ps-pulse');
        expect(await pulseAnimations(page)).not.toContain(reduced ? 'ps-pulse' : 'ps-flash');
      });
    }
  });
}
