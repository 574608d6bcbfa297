/**
 * The browser demo's recording on disk: recordDemo()'s output as a timeline file
 * (lib/timeline/file, FORMAT.md) at `.podscope/demo/recording.podscope.json`, made when the
 * console is built (scripts/lib/prepare.mjs runs `scripts/record-demo.mjs` beside `next build`)
 * and served by GET /api/demo.
 *
 * Why at build time: a recording takes real time (the simulator, the drivers and the engine run
 * through every virtual second; about 10–40 s a virtual minute on a shared machine), so the
 * browser cannot wait for one, and a committed copy would freeze the workload of the day it was
 * made. A build records the workload (server/demo/workload.ts) and rules as they are in that build;
 * the stamp (a fingerprint of lib/, server/ and proto/) says which sources a file was made from,
 * so a build whose sources did not change does not record again. Deterministic: the same sources
 * give the same file (server/demo/record.int.test.ts).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildTimelineFile, serializeTimelineFile } from '@/lib/timeline/file';
import { PODSCOPE_VERSION } from '@/server/timelines/version';
import { DEMO_RECORDING_VERSION, recordDemo, type DemoRecordOptions } from './record';

/** Virtual time the browser demo covers: every scene of the workload (the orders rollout at 5 min, a Job pruned at 6 min) and a minute more. */
export const DEMO_ASSET_DURATION_MS = 8 * 60_000;

export const demoAssetPath = (root: string): string =>
  join(root, '.podscope', 'demo', 'recording.podscope.json');
const stampPath = (file: string): string => `${file}.stamp`;

/** What a file was made from: the recorder's version and the sources' fingerprint. */
const stampLine = (sources: string): string => `v${DEMO_RECORDING_VERSION} ${sources}`;

/** True when `file` was recorded from these sources by this recorder. */
export function demoAssetFresh(file: string, sources: string): boolean {
  try {
    return readFileSync(stampPath(file), 'utf8').trim() === stampLine(sources);
  } catch {
    return false;
  }
}

/**
 * Records the demo and writes it as a timeline file, atomically; with `sources`, the stamp after
 * it (removed first, so a file never has a stamp it was not made for).
 */
export async function writeDemoAsset(
  file: string,
  sources: string | undefined,
  options: DemoRecordOptions = {},
): Promise<{ events: number; bytes: number }> {
  rmSync(stampPath(file), { force: true });
  const r = await recordDemo({ durationMs: DEMO_ASSET_DURATION_MS, ...options });
  const text = serializeTimelineFile(
    buildTimelineFile({
      title: 'Podscope demo',
      notes: `The built-in demo workload (server/demo/workload.ts, seed ${r.seed}) on ${r.nodes.length} simulated nodes, recorded through the driver and the engine.`,
      createdAt: r.start,
      from: r.start,
      to: r.end,
      initialState: r.initial,
      events: r.events,
      podscope: PODSCOPE_VERSION,
      kind: 'recorded',
    }),
  );
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
  if (sources !== undefined) writeFileSync(stampPath(file), `${stampLine(sources)}\n`);
  return { events: r.events.length, bytes: Buffer.byteLength(text) };
}
