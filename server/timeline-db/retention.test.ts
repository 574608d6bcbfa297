import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, reduce, type ClusterState, type TimelineEvent } from '@/lib/timeline';
import { PodscopeStoreError } from './errors';
import { EVENTS_PER_BATCH } from './retention';
import { openStore, type TimelineStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { ManualClock, tempDir } from './testing/testkit';

const START = 10_000_000;
const STEP = 1_000;
let tmp: ReturnType<typeof tempDir>;
let clock: ManualClock;
let store: TimelineStore;
let workload: SyntheticWorkload;

beforeEach(() => {
  tmp = tempDir();
  clock = new ManualClock(START);
  store = openStore({ path: tmp.dir, checkpointEvery: 1_000, clock });
  workload = new SyntheticWorkload({
    seed: 31,
    nodes: 3,
    podsPerNode: 5,
    startT: START,
    stepMs: STEP,
  });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

function fill(count: number): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  for (const b of workload.batches(count)) out.push(...store.append(b));
  clock.set(workload.now);
  return out;
}

function foldUpTo(events: readonly TimelineEvent[], seq: number): ClusterState {
  let s = emptyState();
  for (const e of events) if (e.seq <= seq) s = reduce(s, e);
  return s;
}

function thrown(fn: () => unknown): PodscopeStoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PodscopeStoreError) return err;
    throw err;
  }
  throw new Error('expected a PodscopeStoreError');
}

