/**
 * The disk fills up under the store (its hardLimitBytes: SQLite's max_page_count, which fails
 * writes with SQLITE_FULL exactly like a full file system). The engine keeps deriving the live
 * view, reports the store error in its health and its log, tells subscribers nothing it could
 * not commit, and once space returns writes the held events: no gap, no duplicate, and the
 * stored timeline rebuilds the state the engine holds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/timeline/events';
import { openStore } from '@/server/timeline-db';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { pod, startRig, type Rig } from './rig';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('a full disk under the store', () => {
  it('holds events in memory, reports it, and writes them without gap or duplicate once space returns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-full-'));
    const store = openStore({ path: dir, hardLimitBytes: 640 * 1024, checkpointEvery: 500 });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => store.close());
    const r: Rig = await startRig({ store, backoffScale: 0.01 });
    cleanups.push(() => r.close());

    // A subscriber from the start (a browser), collecting every batch it is told about.
    const ac = new AbortController();
    const received: TimelineEvent[] = [];
    const sub = r.engine.subscribe(ac.signal);
    const consuming = (async () => {
      for await (const batch of sub) received.push(...batch);
    })();
    cleanups.push(async () => {
      ac.abort();
      await consuming;
    });

    // Busy pods: crash loops with a tiny back-off fill the timeline fast.
    for (let i = 0; i < 6; i++)
      await r.driver.apply(pod(`crashy-${i}`, ['sh', '-c', 'sleep 1; exit 1']));
    let rounds = 0;
    while (r.engine.health().ok) {
      if (++rounds > 400) throw new Error('the store never filled up');
      await r.run(2_000, 500);
    }
    const health = r.engine.health();
    expect(health.storeError).toMatch(
      /timeline\.db: appending \d+ events after seq \d+ failed: disk full \(SQLITE_FULL/,
    );
    const heldLog = r.logs.filter((l) => l.startsWith('store: '));
    expect(heldLog).toHaveLength(1);
    expect(heldLog[0]).toMatch(/event\(s\) held in memory and retried$/);
    // What the console asks to show its warning banner.
    const api = createCaller(testContext({ engine: r.engine }));
    const warned = await api.cluster.health();
    expect(warned.storeError).toBe(health.storeError);
    expect(warned.heldEvents).toBeGreaterThan(0);

    // While full: the live view keeps moving, the committed view (what subscribers and snapshots
    // get) stands still, and nothing crashes.
    const committedSeq = r.engine.snapshot().seq;
    const restarts = () =>
      Object.values(r.engine.nodeView('node-a')?.pods ?? {}).reduce(
        (sum, p) =>
          sum + (p.status.containerStatuses ?? []).reduce((s, c) => s + c.restartCount, 0),
        0,
      );
    const restartsAtFull = restarts();
    await r.run(20_000, 500);
    expect(restarts()).toBeGreaterThan(restartsAtFull);
    expect(r.engine.snapshot().seq).toBe(committedSeq);
    expect(store.latestSeq()).toBe(committedSeq);
    expect(received.at(-1)?.seq).toBe(committedSeq);
    expect(r.engine.health().ok).toBe(false);
    // Said once, not once per failed write.
    expect(r.logs.filter((l) => l.startsWith('store: '))).toHaveLength(1);

    // Space returns (retention frees the oldest pages); the next write takes everything held.
    const report = await store.retention({ maxBytes: 160 * 1024 });
    expect(report.eventsRemoved).toBeGreaterThan(0);
    await r.run(1_000, 500);
    expect(r.engine.health().ok).toBe(true);
    expect(await api.cluster.health()).toEqual({ ok: true, storeError: null, heldEvents: 0 });
    expect(
      r.logs.filter((l) => /^store: writing again; \d+ held event\(s\) recorded$/.test(l)),
    ).toHaveLength(1);
    expect(r.engine.snapshot().seq).toBeGreaterThan(committedSeq);

    await new Promise((resolve) => setImmediate(resolve)); // let the subscriber take the last batch
    // The subscriber saw every seq exactly once, in order, from its first to the engine's last.
    const seqs = received.map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 0) + i));
    expect(seqs.at(-1)).toBe(r.engine.snapshot().seq);
    // The store agrees: what it holds after the floor is contiguous and ends at the same seq, and
    // it rebuilds exactly the engine's state.
    const stored = store.range({ limit: 1_000_000 }).map((e) => e.seq);
    expect(stored).toEqual(stored.map((_, i) => (stored[0] ?? 0) + i));
    expect(stored.at(-1)).toBe(r.engine.snapshot().seq);
    expect(store.stateAtSeq(store.latestSeq())).toEqual(r.engine.snapshot());
    // The held events are exactly what the subscriber got after the committed seq.
    const held = received.filter((e) => e.seq > committedSeq);
    expect(store.range({ afterSeq: committedSeq, limit: 1_000_000 })).toEqual(held);
  }, 120_000);
});
