/**
 * The guided walkthroughs, as a learner uses them (EXPERIENCE.md journey 5): open /learn, pick
 * OOMKilled, follow its four steps — watch each replay, answer by clicking the diagram or a state
 * in the state machine, read the kubelet's explanation — reach the end, and find the walkthrough
 * marked done. In English and in Chinese, with screenshots at 1440×900 and 390×844 in
 * test-results/screenshots/. Also: answering with the keyboard, reduced motion, resuming, and
 * switching language without losing the step.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type EnglishCatalogue from '../messages/en/learn.json';

type Catalogue = typeof EnglishCatalogue;
const catalogue = (locale: string): Catalogue =>
  JSON.parse(
    readFileSync(join(process.cwd(), 'messages', locale, 'learn.json'), 'utf8'),
  ) as Catalogue;
const en = catalogue('en');
const zh = catalogue('zh-CN');

const CATALOGUES = { en, 'zh-CN': zh } as const;
type Locale = keyof typeof CATALOGUES;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Walkthrough pages record the scenario on first use: allow for it. */
const RECORDING_TIMEOUT = 90_000;

class Learner {
  constructor(
    readonly page: Page,
    readonly locale: Locale,
  ) {}

  get m() {
    return CATALOGUES[this.locale];
  }
  get ui() {
    return this.m.walkthrough.page;
  }

  async shot(name: string, also: 'phone' | 'desktop-only' = 'phone'): Promise<void> {
    await this.page.screenshot({ path: join(SHOTS, `learn-${this.locale}-${name}-1440x900.png`) });
    if (also === 'desktop-only') return;
    await this.page.setViewportSize(PHONE);
    // Let the layout (and the diagram's measured size) settle at the new width.
    await this.page.waitForTimeout(400);
    await this.page.screenshot({
      path: join(SHOTS, `learn-${this.locale}-${name}-390x844.png`),
      fullPage: true,
    });
    await this.page.setViewportSize(DESKTOP);
    await this.page.waitForTimeout(300);
  }

  card(id: string): Locator {
    return this.page.locator(`[data-walkthrough="${id}"]`);
  }
  get question(): Locator {
    return this.page.getByTestId('question');
  }
  get feedback(): Locator {
    return this.page.getByTestId('feedback');
  }
  get explanation(): Locator {
    return this.page.getByTestId('explanation');
  }
  get stage(): Locator {
    return this.page.locator('.ps-learn-stage');
  }
  machineState(state: string): Locator {
    return this.page.locator(`[data-answer-machine] [data-state="${state}"]`);
  }
  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: false });
  }
  async step(n: number): Promise<void> {
    await expect(this.page.locator('.ps-learn-step')).toHaveAttribute('data-step', String(n), {
      timeout: RECORDING_TIMEOUT,
    });
  }
  /** Waits for the replay of the step to reach its moment (skipping it when asked to). */
  async arrive(skip: boolean): Promise<void> {
    const watching = this.page.getByText(this.ui.watching);
    if (skip && (await watching.isVisible())) await this.button(this.ui.skip).click();
    await expect(watching).toBeHidden({ timeout: 30_000 });
  }
  async next(): Promise<void> {
    await this.button(this.ui.next).click();
  }
}

