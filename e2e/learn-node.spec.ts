/**
 * The node and consistency walkthroughs (issue 15), in English and in Chinese: each opens on a
 * step with its question and takes the answer by a click in the diagram or the state machine —
 * the CNI not ready (the node's Ready, the pod without a sandbox), memory pressure (the pod the
 * kubelet evicted first), a partition (the pod's phase while the node is Unknown) and a hung
 * runtime (Ready=False, not Unknown).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type EnglishCatalogue from '../messages/en/learn.json';

type Catalogue = typeof EnglishCatalogue;
const catalogue = (locale: string): Catalogue =>
  JSON.parse(
    readFileSync(join(process.cwd(), 'messages', locale, 'learn.json'), 'utf8'),
  ) as Catalogue;

/** Walkthrough pages record the scenario on first use: allow for it. */
const RECORDING_TIMEOUT = 120_000;

async function open(page: Page, locale: string, id: string, step: number): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`/${locale}/learn/${id}?step=${step}`);
  await expect(page.locator('.ps-learn-step')).toHaveAttribute('data-step', String(step), {
    timeout: RECORDING_TIMEOUT,
  });
}

for (const locale of ['en', 'zh-CN'] as const) {
  test.describe(`node walkthroughs (${locale})`, () => {
    const m = catalogue(locale);
    const question = (page: Page) => page.getByTestId('question');
    const state = (page: Page, s: string) =>
      page.locator(`[data-answer-machine] [data-state="${s}"]`);
    // A pod tile is named by its <title> (its text), not by an aria-label.
    const pod = (page: Page, name: string) =>
      page.locator('.ps-learn-stage [data-layer="pod"]').filter({ hasText: name });

    test('the CNI not ready: the node is NotReady, the new pod has no sandbox', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const s = m.scenarios['cni-not-ready'];
      await open(page, locale, 'cni-not-ready', 2);
      await expect(question(page)).toContainText(s.questions.notReady.prompt);
      await state(page, 'Unknown').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'open');
      await state(page, 'False').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toContainText('NetworkReady');

      await open(page, locale, 'cni-not-ready', 3);
      await expect(question(page)).toContainText(s.questions.stuck.prompt);
      await pod(page, 'storefront').click({ position: { x: 12, y: 12 } });
      await expect(question(page)).toHaveAttribute('data-settled', 'open');
      await pod(page, 'cart-api').click({ position: { x: 12, y: 12 } });
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toContainText('PodReadyToStartContainers');
    });

    test('memory pressure: the BestEffort pod goes first, Failed with reason Evicted', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await open(page, locale, 'memory-pressure', 5);
      await expect(question(page)).toContainText(
        m.scenarios['memory-pressure'].questions.evictBestEffort.prompt,
      );
      await pod(page, 'thumbnail-backfill').click({ position: { x: 12, y: 12 } });
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toContainText('Evicted');
    });

    test('a partition keeps the phase Running; a hung runtime is Ready=False', async ({ page }) => {
      test.setTimeout(240_000);
      await open(page, locale, 'node-lost', 3);
      await expect(question(page)).toContainText(
        m.scenarios['node-lost'].questions.phaseUnknown.prompt,
      );
      await state(page, 'Running').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'right');

      await open(page, locale, 'runtime-hung', 2);
      await expect(question(page)).toContainText(m.scenarios['runtime-hung'].questions.down.prompt);
      await state(page, 'False').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toContainText('KubeletNotReady');
    });
  });
}
