/**
 * An axe-core audit (axe's default rules, none disabled) of every page a learner, an on-call
 * engineer or a reviewer sees, in English and in Chinese — zero violations:
 * - the console on the embedded simulated nodes: nothing selected (the start-here list), then a
 *   crash-looping container, its pod and its node selected (the panel open, its state machine);
 * - the save dialog, and the shared timeline it makes (/t/<id>) with its annotation;
 * - /import, empty and holding a file it checked (the summary) or refused (the located error);
 * - /learn, and every step of every walkthrough in the library (server/scenarios/library, so a
 *   walkthrough added there is audited without touching this file): each step with its question
 *   open, again once it is answered ("Show me": the verdict, the kubelet's explanation, the
 *   panel), and the closing card. One page load per walkthrough; the steps are followed with the
 *   walkthrough's own buttons. Reduced motion, so each step opens at its moment; one step is also
 *   audited while its replay plays.
 * The Drift tab is audited where it is shown, in e2e/drift.spec.ts (it needs an API server).
 */
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type EnglishCatalogue from '../messages/en/learn.json';
import { ConsolePage } from './pages/console';
import { expectAccessible } from './support/axe';

type Catalogue = typeof EnglishCatalogue;
const LOCALES = ['en', 'zh-CN'] as const;
type Locale = (typeof LOCALES)[number];
const UI: Record<Locale, Catalogue['walkthrough']['page']> = Object.fromEntries(
  LOCALES.map((l) => [
    l,
    (
      JSON.parse(
        readFileSync(join(process.cwd(), 'messages', l, 'learn.json'), 'utf8'),
      ) as Catalogue
    ).walkthrough.page,
  ]),
) as Record<Locale, Catalogue['walkthrough']['page']>;

/**
 * The walkthroughs, read from the library's own files (one JSON document per scenario; the
 * console serves exactly these — the /learn test below checks it).
 */
const LIBRARY_DIR = join(process.cwd(), 'server', 'scenarios', 'library');
const WALKTHROUGHS: { id: string; steps: number }[] = readdirSync(LIBRARY_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => {
    const doc = JSON.parse(readFileSync(join(LIBRARY_DIR, f), 'utf8')) as {
      id: string;
      steps: unknown[];
    };
    return { id: doc.id, steps: doc.steps.length };
  });

/** Walkthrough pages record their scenario on first use. */
const RECORDING_TIMEOUT = 90_000;

test.use({ viewport: { width: 1440, height: 900 } });

const selectedPanel = (page: Page, layer: string) => page.locator(`[data-panel-layer="${layer}"]`);

for (const locale of LOCALES) {
  test.describe(`axe audit (${locale})`, () => {
    test('the console: nothing selected, then a container, its pod and its node', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const c = new ConsolePage(page, 'live', locale);
      await c.open();
      await expectAccessible(page, `/${locale} console, nothing selected`);

      const id = await c.crashLoopingContainer();
      await c.select(id);
      await expect(selectedPanel(page, 'container')).toBeVisible();
      await expect(page.locator('[data-panel-layer="container"] [data-machine]')).toBeVisible();
      await expectAccessible(page, `/${locale} console, container ${id} selected`);

      const podId = id.split('/')[0] ?? '';
      await c.select(podId);
      await expect(selectedPanel(page, 'pod')).toBeVisible();
      await expectAccessible(page, `/${locale} console, pod ${podId} selected`);

      const node = await c.nodes.first().getAttribute('data-id');
      // Its header: the middle of a node card is its pods.
      await c.nodes.first().click({ position: { x: 30, y: 10 } });
      await expect(page).toHaveURL(new RegExp(`sel=${node}`));
      await expect(selectedPanel(page, 'node')).toBeVisible();
      await expectAccessible(page, `/${locale} console, node ${node} selected`);
    });

    test('/import: empty, with a file checked, with a file refused', async ({ page }) => {
      await page.goto(`/${locale}/import`);
      await expect(page.getByTestId('drop-zone')).toHaveAttribute('data-ready', 'true');
      await expectAccessible(page, `/${locale}/import`);
      await page.getByTestId('import-file').setInputFiles({
        name: 'broken.podscope.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"format":"podscope.timeline","version":1,\n"title":"x",,\n}'),
      });
      await expect(page.getByTestId('import-errors')).toBeVisible();
      await expectAccessible(page, `/${locale}/import, a malformed file refused`);
    });

    test('/learn lists every walkthrough of the library', async ({ page }) => {
      await page.goto(`/${locale}/learn`);
      const cards = page.locator('[data-walkthrough]');
      await expect(cards).toHaveCount(WALKTHROUGHS.length);
      const listed = await cards.evaluateAll((all) =>
        all.map((c) => c.getAttribute('data-walkthrough')).sort(),
      );
      expect(listed).toEqual(WALKTHROUGHS.map((w) => w.id).sort());
      await expectAccessible(page, `/${locale}/learn`);
    });

    test('a walkthrough step while its replay plays', async ({ page }) => {
      test.setTimeout(RECORDING_TIMEOUT + 60_000);
      const first = WALKTHROUGHS[0];
      if (!first) throw new Error('the scenario library is empty');
      await page.goto(`/${locale}/learn/${first.id}?step=1`);
      await expect(page.getByText(UI[locale].watching)).toBeVisible({
        timeout: RECORDING_TIMEOUT,
      });
      await expectAccessible(page, `/${locale}/learn/${first.id} step 1, replaying`);
    });

    for (const scenario of WALKTHROUGHS) {
      test(`walkthrough ${scenario.id}: every step, asked and answered`, async ({ page }) => {
        const ui = UI[locale];
        const steps = scenario.steps;
        test.setTimeout(RECORDING_TIMEOUT + steps * 30_000);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto(`/${locale}/learn/${scenario.id}?step=1`);
        const step = page.locator('.ps-learn-step');
        const question = page.getByTestId('question');
        // The verdict on a wrong pick (and its hint) is audited at the first question.
        let auditWrong = true;
        for (let n = 1; n <= steps; n++) {
          const where = `/${locale}/learn/${scenario.id} step ${n} of ${steps}`;
          await expect(step, where).toHaveAttribute('data-step', String(n), {
            timeout: n === 1 ? RECORDING_TIMEOUT : 15_000,
          });
          await expect(page.getByText(ui.watching)).toHaveCount(0);
          await expectAccessible(page, where);
          if ((await question.count()) > 0) {
            await answer(page, ui, auditWrong ? where : undefined);
            auditWrong = false;
            await expect(page.getByTestId('explanation')).toBeVisible();
            await expectAccessible(page, `${where}, answered`);
          }
          const forward = page.locator('.ps-learn-next');
          await expect(forward).toContainText(n < steps ? ui.next : ui.finish);
          await forward.click();
        }
        await expect(page.getByTestId('walkthrough-done')).toBeVisible();
        await expectAccessible(page, `/${locale}/learn/${scenario.id} done`);
      });
    }
  });
}