for (const locale of ['en', 'zh-CN'] as const) {
  test.describe(`walkthroughs (${locale})`, () => {
    test.use({ viewport: DESKTOP });

    test('a learner completes the OOMKilled walkthrough, answering by clicking', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const l = new Learner(page, locale);
      const oom = l.m.scenarios.oomkilled;

      // The list: every scenario, nothing started yet.
      await page.goto(`/${locale}/learn`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.m.walkthrough.list.title);
      const cards = page.locator('[data-walkthrough]');
      // One card per scenario of the library (one JSON document each).
      await expect(cards).toHaveCount(
        readdirSync(join(process.cwd(), 'server', 'scenarios', 'library')).filter((f) =>
          f.endsWith('.json'),
        ).length,
      );
      await expect(l.card('oomkilled')).toHaveAttribute('data-progress', 'new');
      await expect(l.card('oomkilled')).toContainText(l.m.walkthrough.list.status.new);
      await expect(l.card('oomkilled').locator('code', { hasText: 'OOMKilled' })).toBeVisible();
      await l.shot('list');

      // Pick OOMKilled.
      await l.card('oomkilled').getByRole('link', { name: oom.title }).click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/learn/oomkilled\\?step=1`));

      // Step 1: the replay plays in slow motion, then asks for the pod's phase.
      await l.step(1);
      await expect(page.getByTestId('narration')).toHaveText(oom.steps.apply);
      await l.arrive(false);
      await expect(l.question).toContainText(oom.questions.apply.prompt);
      await l.shot('step1-question', 'desktop-only');
      // A wrong state first: not accepted, with a hint.
      await l.machineState('Pending').click();
      await expect(l.feedback).toContainText(l.ui.wrong);
      await expect(l.feedback).toContainText(oom.questions.apply.hint);
      await expect(l.question).toHaveAttribute('data-settled', 'open');
      await l.machineState('Running').click();
      await expect(l.question).toHaveAttribute('data-settled', 'right');
      await expect(l.feedback).toContainText(l.ui.right);
      await expect(l.explanation).toContainText('Running');
      await l.next();

      // Step 2: "click the container that was OOM-killed".
      await l.step(2);
      await expect(page).toHaveURL(/step=2/);
      await l.arrive(true);
      await expect(l.question).toContainText(oom.questions.killed.prompt);
      // While the question is open the diagram points at the pod, not at the answer.
      const pod = l.stage.locator('[data-layer="pod"]').first();
      const container = l.stage.locator('[data-layer="container"]').first();
      const podId = (await pod.getAttribute('data-id')) ?? '';
      const highlight = () => page.getByTestId('learn-highlight').textContent();
      await expect.poll(highlight).toContain(`g[data-id="${podId}"]`);
      expect(await highlight()).not.toContain(`${podId}/thumbnailer`);
      await l.shot('step2-question');
      // The pod is the wrong kind of thing: the feedback says so.
      await pod.click({ position: { x: 12, y: 12 } });
      await expect(l.feedback).toContainText(l.ui.wrong);
      await expect(l.question).toHaveAttribute('data-settled', 'open');
      await container.click();
      await expect(l.question).toHaveAttribute('data-settled', 'right');
      // The explanation is the kubelet's: the killed run, then the container now.
      await expect(l.explanation).toContainText('OOMKilled');
      await expect(l.explanation).toContainText('137');
      // The panel shows the container that was picked.
      await expect(page.locator('[data-panel-layer="container"]')).toBeVisible();
      await expect(page.getByTestId('last-exit')).toContainText('OOMKilled');
      await l.shot('step2-explained');
      await l.next();

      // Step 3: CrashLoopBackOff — the pod's phase is still Running.
      await l.step(3);
      await expect(page.getByText(l.ui.watching)).toBeVisible();
      await l.arrive(true);
      await expect(container).toHaveAttribute('data-reason', 'CrashLoopBackOff');
      await expect(l.question).toContainText(oom.questions.backoff.prompt);
      await l.machineState('Running').click();
      await expect(l.question).toHaveAttribute('data-settled', 'right');
      await expect(l.explanation).toContainText('Running');
      // The panel opens on the pod asked about: its phase, its state machine, its why.
      await expect(page.locator('[data-panel-layer="pod"]')).toBeVisible();
      await expect(
        page.locator('[data-panel-layer="pod"] [data-machine="podPhase"]'),
      ).toHaveAttribute('data-current', 'Running');
      await l.shot('step3-explained', 'desktop-only');
      await l.next();

      // Step 4: the takeaway, then the end.
      await l.step(4);
      await l.arrive(true);
      await expect(page.getByTestId('narration')).toHaveText(oom.steps.takeaway);
      await expect(l.question).toHaveCount(0);
      await l.button(l.ui.finish).click();
      await expect(page.getByTestId('walkthrough-done')).toContainText(l.ui.doneTitle);
      // Every question was answered by the learner, none shown; the lesson is repeated.
      if (locale === 'en')
        await expect(page.getByTestId('score')).toHaveText(
          'You answered 3 of 3 questions yourself.',
        );
      await expect(page.getByTestId('walkthrough-done')).toContainText(oom.steps.takeaway);
      await l.shot('done');

      // Back on the list, OOMKilled is done.
      await page.getByRole('link', { name: l.ui.allWalkthroughs }).click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/learn$`));
      await expect(l.card('oomkilled')).toHaveAttribute('data-progress', 'done');
      await expect(l.card('oomkilled')).toContainText(l.m.walkthrough.list.status.done);
      await l.shot('list-done', 'desktop-only');
    });
  });
}

