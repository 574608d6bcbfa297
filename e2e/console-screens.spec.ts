/**
 * Screenshots of the console for people to look at: desktop (1440×900) and phone (390×844), in
 * English and Chinese, with the crash-looping container selected. Saved under
 * test-results/screenshots/ and attached to the report.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConsolePage, SOURCES, type Locale } from './pages/console';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

const dir = join(process.cwd(), 'test-results', 'screenshots');

for (const source of SOURCES) {
  for (const size of SIZES) {
    for (const locale of ['en', 'zh-CN'] as Locale[]) {
      test(`screenshot ${source} ${locale} ${size.width}×${size.height}`, async ({
        page,
      }, info) => {
        await page.setViewportSize(size);
        const c = new ConsolePage(page, source, locale);
        await c.open();
        const id = await c.crashLoopingContainer();
        await c.select(id);
        await expect(c.restartCount).toBeVisible();
        // Wait for the history to arrive, so the timeline and the log are part of the picture.
        await expect(c.logRows.nth(3)).toBeVisible({ timeout: 30_000 });
        // Nothing needs scrolling on a desktop: the page is exactly the window.
        if (size.width >= 1000) {
          const overflow = await page.evaluate(
            () => document.documentElement.scrollHeight - window.innerHeight,
          );
          expect(overflow).toBeLessThanOrEqual(0);
        }
        const name = `console-${source}-${locale}-${size.width}x${size.height}.png`;
        const path = join(dir, name);
        await page.screenshot({ path, fullPage: size.width < 1000 });
        await info.attach(name, { path, contentType: 'image/png' });
      });
    }
  }
}
