import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
// The run's own temporary directory; a run fails when a test leaves podscope-* entries in it.
const globalSetup = ['test/tmp-guard.ts'];

export default defineConfig({
  resolve: { alias: { '@': root } },
  test: {
    env: { TZ: 'UTC' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          globalSetup,
          include: [
            '{lib,server,components,trpc,app,scripts,deploy,bench,test}/**/*.test.{ts,tsx}',
          ],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
          // Property and 10k-entity tests do seconds of CPU work; on a shared 2-core machine under
          // load the 5 s default cut them off. A timeout is a hang detector here, not a speed check
          // (speed is npm run bench's job).
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          globalSetup,
          include: ['{lib,server,test,deploy,bench}/**/*.int.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
