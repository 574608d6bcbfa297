/**
 * A browser that goes away for ten minutes and comes back, over real HTTP SSE: it resumes with
 * Last-Event-ID and gets every event it missed from the store, paged, with no gap and no
 * duplicate — or, when the gap reaches past retention, a fresh snapshot and the events after it.
 * Either way it ends up with exactly the state the engine holds. A subscriber that stops pulling
 * (its live queue overflows) is told to resume and does so the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isTrackedEnvelope, TRPCError } from '@trpc/server';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { reduce } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import type { WatchMessage } from '@/server/trpc/routers/cluster';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { pod, startRig, type Rig } from './rig';
import { serve, WatchClient } from './sse';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const MINUTE = 60_000;

/** A rig over a file store whose clock is the engine's (retention by age follows virtual time). */
async function setup(crashLoops: number): Promise<{ r: Rig; store: TimelineStore; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-offline-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const engine: { rig?: Rig } = {};
  const store = openStore({
    path: dir,
    checkpointEvery: 1_000,
    clock: { now: () => engine.rig?.clock.now() ?? 0 },
  });
  cleanups.push(() => store.close());
  const r = await startRig({ store, backoffScale: 0.02 });
  engine.rig = r;
  cleanups.push(() => r.close());
  // Crash loops with a short back-off: a steady stream of events.
  for (let i = 0; i < crashLoops; i++)
    await r.driver.apply(pod(`crashy-${i}`, ['sh', '-c', 'sleep 1; exit 1']));
  await r.driver.apply(pod('web', ['sleep', 'infinity']));
  await r.run(5_000);
  const srv = await serve(r.engine);
  cleanups.push(() => srv.close());
  return { r, store, url: srv.url };
}

function expectContiguous(seqs: readonly number[], from: number): void {
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs[0]).toBe(from);
  const gapsOrDups = seqs.filter((s, i) => i > 0 && s !== (seqs[i - 1] ?? 0) + 1);
  expect(gapsOrDups).toEqual([]);
}

describe('a browser offline for ten minutes', () => {
  it('resumes from Last-Event-ID with the complete backfill from the store, no gap, no duplicate', async () => {
    const { r, url } = await setup(8);
    const client = new WatchClient(url);
    const first = await client.connect();
    await client.read(first, () => client.seq >= r.engine.snapshot().seq);
    expect(client.snapshots).toHaveLength(1);
    await r.run(3_000);
    await client.read(first, () => client.seq >= r.engine.snapshot().seq);
    first.close();
    const leftAt = client.seq;

    await r.run(10 * MINUTE, 4_000);
    const missed = r.engine.snapshot().seq - leftAt;
    // More than one backfill page (2,000 events) piled up meanwhile.
    expect(missed).toBeGreaterThan(2_000);

    const second = await client.connect();
    await client.read(second, () => client.seq >= r.engine.snapshot().seq);
    // Back live: more events arrive on the same connection.
    await r.run(3_000);
    await client.read(second, () => client.seq >= r.engine.snapshot().seq);
    second.close();

    expect(client.snapshots).toHaveLength(1); // resumed, not restarted
    expectContiguous(client.seqs, (client.snapshots[0] ?? 0) + 1);
    expect(client.seqs.at(-1)).toBe(r.engine.snapshot().seq);
    expect(client.state).toEqual(r.engine.snapshot());
  }, 120_000);

  it('when the gap reaches past retention: a fresh snapshot, then the events after it', async () => {
    const { r, store, url } = await setup(2);
    const client = new WatchClient(url);
    const first = await client.connect();
    await client.read(first, () => client.seq >= r.engine.snapshot().seq);
    first.close();
    const leftAt = client.seq;

    await r.run(10 * MINUTE, 10_000);
    // Retention keeps only the last minute: the events right after leftAt are gone.
    const report = await store.retention({ maxAgeMs: MINUTE });
    expect(report.eventsRemoved).toBeGreaterThan(0);
    expect(r.engine.oldestSeq()).toBeGreaterThan(leftAt + 1);

    const second = await client.connect();
    await client.read(second, () => client.seq >= r.engine.snapshot().seq);
    await r.run(2_000);
    await client.read(second, () => client.seq >= r.engine.snapshot().seq);
    second.close();

    expect(client.snapshots).toHaveLength(2);
    const resumedAt = client.snapshots[1] ?? 0;
    expect(resumedAt).toBeGreaterThan(leftAt);
    const after = client.seqs.slice(client.seqs.findIndex((s) => s > resumedAt));
    expectContiguous(after, resumedAt + 1);
    expect(client.state).toEqual(r.engine.snapshot());
  }, 120_000);

  it('a subscriber that stops consuming: its live queue overflows, it is told to resume, and resumes with no gap', async () => {
    const { r } = await setup(1);
    const ac = new AbortController();
    cleanups.push(() => ac.abort());
    const caller = createCaller(testContext({ engine: r.engine }), { signal: ac.signal });
    const seqs: number[] = [];
    let state: ClusterState | undefined;
    let lastId: string | undefined;
    const take = (item: unknown) => {
      if (!isTrackedEnvelope(item)) throw new Error('untracked item');
      const [id, message] = item as unknown as [string, WatchMessage];
      if (message.type === 'snapshot') state = message.state;
      else if (message.type === 'events') {
        for (const e of message.events) {
          seqs.push(e.seq);
          state = state && reduce(state, e);
        }
      }
      lastId = id;
    };
    const first = (await caller.cluster.watch())[Symbol.asyncIterator]();
    take((await first.next()).value);
    const from = (state?.seq ?? 0) + 1;
    // 15,000 events while the consumer pulls nothing: more than a subscriber's live queue holds.
    for (let b = 0; b < 150; b++) {
      const batch: UnsequencedEvent[] = [];
      for (let i = 0; i < 100; i++) {
        batch.push({
          kind: 'cri',
          type: 'RuntimeConditionChanged',
          source: 'relist',
          node: 'node-a',
          t: r.clock.now(),
          detail: { b, i },
        });
      }
      r.engine.record(batch);
    }
    expect(await r.engine.metrics()).toMatch(/podscope_events_dropped_total [1-9]/);
    // Pulling again: what the backfill already covered, then the end — "fell behind, resume".
    let failure: unknown;
    try {
      for (let step = first.next(); ; step = first.next()) {
        const { value, done } = await step;
        if (done) break;
        take(value);
      }
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(TRPCError);
    expect((failure as TRPCError).message).toBe(
      'subscriber fell behind; resume from the last event id',
    );
    // Resume from the last id it saw, as the browser's link does.
    const second = (await caller.cluster.watch({ lastEventId: lastId }))[Symbol.asyncIterator]();
    while ((state?.seq ?? 0) < r.engine.snapshot().seq) take((await second.next()).value);
    ac.abort();
    expectContiguous(seqs, from);
    expect(state).toEqual(r.engine.snapshot());
  }, 120_000);
});