test.describe('walkthroughs: keyboard, motion, resuming, language', () => {
  test.use({ viewport: DESKTOP });

  test('answers a question with the keyboard, and announces the verdict', async ({ page }) => {
    const l = new Learner(page, 'en');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/en/learn/oomkilled?step=2');
    await l.step(2);
    // Reduced motion: no replay, straight to the step's moment and its question.
    await expect(page.getByText(l.ui.watching)).toHaveCount(0);
    await expect(l.question).toContainText(l.m.scenarios.oomkilled.questions.killed.prompt);
    await expect(l.feedback).toHaveAttribute('aria-live', 'polite');
    // Into the diagram (its roving tab stop is the node), down to the pod, down to its container.
    await l.stage.locator('[data-layer="node"]').first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('[data-layer="container"]').first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(l.question).toHaveAttribute('data-settled', 'right');
    await expect(l.feedback).toContainText(l.ui.right);
  });

  test('a state question is answered with the keyboard too', async ({ page }) => {
    const l = new Learner(page, 'en');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/en/learn/oomkilled?step=3');
    await l.step(3);
    await l.machineState('Failed').focus();
    await page.keyboard.press('Enter');
    await expect(l.feedback).toContainText(l.ui.wrong);
    await l.machineState('Running').focus();
    await page.keyboard.press(' ');
    await expect(l.question).toHaveAttribute('data-settled', 'right');
  });

  test('resumes where it was left, and "Show me" reveals the answer', async ({ page }) => {
    const l = new Learner(page, 'en');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/en/learn/crashloop?step=2');
    await l.step(2);
    // A wrong pick, then ask to be shown.
    await l.stage
      .locator('[data-layer="node"]')
      .first()
      .click({ position: { x: 30, y: 10 } });
    await expect(l.feedback).toContainText(l.ui.wrong);
    await l.button(l.ui.showMe).click();
    await expect(l.question).toHaveAttribute('data-settled', 'shown');
    await expect(l.explanation).toBeVisible();
    await expect(page.locator('[data-panel-layer="container"]')).toBeVisible();

    await page.goto('/en/learn');
    await expect(l.card('crashloop')).toHaveAttribute('data-progress', 'started');
    await expect(l.card('crashloop')).toContainText('Step 2 of 5');
    await l.card('crashloop').getByRole('link').first().click();
    await expect(page).toHaveURL(/\/en\/learn\/crashloop\?step=2/);
    await l.step(2);
  });

  test('switching the language keeps the step', async ({ page }) => {
    const l = new Learner(page, 'zh-CN');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/zh-CN/learn/oomkilled?step=3');
    await l.step(3);
    await expect(page.getByTestId('narration')).toHaveText(zh.scenarios.oomkilled.steps.backoff);
    await page.getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/en\/learn\/oomkilled\?step=3/);
    await l.step(3);
    await expect(page.getByTestId('narration')).toHaveText(en.scenarios.oomkilled.steps.backoff);
  });

  test('an unknown walkthrough says so', async ({ page }) => {
    await page.goto('/en/learn/no-such-walkthrough');
    await expect(page.locator('.ps-learn-note[role="alert"]')).toContainText('no-such-walkthrough');
  });
});
