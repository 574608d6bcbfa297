/**
 * The walkthrough with an API server beside the node (partition-drift, issue 15), in English and
 * in Chinese: the Drift tab appears once the two sides disagree, and each question is answered
 * by a click — on the node's row in the drift list (a silent kubelet whose runtime still
 * answers), on the pod whose API status went stale in the diagram, on the orphan's row — with
 * the drift's own explanation shown after it, the panel's drift list for the selection, and no
 * axe violation with the Drift tab open (e2e/support/axe.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type EnglishCatalogue from '../messages/en/learn.json';
import { expectAccessible } from './support/axe';

type Catalogue = typeof EnglishCatalogue;
const catalogue = (locale: string): Catalogue =>
  JSON.parse(
    readFileSync(join(process.cwd(), 'messages', locale, 'learn.json'), 'utf8'),
  ) as Catalogue;

const ID = 'partition-drift';
/** Walkthrough pages record the scenario on first use: allow for it. */
const RECORDING_TIMEOUT = 120_000;

test.use({ viewport: { width: 1440, height: 900 } });

async function open(page: Page, locale: string, step: number): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`/${locale}/learn/${ID}?step=${step}`);
  await expect(page.locator('.ps-learn-step')).toHaveAttribute('data-step', String(step), {
    timeout: RECORDING_TIMEOUT,
  });
}

const question = (page: Page) => page.getByTestId('question');
const pod = (page: Page, name: string) =>
  page.locator('.ps-learn-stage [data-layer="pod"]').filter({ hasText: name });
const driftRow = (page: Page, kind: string) =>
  page.getByTestId('drift-view').locator(`tr[data-drift-kind="${kind}"]`);

/** Shows the Drift tab of the walkthrough's bottom pane. */
async function driftTab(page: Page): Promise<void> {
  const tab = page.getByTestId('bottom-tab-drift');
  await expect(tab).toBeVisible();
  await tab.click();
  await expect(page.getByTestId('drift-view')).toBeVisible();
}

for (const locale of ['en', 'zh-CN'] as const) {
  test.describe(`the API server walkthrough (${locale})`, () => {
    const m = catalogue(locale).scenarios[ID];

    test('before the partition both sides agree: no Drift tab, only the log', async ({ page }) => {
      test.setTimeout(180_000);
      await open(page, locale, 2);
      await expect(question(page)).toContainText(m.questions.agree.prompt);
      await expect(page.getByTestId('bottom-tab-drift')).toHaveCount(0);
      await expect(page.locator('.ps-learn-stage .ps-badge-drift')).toHaveCount(0);
    });

    test('a silent kubelet beside a runtime that answers: answered on the node’s drift row', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await open(page, locale, 3);
      await expect(question(page)).toContainText(m.questions.silent.prompt);
      await driftTab(page);
      const row = driftRow(page, 'kubeletNotReporting');
      await expect(row).toHaveCount(1);
      // The API side is the Lease's last renewal; the runtime side says it still answers.
      await expect(row.locator('td').nth(1)).toContainText('lease.spec.renewTime');
      await expect(row).toHaveAttribute('data-drift-status', 'drift');
      await expectAccessible(page, `/${locale}/learn/${ID} step 3, Drift tab open`);
      await row.getByRole('button').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toContainText('kubelet');
      await expect(
        page.locator('[data-panel-layer="node"]').getByTestId('drift-list'),
      ).toBeVisible();
      await expectAccessible(page, `/${locale}/learn/${ID} step 3, answered`);
    });

    test('stale status: the restarted pod is the one whose API copy is out of date', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await open(page, locale, 4);
      await expect(question(page)).toContainText(m.questions.stale.prompt);
      // The drifting pod carries the ≠ badge in the diagram; the steady one does not.
      await expect(pod(page, 'orders-worker').locator('.ps-badge-drift')).toHaveCount(1);
      await expect(pod(page, 'redis-0').locator('.ps-badge-drift')).toHaveCount(0);
      await pod(page, 'redis-0').click({ position: { x: 12, y: 12 } });
      await expect(question(page)).toHaveAttribute('data-settled', 'open');
      await pod(page, 'orders-worker').click({ position: { x: 12, y: 12 } });
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      // The panel's drift list: the API server's 0 restarts against the runtime's.
      const list = page.locator('[data-panel-layer="pod"]').getByTestId('drift-list');
      await expect(list.locator('[data-drift="staleStatus"]')).toBeVisible();
      await expect(list.locator('[data-drift="restartCountMismatch"] td').first()).toHaveText('0');
      await expectAccessible(page, `/${locale}/learn/${ID} step 4, answered`);
    });

    test('Terminating in the API server is not a phase: on the node the pod is still Running', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await open(page, locale, 5);
      await expect(question(page)).toContainText(m.questions.terminating.prompt);
      const state = (s: string) => page.locator(`[data-answer-machine] [data-state="${s}"]`);
      await state('Succeeded').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'open');
      await state('Running').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toBeVisible();
    });

    test('an orphan: force-deleted from the API server, still running — answered on its drift row', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await open(page, locale, 6);
      await expect(question(page)).toContainText(m.questions.orphan.prompt);
      await driftTab(page);
      const row = driftRow(page, 'orphanSandbox');
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('redis-0');
      await expectAccessible(page, `/${locale}/learn/${ID} step 6, Drift tab open`);
      await row.getByRole('button').click();
      await expect(question(page)).toHaveAttribute('data-settled', 'right');
      await expect(page.getByTestId('explanation')).toContainText('redis-0');
      await expect(
        page
          .locator('[data-panel-layer="pod"]')
          .getByTestId('drift-list')
          .locator('[data-drift="orphanSandbox"]'),
      ).toBeVisible();
      await expectAccessible(page, `/${locale}/learn/${ID} step 6, answered`);
    });
  });
}
