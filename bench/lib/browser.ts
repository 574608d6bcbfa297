/** Chromium for the browser benchmarks: Debian's build where present, with playwright.config.ts's flags. */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';

export async function launchChromium(): Promise<Browser> {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return chromium.launch({
    headless: true,
    ...(existsSync(path) ? { executablePath: path } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // Keep timers and frames running at full rate in a page nobody looks at.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
  });
}

/**
 * A page for the benchmarks. tsx compiles this project with esbuild's keepNames, which wraps
 * named functions in `__name(…)`; functions handed to page.evaluate carry that call into the
 * page, so the page gets a no-op `__name`.
 */
export async function benchPage(
  browser: Browser,
  viewport = { width: 1400, height: 900 },
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  return page;
}
