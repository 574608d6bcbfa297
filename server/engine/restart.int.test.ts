/**
 * A server killed with SIGKILL restarts with its timeline intact: everything it had sent to a
 * subscriber is on disk, and the seq continues without reuse. The "server" is `podscope watch
 * --data DIR` (the engine with the persistent store, printing each event after it is committed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CriClient } from '@/server/cri/client';
import { Driver } from '@/server/driver/driver';
import { startSimNode, type SimNode } from '@/server/sim';
import { openStore } from '@/server/timeline-db';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function watch(
  endpoint: string,
  dir: string,
): { child: ChildProcess; seqs: number[]; waitFor(n: number): Promise<void> } {
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
      '200ms',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const seqs: number[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    seqs.push((JSON.parse(line) as { seq: number }).seq);
    for (const w of waiters.filter((w) => seqs.length >= w.n)) w.resolve();
  });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    seqs,
    waitFor: (n) =>
      new Promise((resolve, reject) => {
        if (seqs.length >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`only ${seqs.length} events after 60 s`)),
          60_000,
        );
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      }),
  };
}

describe('restart after SIGKILL', () => {
  it('keeps every acknowledged event and continues the seq', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const sim: SimNode = await startSimNode({ name: 'node-a' });
    const client = new CriClient(sim.endpoint);
    // Back-off at 0.005 (50 ms → 1.5 s): the crash loop keeps producing events however long the
    // CLI takes to start on a loaded machine (at 0.05 the back-off had reached 15 s by then).
    const driver = new Driver({ client, node: 'node-a', backoffScale: 0.005 });
    cleanups.push(async () => {
      await driver.stop();
      client.close();
      await sim.stop();
    });
    // A crash loop keeps events coming while the server is killed and restarted.
    await driver.apply({
      metadata: { name: 'crashy', namespace: 'test' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'podscope.local/busybox:1',
            command: ['sh', '-c', 'sleep 0.2; exit 1'],
          },
        ],
      },
    });

    const first = watch(sim.endpoint, dir);
    await first.waitFor(40);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const acknowledged = [...first.seqs];

    const second = watch(sim.endpoint, dir);
    await second.waitFor(acknowledged.length + 20);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));

    const store = openStore({ path: dir });
    try {
      const stored = store.range({ limit: 100_000 }).map((e) => e.seq);
      for (const seq of acknowledged) expect(stored).toContain(seq);
      expect(new Set(stored).size).toBe(stored.length);
      stored.forEach((s, i) => i > 0 && expect(s).toBeGreaterThan(stored[i - 1] ?? 0));
      // The restarted server continued after the last acknowledged seq and printed only new events.
      const resumed = second.seqs.filter((s) => s > Math.max(...acknowledged));
      expect(resumed.length).toBeGreaterThan(0);
      expect(Math.min(...resumed)).toBeGreaterThan(Math.max(...acknowledged));
    } finally {
      store.close();
    }
  }, 180_000);
});