/**
 * Settles the open question as a learner might: one pick — the first state of the machine, or
 * the node's header in the diagram — and, when that was not it, "Show me".
 */
async function answer(
  page: Page,
  ui: Catalogue['walkthrough']['page'],
  auditWrong: string | undefined,
): Promise<void> {
  const question = page.getByTestId('question');
  if ((await question.getAttribute('data-question-kind')) === 'state')
    await page.locator('[data-answer-machine] [data-state]').first().click();
  else
    await page
      .locator('.ps-learn-stage [data-layer="node"]')
      .first()
      .click({ position: { x: 30, y: 10 } });
  await expect(page.getByTestId('feedback')).not.toBeEmpty();
  if ((await question.getAttribute('data-settled')) === 'open') {
    if (auditWrong) await expectAccessible(page, `${auditWrong}, a wrong pick`);
    await page.getByRole('button', { name: ui.showMe }).click();
  }
  await expect(question).not.toHaveAttribute('data-settled', 'open');
}

test('the save dialog, and the shared timeline it makes, in both languages', async ({ page }) => {
  test.setTimeout(180_000);
  const c = new ConsolePage(page, 'live');
  await c.open();
  await page.locator('body').press('Home');
  await page.getByTestId('mark-start').click();
  await page.locator('body').press('End');
  await page.getByTestId('mark-end').click();
  await expect(page.getByTestId('marked-period')).toBeVisible();
  const podId = (await c.pods.first().getAttribute('data-id')) ?? '';
  await c.select(podId);
  await page.getByTestId('save-period').click();
  const dialog = page.getByTestId('save-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('save-title').fill('Audited period');
  await dialog.getByTestId('save-notes').fill('Saved by the accessibility audit.');
  await dialog.getByTestId('annotation-input').fill('A note on this pod');
  await dialog.getByTestId('add-annotation').click();
  await expectAccessible(page, 'the save dialog');
  await dialog.getByTestId('save-submit').click();
  const link = dialog.getByTestId('share-url');
  await expect(link).toHaveValue(/\/en\/t\/[A-Za-z0-9_-]+\?at=/);
  await expectAccessible(page, 'the save dialog, saved');
  const shared = new URL(await link.inputValue());

  for (const locale of LOCALES) {
    const view = new ConsolePage(page, 'live', locale);
    await view.openUrl(`${shared.pathname.replace(/^\/en\//, `/${locale}/`)}${shared.search}`);
    await expect(page.getByTestId('timeline-title')).toHaveText('Audited period');
    await expect(page.getByTestId('annotation-text')).toBeVisible();
    await expectAccessible(page, `/${locale}/t/<id>, the pod selected`);
  }
});
