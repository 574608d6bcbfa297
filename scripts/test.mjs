#!/usr/bin/env node
// `npm test`: every suite — unit, integration (simulator and real containerd), Playwright e2e —
// on a fresh machine of this kind. Installs what is missing first (npm ci; as root, Debian's
// chromium and containerd). Extra arguments are ignored; run one suite with test:unit,
// test:integration or test:e2e.
import {
  ensureAptPackages,
  ensureBuild,
  ensureDemoRecording,
  ensureNodeModules,
  log,
  run,
  TEST_PACKAGES,
} from './lib/prepare.mjs';

const started = Date.now();
ensureNodeModules();
ensureAptPackages(TEST_PACKAGES);

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TZ: 'UTC' };
const step = (name, cmd, args) => {
  log(`── ${name}`);
  const t0 = Date.now();
  run(cmd, args, { env });
  log(`   ${name} passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
};

try {
  step('unit tests', 'npx', ['vitest', 'run', '--project', 'unit']);
  step('integration tests (simulator, containerd)', 'npx', [
    'vitest',
    'run',
    '--project',
    'integration',
  ]);
  const demo = ensureDemoRecording();
  ensureBuild();
  await demo;
  step('end-to-end tests (Playwright, Chromium)', 'npx', ['playwright', 'test']);
  log(`all suites passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
