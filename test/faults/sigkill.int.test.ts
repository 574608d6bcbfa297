/**
 * The server SIGKILLed mid-write, again and again, under a busy node: nothing it acknowledged is
 * lost, the database stays intact, and the seq runs on without a gap or a reuse across restarts.
 * The server is `podscope watch --data DIR`: the engine with the persistent store, printing
 * the stored timeline, then each event once committed (server/engine/restart.int.test.ts does one
 * kill; this does several, at different moments, and checks the whole timeline).
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { CriClient } from '@/server/cri/client';
import { Driver } from '@/server/driver/driver';
import { startSimNode } from '@/server/sim';
import { openStore } from '@/server/timeline-db';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

interface Server {
  child: ChildProcess;
  /** Seqs the server printed: committed before they were printed (acknowledged). */
  seqs: number[];
  waitFor(n: number): Promise<void>;
}

function watch(endpoint: string, dir: string): Server {
  const child = spawn(
    process.execPath,
    [
      'bin/podscope.mjs',
      'watch',
      '--cri',
      `node-a=${endpoint}`,
      '--data',
      dir,
      '--relist',
      '100ms',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const seqs: number[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    seqs.push((JSON.parse(line) as { seq: number }).seq);
    for (const w of waiters.filter((w) => seqs.length >= w.n)) w.resolve();
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    seqs,
    waitFor: (n) =>
      new Promise((resolve, reject) => {
        if (seqs.length >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`only ${seqs.length} events after 40 s`)),
          40_000,
        );
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      }),
  };
}

async function kill(s: Server): Promise<void> {
  s.child.kill('SIGKILL');
  if (s.child.exitCode === null && s.child.signalCode === null)
    await new Promise((r) => s.child.once('exit', r));
}

describe('SIGKILL mid-write, repeatedly', () => {
  it('loses nothing acknowledged; the database is intact; seqs continue without gap or reuse', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-sigkill-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const sim = await startSimNode({ name: 'node-a' });
    const client = new CriClient(sim.endpoint);
    const driver = new Driver({ client, node: 'node-a', backoffScale: 0.02, log: () => undefined });
    cleanups.push(async () => {
      await driver.stop();
      client.close();
      await sim.stop();
    });
    // Busy: ten crash loops keep batches of events coming while the server is killed.
    for (let i = 0; i < 10; i++) {
      await driver.apply({
        metadata: { name: `crashy-${i}`, namespace: 'test' },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'podscope.local/busybox:1',
              command: ['sh', '-c', 'sleep 0.1; exit 1'],
            },
          ],
        },
      });
    }

    const acknowledged: number[][] = [];
    // Killed after its first new event (mid-startup, the first big batch), then 60 and 150 new
    // events in (it first re-prints what it found).
    for (const after of [1, 60, 150]) {
      const found = Math.max(0, ...acknowledged.flat());
      const s = watch(sim.endpoint, dir);
      await s.waitFor(found + after);
      await kill(s);
      acknowledged.push([...s.seqs]);
    }
    const last = watch(sim.endpoint, dir);
    await last.waitFor(Math.max(...acknowledged.flat()) + 30);
    last.child.kill('SIGTERM');
    await new Promise((r) => last.child.once('exit', r));
    acknowledged.push([...last.seqs]);

    const db = new Database(join(dir, 'timeline.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    const store = openStore({ path: dir });
    try {
      const stored = store.range({ limit: 1_000_000 });
      const seqs = stored.map((e) => e.seq);
      // Contiguous from 1: every restart continued right after the last committed seq.
      expect(seqs[0]).toBe(1);
      expect(seqs.filter((s, i) => s !== i + 1)).toEqual([]);
      const storedSet = new Set(seqs);
      for (const run of acknowledged) for (const seq of run) expect(storedSet.has(seq)).toBe(true);
      // Each server first prints the timeline it found (everything acknowledged before it, from
      // seq 1, nothing missing), then only new events, numbered after all of those.
      acknowledged.forEach((run, i) => {
        run.forEach((s, j) => j > 0 && expect(s).toBe((run[j - 1] ?? 0) + 1));
        const before = acknowledged.slice(0, i).flat();
        if (before.length === 0) return;
        const found = new Set(run.filter((s) => s <= Math.max(...before)));
        for (const seq of before) expect(found.has(seq)).toBe(true);
      });
      // The last server really added to the timeline after three kills.
      const lastRun = acknowledged.at(-1) ?? [];
      expect(lastRun.at(-1)).toBeGreaterThan(Math.max(...acknowledged.slice(0, -1).flat()));
      // Checkpoints written before the kills rebuild the same state as a fold from scratch.
      expect(store.stateAtSeq(store.latestSeq())).toEqual(reduceAll(emptyState(), stored));
    } finally {
      store.close();
    }
  }, 120_000);
});
