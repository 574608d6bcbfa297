/**
 * The worker threads as the image ships them: bundled by bundleWorkers (what `npm run image`
 * runs), in a folder that holds only the bundles, proto/ and the native externals — no server/,
 * no tsx — found through PODSCOPE_WORKERS_DIR as the image's entry sets it. Each bundle is
 * started in a real Worker by the code that starts it in production and answers its first
 * message: the relist pool lists a simulated node through it; the keeper thread writes a
 * checkpoint of an SQLite cluster timeline.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/timeline/events';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { newEpoch } from '@/server/cluster/envelope';
import { storedMessage } from '@/server/cluster/timeline/rows';
import { eventsMessage } from '@/server/cluster/testing';
import { ClusterCheckpoints } from '@/server/cluster/timeline/checkpoints';
import { KEEPER_ENTRY, KeeperThread } from '@/server/cluster/timeline/keeper-thread';
import { openClusterTimeline } from '@/server/cluster/timeline/timeline';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { memoryStore } from '@/server/engine/testing/memory-runtime';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { WORKERS_DIR_ENV, workerPaths } from '@/server/engine/workers/pool';
import { startSimNode } from '@/server/sim';
import { bundleWorkers } from './build';

const root = fileURLToPath(new URL('../..', import.meta.url));
const app = mkdtempSync(join(tmpdir(), 'podscope-workers-'));
const workers = join(app, 'workers');
const before = process.env[WORKERS_DIR_ENV];
const cleanups: (() => unknown)[] = [];

/** The image's /app, reduced to what the workers read. */
beforeAll(async () => {
  const bundles = await bundleWorkers(root, workers);
  expect(bundles.map((b) => b.slice(workers.length + 1)).sort()).toEqual([
    'keeper-worker.mjs',
    'relist-worker.mjs',
  ]);
  cpSync(join(root, 'proto'), join(app, 'proto'), { recursive: true });
  // The externals and what they require, nothing else of node_modules (no tsx).
  const require = createRequire(join(root, 'package.json'));
  mkdirSync(join(app, 'node_modules'));
  for (const pkg of ['better-sqlite3', 'bindings', 'file-uri-to-path'])
    symlinkSync(
      dirname(require.resolve(`${pkg}/package.json`)),
      join(app, 'node_modules', pkg),
      'dir',
    );
  expect(existsSync(join(app, 'node_modules', 'tsx'))).toBe(false);
  process.env[WORKERS_DIR_ENV] = workers;
}, 120_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  if (before === undefined) delete process.env[WORKERS_DIR_ENV];
  else process.env[WORKERS_DIR_ENV] = before;
  rmSync(app, { recursive: true, force: true });
});

async function until(what: string, fn: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the bundled worker threads', () => {
  it('relist worker: the pool starts the bundle, which lists a simulated node', async () => {
    expect(workerPaths().boot).toBe(join(workers, 'relist-worker.mjs'));
    const node = await startSimNode({
      name: 'b-1',
      socketPath: join(app, 'b-1.sock'),
      eventsMode: 'unimplemented',
    });
    cleanups.push(() => node.stop());
    // A bundle that cannot load makes the pool log its worker's error and exit: stop there.
    const errors: string[] = [];
    const engine = new Engine({
      dial: criRuntime,
      store: memoryStore(),
      relistWorkers: { count: 1 },
      timings: { ...DEFAULT_ENGINE_TIMINGS, relistMs: 200 },
      log: (line, level) => {
        if (level === 'error') errors.push(line);
      },
    });
    cleanups.push(() => engine.stop());
    engine.start();
    engine.watch(node.name, node.endpoint);
    await until('the node listed by the bundled worker', () => {
      if (errors.length > 0) throw new Error(errors.join('\n'));
      return engine.nodes().some((n) => n.name === 'b-1' && n.relists > 0 && n.connected);
    });
    expect(Object.keys(engine.snapshot().nodes)).toEqual(['b-1']);
  });

  it('keeper worker: the keeper thread starts the bundle, which writes a checkpoint', async () => {
    expect(workerPaths(KEEPER_ENTRY).boot).toBe(join(workers, 'keeper-worker.mjs'));
    const open = { path: join(app, 'cluster.db') };
    const tl = await openClusterTimeline(open);
    cleanups.push(() => tl.close());
    const work = new SyntheticWorkload({ seed: 3, nodes: 2, podsPerNode: 4, stepMs: 1_000 });
    const epochs = new Map<string, string>();
    const seqs = new Map<string, number>();
    let streamSeq = 0;
    for (let b = 0; b < 30; b++) {
      const byNode = new Map<string, TimelineEvent[]>();
      for (const e of b === 0 ? work.startAll() : work.nextBatch()) {
        const seq = (seqs.get(e.node) ?? 0) + 1;
        seqs.set(e.node, seq);
        byNode.set(e.node, [...(byNode.get(e.node) ?? []), { ...e, seq }]);
      }
      await tl.insert(
        [...byNode].flatMap(([node, events]) => {
          if (!epochs.has(node)) epochs.set(node, newEpoch());
          const first = events[0];
          const msg = eventsMessage(
            'c',
            node,
            epochs.get(node) ?? '',
            first?.seq ?? 1,
            events.length,
            first?.t,
            events,
          );
          return storedMessage(++streamSeq, msg);
        }),
      );
    }
    const logs: string[] = [];
    const thread = new KeeperThread({
      open,
      floor: () => tl.latestGid(),
      everyEvents: 50,
      minIntervalMs: 0,
      log: (line) => logs.push(line),
    });
    cleanups.push(() => thread.stop());
    const written = await thread.tick();
    expect(written?.gid).toBeGreaterThan(0);
    expect((await new ClusterCheckpoints(tl).latest())?.gid).toBe(written?.gid);
    expect(logs).toEqual([]);
  });
});
