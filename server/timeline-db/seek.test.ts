import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyState, reduce, type ClusterState, type TimelineEvent } from '@/lib/timeline';
import { openStore, type TimelineStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { ManualClock, tempDir } from './testing/testkit';

/**
 * stateAt / stateAtSeq must give exactly what folding every event from the start gives: the
 * reference here is the reducer applied to the stored events one by one.
 */
const EVERY = 500;
let tmp: ReturnType<typeof tempDir>;
let store: TimelineStore;
let events: TimelineEvent[];
/** reference[i] = the state after events[0..i-1]; reference[0] is empty. */
let reference: ClusterState[];

beforeAll(() => {
  tmp = tempDir();
  store = openStore({ path: tmp.dir, checkpointEvery: EVERY, clock: new ManualClock(0) });
  const workload = new SyntheticWorkload({
    seed: 21,
    nodes: 4,
    podsPerNode: 6,
    stepMs: 500,
    startT: 5_000_000,
  });
  for (const b of workload.batches(6_000)) store.append(b);
  events = store.range({ limit: Number.POSITIVE_INFINITY });
  reference = [emptyState()];
  for (const e of events)
    reference.push(reduce(reference[reference.length - 1] ?? emptyState(), e));
});
afterAll(() => {
  store.close();
  tmp.cleanup();
});

const expectedAtSeq = (seq: number): ClusterState =>
  reference[Math.min(seq, events.length)] ?? emptyState();

describe('checkpoints', () => {
  it('are written about every checkpointEvery events, at batch ends', () => {
    const db = new Database(store.path, { readonly: true });
    const seqs = db.prepare('SELECT seq FROM checkpoints ORDER BY seq').pluck().all() as number[];
    db.close();
    let previous = 0;
    for (const seq of seqs) {
      // A batch is never split, so the gap is at least EVERY and at most EVERY + one batch.
      expect(seq - previous).toBeGreaterThanOrEqual(EVERY);
      expect(seq - previous).toBeLessThan(EVERY + 400);
      previous = seq;
    }
    // The tail after the last checkpoint is shorter than the interval.
    expect(events.length - previous).toBeLessThan(EVERY);
  });

  it('hold exactly the folded state at their seq', () => {
    const db = new Database(store.path, { readonly: true });
    const seqs = db.prepare('SELECT seq FROM checkpoints ORDER BY seq').pluck().all() as number[];
    db.close();
    for (const seq of seqs) expect(store.stateAtSeq(seq)).toEqual(expectedAtSeq(seq));
  });
});

describe('stateAtSeq', () => {
  it('equals the fold from the start at any seq', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6_100 }), (seq) => {
        expect(store.stateAtSeq(seq)).toEqual(expectedAtSeq(seq));
      }),
      { numRuns: 60, seed: 42 },
    );
  });

  it('at 0 is the empty state; beyond the end it is the latest state', () => {
    expect(store.stateAtSeq(0)).toEqual(emptyState());
    expect(store.stateAtSeq(events.length + 1000)).toEqual(expectedAtSeq(events.length));
  });
});

describe('stateAt', () => {
  it('equals the fold of every event up to time t (inclusive)', () => {
    const first = events[0]?.t ?? 0;
    const last = events[events.length - 1]?.t ?? 0;
    fc.assert(
      fc.property(fc.integer({ min: first - 2_000, max: last + 2_000 }), (t) => {
        const upTo = events.filter((e) => e.t <= t).length;
        expect(store.stateAt(t)).toEqual(expectedAtSeq(upTo));
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('at an exact event time includes every event observed then', () => {
    const e = events[1234];
    if (!e) throw new Error('fixture too small');
    const state = store.stateAt(e.t);
    expect(state.t).toBe(e.t);
    expect(state.seq).toBe(events.filter((x) => x.t <= e.t).length);
  });
});

describe('after a restart', () => {
  it('keeps checkpointing from the stored state and seeks the same', () => {
    const dir = tempDir();
    try {
      const workload = new SyntheticWorkload({ seed: 3, nodes: 2, podsPerNode: 5 });
      let s = openStore({ path: dir.dir, checkpointEvery: 300 });
      for (const b of workload.batches(700)) s.append(b);
      s.close();
      s = openStore({ path: dir.dir, checkpointEvery: 300 });
      for (const b of workload.batches(900)) s.append(b);
      const all = s.range({ limit: Number.POSITIVE_INFINITY });
      const folded = all.reduce(reduce, emptyState());
      expect(s.stateAtSeq(s.latestSeq())).toEqual(folded);
      expect(s.stats().checkpoints).toBeGreaterThanOrEqual(4);
      s.close();
    } finally {
      dir.cleanup();
    }
  });

  it('checkpoint() on demand writes one at the latest seq', () => {
    const dir = tempDir();
    try {
      const s = openStore({ path: dir.dir, checkpointEvery: 1_000_000 });
      const workload = new SyntheticWorkload({ seed: 8, nodes: 2, podsPerNode: 3 });
      for (const b of workload.batches(500)) s.append(b);
      expect(s.stats().checkpoints).toBe(0);
      const empty = openStore({ path: ':memory:' });
      expect(empty.checkpoint()).toEqual({ seq: 0, t: 0, bytes: 0 });
      empty.close();
      const info = s.checkpoint();
      expect(info.seq).toBe(s.latestSeq());
      expect(info.bytes).toBeGreaterThan(0);
      expect(s.stats().checkpoints).toBe(1);
      const folded = s.range({ limit: Number.POSITIVE_INFINITY }).reduce(reduce, emptyState());
      expect(s.stateAtSeq(info.seq)).toEqual(folded);
      s.close();
    } finally {
      dir.cleanup();
    }
  });
});
