/** Chromium for the browser benchmarks: Debian's build where present, with playwright.config.ts's flags. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

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
