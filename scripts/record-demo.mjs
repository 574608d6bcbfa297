#!/usr/bin/env node
// Records the browser demo (`?source=demo`) from the simulator, the driver and the engine into
// .podscope/demo/recording.podscope.json (server/demo/asset.ts says why at build time).
//   node scripts/record-demo.mjs             record
//   node scripts/record-demo.mjs --if-stale  only when the file was made from other sources
//   node scripts/record-demo.mjs --out FILE [--minutes N]  elsewhere (the component tests'
//     recording: --out components/data/testing/demo.podscope.json --minutes 8)
// `npm start` and `npm test` run it beside `next build` (scripts/lib/prepare.mjs).
import { join, resolve } from 'node:path';
import { DEMO_SOURCES, log, root, sourceStamp } from './lib/prepare.mjs';

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const minutes = option('--minutes') === undefined ? undefined : Number(option('--minutes'));
if (minutes !== undefined && !(minutes > 0 && minutes <= 60)) {
  log('record-demo: --minutes takes a number of minutes from 0 to 60');
  process.exit(2);
}
const { register } = await import('tsx/esm/api');
register({ tsconfig: join(root, 'tsconfig.json') });
const { demoAssetFresh, demoAssetPath, writeDemoAsset } = await import('../server/demo/asset.ts');

const out = option('--out');
const file = out ? resolve(out) : demoAssetPath(root);
const stamp = sourceStamp(DEMO_SOURCES);
if (ifStale && demoAssetFresh(file, stamp)) process.exit(0);
log('recording the browser demo (the demo workload on 3 simulated nodes) …');
const started = Date.now();
try {
  const { events, bytes } = await writeDemoAsset(file, out ? undefined : stamp, {
    log: () => undefined,
    ...(minutes !== undefined ? { durationMs: minutes * 60_000 } : {}),
  });
  log(
    `recorded the demo: ${events} events, ${Math.round(bytes / 1024)} KiB in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  process.exit(0);
} catch (err) {
  log(
    `recording the demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exit(1);
}
