import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Debian's Chromium where it exists (this machine cannot download Playwright's own browser);
// Playwright's bundled Chromium elsewhere.
const debianChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const executablePath = existsSync(debianChromium) ? debianChromium : undefined;

const port = Number(process.env.E2E_PORT ?? 3107);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'podscope-e2e-'));

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${port}/api/healthz`,
    reuseExistingServer: false,
    // A first start builds the console and records the browser demo beside it (scripts/start.mjs).
    timeout: 600_000,
    env: {
      PODSCOPE_PORT: String(port),
      PODSCOPE_DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
