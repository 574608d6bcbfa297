/**
 * One journey in each language (issue 10): open the live console, select a crash-looping
 * container, read the kubelet's explanation of it, then go to the walkthroughs and step through
 * the CrashLoopBackOff one — every word on the way from the reader's catalogue, the Kubernetes
 * terms as kubectl prints them. Screenshots of each stop go to test-results/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type LearnCatalogue from '../messages/en/learn.json';
import type UiCatalogue from '../messages/en/ui.json';
import type WhyCatalogue from '../messages/en/why.json';
import { ConsolePage, type Locale } from './pages/console';

const read = <T>(locale: Locale, file: string): T =>
  JSON.parse(readFileSync(join(process.cwd(), 'messages', locale, file), 'utf8')) as T;

/** The fixed words of an ICU template before its first argument (what every rendering shows). */
const lead = (template: string): string => template.slice(0, template.indexOf('{')).trim();

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

test.use({ viewport: { width: 1440, height: 900 } });

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `journey-${name}-1440x900.png`) });

for (const locale of ['en', 'zh-CN'] as const) {
  test(`journey in ${locale}: a crash-looping container explained, then the walkthrough`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const ui = read<typeof UiCatalogue>(locale, 'ui.json');
    const why = read<typeof WhyCatalogue>(locale, 'why.json');
    const learn = read<typeof LearnCatalogue>(locale, 'learn.json');
    const other = read<typeof WhyCatalogue>(locale === 'en' ? 'zh-CN' : 'en', 'why.json');
    const crashLoop = why.container.waiting.crashLoop;

    // The console, in this language.
    const c = new ConsolePage(page, 'live', locale);
    await c.open();
    await expect(page.locator('html')).toHaveAttribute('lang', locale);

    // A crash-looping container, selected: its panel explains the back-off in words.
    const id = await c.crashLoopingContainer();
    await c.select(id);
    const panel = page.locator(`[data-panel-layer="container"][data-panel-id="${id}"]`);
    const explanation = panel.locator('.ps-why.is-prominent .ps-why-text');
    // Live, the container leaves CrashLoopBackOff when its back-off ends: read the explanation
    // at a moment it is there (state and words read together).
    await expect
      .poll(
        async () =>
          (await page.getByTestId('entity-state').textContent())?.includes('CrashLoopBackOff')
            ? await explanation.textContent()
            : '',
        { timeout: 120_000, intervals: [200] },
      )
      .toContain(lead(crashLoop));
    const text = (await explanation.textContent()) ?? '';
    expect(text).toContain('CrashLoopBackOff');
    // Nothing from the other language leaks in.
    expect(text).not.toContain(lead(other.container.waiting.crashLoop));
    await shot(page, `${locale}-console`);

    // To the walkthroughs, from the header.
    await page.getByRole('link', { name: ui.header.learn, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/learn$`));
    const card = page.locator('[data-walkthrough="crashloop"]');
    await card.getByRole('link', { name: learn.scenarios.crashloop.title }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/learn/crashloop\\?step=1`));

    // Step 1: the narration and the question in this language; answer it, then go on.
    const step = page.locator('.ps-learn-step');
    await expect(step).toHaveAttribute('data-step', '1', { timeout: 90_000 });
    await expect(page.getByTestId('narration')).toHaveText(learn.scenarios.crashloop.steps.apply);
    await expect(page.getByText(learn.walkthrough.page.watching)).toBeHidden({ timeout: 30_000 });
    await shot(page, `${locale}-walkthrough-step1`);
    // The question asks for the pod's phase: answer in the state machine.
    const page_ = learn.walkthrough.page;
    await expect(page.getByTestId('question')).toContainText(
      learn.scenarios.crashloop.questions.apply.prompt,
    );
    await page.locator('[data-answer-machine] [data-state="Running"]').click();
    await expect(page.getByTestId('question')).toHaveAttribute('data-settled', 'right');
    await expect(page.getByTestId('feedback')).toContainText(page_.right);
    await expect(page.getByTestId('explanation')).toBeVisible();
    await page.getByRole('button', { name: page_.next }).click();

    // Step 2: the first crash, told in this language.
    await expect(step).toHaveAttribute('data-step', '2');
    await expect(page.getByTestId('narration')).toHaveText(
      learn.scenarios.crashloop.steps.firstCrash,
    );
    await shot(page, `${locale}-walkthrough-step2`);
  });
}