describe('retention by age', () => {
  it('removes events older than maxAgeMs and keeps every retained moment replayable', async () => {
    const events = fill(12_000);
    const cutoff = clock.now() - 20 * STEP;
    const keptFromSeq = events.find((e) => e.t >= cutoff)?.seq ?? 0;
    const samples = [keptFromSeq, keptFromSeq + 10, keptFromSeq + 700, events.length];
    const before = samples.map((s) => store.stateAtSeq(s));

    const report = await store.retention({ maxAgeMs: 20 * STEP });

    expect(report.reasons).toEqual(['maxAge']);
    expect(report.eventsRemoved).toBe(keptFromSeq - 1);
    expect(report.floorSeq).toBe(keptFromSeq - 1);
    expect(report.complete).toBe(true);
    expect(store.count()).toBe(events.length - (keptFromSeq - 1));
    expect(store.range({ limit: 1 })[0]?.seq).toBe(keptFromSeq);
    // Every retained moment gives the same state as before retention.
    samples.forEach((s, i) => expect(store.stateAtSeq(s)).toEqual(before[i]));
    expect(store.stateAtSeq(report.floorSeq)).toEqual(foldUpTo(events, report.floorSeq));
    expect(store.stateAt(cutoff)).toEqual(
      foldUpTo(events, events.filter((e) => e.t <= cutoff).length),
    );
    // Older checkpoints went; one remains exactly at the floor.
    const db = new Database(store.path, { readonly: true });
    const seqs = db.prepare('SELECT seq FROM checkpoints ORDER BY seq').pluck().all() as number[];
    db.close();
    expect(seqs[0]).toBe(report.floorSeq);
    expect(report.checkpointsRemoved).toBeGreaterThan(0);
  });

  it('refuses moments before the floor with NOT_RETAINED', async () => {
    const events = fill(3_000);
    const report = await store.retention({ maxAgeMs: 5 * STEP });
    expect(report.floorSeq).toBeGreaterThan(0);
    const err = thrown(() => store.stateAtSeq(report.floorSeq - 1));
    expect(err.code).toBe('NOT_RETAINED');
    expect(err.message).toContain(`oldest state kept: seq ${report.floorSeq}`);
    expect(thrown(() => store.stateAt(START - 1)).code).toBe('NOT_RETAINED');
    expect(store.stateAt(report.floorT)).toEqual(
      foldUpTo(events, events.filter((e) => e.t <= report.floorT).length),
    );
    expect(store.bounds()).toMatchObject({
      floorSeq: report.floorSeq,
      floorT: report.floorT,
      latestSeq: events.length,
    });
  });

  it('is a no-op when nothing is old enough', async () => {
    fill(1_000);
    const report = await store.retention({ maxAgeMs: 1e9 });
    expect(report).toMatchObject({
      reasons: [],
      eventsRemoved: 0,
      checkpointsRemoved: 0,
      floorSeq: 0,
    });
  });

  it('uses the policy given to openStore by default', async () => {
    store.close();
    store = openStore({ path: tmp.dir, clock, retention: { maxAgeMs: 10 * STEP } });
    fill(2_000);
    const report = await store.retention();
    expect(report.reasons).toEqual(['maxAge']);
  });

  it('deletes in bounded batches, letting appends run in between', async () => {
    fill(3 * EVENTS_PER_BATCH + 500);
    const running = store.retention({ maxAgeMs: 0 });
    // retention yields to the event loop between batches; this append lands mid-run.
    await new Promise((resolve) => setImmediate(resolve));
    const appended = store.append(workload.nextBatch());
    const report = await running;
    expect(report.eventsRemoved).toBeGreaterThan(3 * EVENTS_PER_BATCH);
    expect(store.range({ limit: Number.POSITIVE_INFINITY })).toEqual(appended);
    const all = store.stateAtSeq(store.latestSeq());
    expect(Object.keys(all.nodes)).toHaveLength(3);
  });

  it('concurrent calls share one run', async () => {
    fill(2_000);
    const a = store.retention({ maxAgeMs: 0 });
    const b = store.retention({ maxAgeMs: 0 });
    expect(b).toBe(a);
    await a;
  });

  it('finishes an interrupted run: rows below the floor are removed next time', async () => {
    fill(3 * EVENTS_PER_BATCH);
    const run = store.retention({ maxAgeMs: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    store.close(); // stops between batches
    const report = await run;
    expect(report.complete).toBe(false);
    store = openStore({ path: tmp.dir, clock });
    expect(store.count()).toBeGreaterThan(0);
    const again = await store.retention({});
    expect(again.eventsRemoved).toBeGreaterThan(0);
    expect(store.count()).toBe(0);
    expect(store.stateAt(clock.now()).seq).toBe(store.latestSeq());
  });
});

describe('retention by size', () => {
  it('removes the oldest events until the data fits, and hands pages back to the file system', async () => {
    const events = fill(20_000);
    const before = store.stats().usedBytes;
    const fileBefore = statSync(store.path).size;
    const limit = Math.floor(before / 3);
    const report = await store.retention({ maxBytes: limit });
    expect(report.reasons).toEqual(['maxBytes']);
    expect(report.bytesBefore).toBe(before);
    expect(report.bytesAfter).toBeLessThanOrEqual(limit);
    expect(report.overBudget).toBe(false);
    // It removed roughly what it had to, not everything.
    expect(store.count()).toBeGreaterThan(events.length / 5);
    expect(store.stateAtSeq(store.latestSeq())).toEqual(foldUpTo(events, events.length));
    expect(store.stateAtSeq(report.floorSeq)).toEqual(foldUpTo(events, report.floorSeq));
    // The WAL holds the shrunk file until a checkpoint; closing checkpoints and truncates it.
    store.close();
    expect(statSync(`${tmp.dir}/timeline.db`).size).toBeLessThan(fileBefore / 2);
    store = openStore({ path: tmp.dir, clock });
  });

  it('reports overBudget when even the newest state does not fit', async () => {
    const events = fill(2_000);
    const report = await store.retention({ maxBytes: 1 });
    expect(report.overBudget).toBe(true);
    expect(store.count()).toBe(0);
    expect(report.floorSeq).toBe(events.length);
    expect(store.stateAt(clock.now())).toEqual(foldUpTo(events, events.length));
  });
});

describe('retention and saved timelines', () => {
  it('leaves saved timelines intact', async () => {
    const events = fill(4_000);
    const from = START + 2 * STEP;
    const to = START + 6 * STEP;
    const saved = store.saveTimeline({ title: 'incident', from, to });
    const copy = store.getTimeline(saved.id);
    await store.retention({ maxAgeMs: 0 });
    expect(store.count()).toBe(0);
    const after = store.getTimeline(saved.id);
    expect(after).toEqual(copy);
    expect(after.events).toEqual(events.filter((e) => e.t > from && e.t <= to));
  });
});
