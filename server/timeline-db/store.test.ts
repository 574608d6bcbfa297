import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  emptyState,
  entityId,
  reduceAll,
  type ClusterState,
  type TimelineEvent,
  type UnsequencedEvent,
} from '@/lib/timeline';
import { PodscopeStoreError } from './errors';
import { adaptiveCheckpointDue, openStore, type TimelineStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { tempDir } from './testing/testkit';

let tmp: ReturnType<typeof tempDir>;
let store: TimelineStore;
beforeEach(() => {
  tmp = tempDir();
  store = openStore({ path: tmp.dir });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

const cri = (t: number, node = 'node-a', extra: Partial<UnsequencedEvent> = {}): UnsequencedEvent =>
  ({
    t,
    node,
    kind: 'cri',
    type: 'ContainerStarted',
    source: 'relist',
    podUid: 'uid-1',
    container: 'app',
    ...extra,
  }) as UnsequencedEvent;

function thrown(fn: () => unknown): PodscopeStoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PodscopeStoreError) return err;
    throw err;
  }
  throw new Error('expected a PodscopeStoreError');
}

describe('append', () => {
  it('assigns strictly increasing seqs from 1 and returns the events in input order', () => {
    const first = store.append([cri(100), cri(101, 'node-b')]);
    const second = store.append([cri(102)]);
    expect(first.map((e) => e.seq)).toEqual([1, 2]);
    expect(first[1]?.node).toBe('node-b');
    expect(second.map((e) => e.seq)).toEqual([3]);
    expect(store.latestSeq()).toBe(3);
    expect(store.count()).toBe(3);
  });

  it('an empty batch is a no-op', () => {
    expect(store.append([])).toEqual([]);
    expect(store.latestSeq()).toBe(0);
  });

  it('stores what it returned, field for field (times revived as Dates)', () => {
    const workload = new SyntheticWorkload({ seed: 4 });
    const written: TimelineEvent[] = [];
    for (let i = 0; i < 5; i++) written.push(...store.append(workload.nextBatch()));
    const read = store.range();
    expect(read).toEqual(written);
    const running = read.find((e) => e.kind === 'container' && e.status?.state?.running);
    expect(running).toBeDefined();
    expect(
      running?.kind === 'container' && running.status?.state?.running?.startedAt,
    ).toBeInstanceOf(Date);
  });

  it('continues after a restart from the stored seq', () => {
    store.append([cri(1), cri(2), cri(3)]);
    store.close();
    store = openStore({ path: tmp.dir });
    expect(store.latestSeq()).toBe(3);
    expect(store.append([cri(4)])[0]?.seq).toBe(4);
  });

  it('never reuses a seq, even when the newest rows are gone (high-water mark in meta)', async () => {
    store.append([cri(1), cri(2), cri(3)]);
    // Everything is older than the age limit: retention removes every event, including the newest.
    const report = await store.retention({ maxAgeMs: 0 });
    expect(report.eventsRemoved).toBe(3);
    expect(store.count()).toBe(0);
    store.close();
    store = openStore({ path: tmp.dir });
    expect(store.latestSeq()).toBe(3);
    expect(store.append([cri(5)])[0]?.seq).toBe(4);
  });

  it('refuses a batch with an oversized event as a whole, naming the event', () => {
    const small = openStore({ path: `${tmp.dir}/small.db`, maxEventBytes: 1024 });
    try {
      small.append([cri(1)]);
      const big = cri(2, 'node-a', { detail: { message: 'x'.repeat(2000) } });
      const err = thrown(() => small.append([cri(2), big, cri(3)]));
      expect(err.code).toBe('TOO_LARGE');
      expect(err.message).toMatch(
        /event #1 \(cri ContainerStarted for uid-1\/app on node "node-a"\) is \d+ bytes encoded, above the 1024-byte limit/,
      );
      expect(small.latestSeq()).toBe(1);
      expect(small.count()).toBe(1);
      expect(small.append([cri(4)])[0]?.seq).toBe(2);
    } finally {
      small.close();
    }
  });

  it('counts bytes, not UTF-16 units, against the limit', () => {
    const small = openStore({ path: `${tmp.dir}/utf8.db`, maxEventBytes: 1500 });
    try {
      // 400 CJK characters: 400 UTF-16 units but 1200 bytes of UTF-8, plus the envelope.
      const err = thrown(() =>
        small.append([cri(1, 'node-a', { detail: { message: '节'.repeat(500) } })]),
      );
      expect(err.code).toBe('TOO_LARGE');
      expect(
        small.append([cri(1, 'node-a', { detail: { message: '节'.repeat(300) } })]),
      ).toHaveLength(1);
    } finally {
      small.close();
    }
  });

  it('stores strings exactly as given (escaping is the renderer’s job)', () => {
    const hostile = '<img src=x onerror=alert(1)> "quotes" \u0000 nul \u202e rtl 🚀';
    store.append([cri(1, hostile, { detail: { reason: hostile } })]);
    const [e] = store.range();
    expect(e?.node).toBe(hostile);
    expect(e?.kind === 'cri' && e.detail?.reason).toBe(hostile);
  });

  it('rejects malformed events with context and writes nothing', () => {
    store.append([cri(1)]);
    const err = thrown(() => store.append([cri(2), cri(Number.NaN, 'node-z')]));
    expect(err.code).toBe('INVALID');
    expect(err.message).toContain(
      'event #1 (cri ContainerStarted on node "node-z"): t must be a finite epoch-ms number, got NaN',
    );
    expect(
      thrown(() => store.append([{ ...cri(2), kind: 'bogus' } as unknown as UnsequencedEvent]))
        .code,
    ).toBe('INVALID');
    expect(thrown(() => store.append([cri(2, '')])).code).toBe('INVALID');
    expect(store.latestSeq()).toBe(1);
  });

  it('rejects non-finite seeks', () => {
    expect(thrown(() => store.stateAt(Number.NaN)).code).toBe('INVALID');
    expect(thrown(() => store.stateAtSeq(Number.POSITIVE_INFINITY)).code).toBe('INVALID');
  });

  it('ignores a seq the caller put on an event', () => {
    const withSeq = { ...cri(1), seq: 999 } as unknown as UnsequencedEvent;
    expect(store.append([withSeq])[0]?.seq).toBe(1);
    expect(store.range()[0]?.seq).toBe(1);
  });

  it('throws CLOSED after close', () => {
    store.close();
    expect(thrown(() => store.append([cri(1)])).code).toBe('CLOSED');
    expect(thrown(() => store.range()).code).toBe('CLOSED');
    expect(thrown(() => store.latestSeq()).code).toBe('CLOSED');
    store = openStore({ path: tmp.dir });
  });
});

describe('the caller’s states (AppendStates)', () => {
  /** The batch as append will number it, folded onto `before`. */
  const folded = (before: ClusterState, batch: UnsequencedEvent[]): ClusterState =>
    reduceAll(
      before,
      batch.map((e, i) => ({ ...e, seq: store.latestSeq() + 1 + i })),
    );

  it('takes `after` as the head state when `before` is the head state, checkpoints included', () => {
    store.close();
    store = openStore({ path: tmp.dir, checkpointEvery: 40 });
    const workload = new SyntheticWorkload({ seed: 7 });
    let state = emptyState();
    for (let i = 0; i < 12; i++) {
      const batch = workload.nextBatch();
      const after = folded(state, batch);
      store.append(batch, { before: state, after });
      // The very object: no second fold.
      expect(store.stateAtSeq(store.latestSeq())).toBe(after);
      state = after;
    }
    expect(store.stats().checkpoints).toBeGreaterThan(1);
    // Another connection reads the checkpoints and the events after them: the same states.
    const reader = openStore({ path: tmp.dir });
    try {
      const replay = reader.range();
      expect(reader.stateAtSeq(state.seq)).toEqual(state);
      for (const seq of [40, 80, Math.floor(state.seq / 2)])
        expect(reader.stateAtSeq(seq)).toEqual(reduceAll(emptyState(), replay.slice(0, seq)));
    } finally {
      reader.close();
    }
  });

  it('ignores `after` when `before` is not the head state, even an equal copy of it', () => {
    const workload = new SyntheticWorkload({ seed: 8 });
    const first = workload.nextBatch();
    const head = folded(emptyState(), first);
    store.append(first, { before: emptyState(), after: head });
    const batch = workload.nextBatch();
    const truth = folded(head, batch);
    const bogus: ClusterState = { ...truth, nodes: {} };
    store.append(batch, { before: structuredClone(head), after: bogus });
    const now = store.stateAtSeq(store.latestSeq());
    expect(now).not.toBe(bogus);
    expect(now).toEqual(truth);
  });

  it('ignores `after` when its seq is not the batch’s last', () => {
    const batch = [cri(1), cri(2)];
    const stale = folded(emptyState(), batch.slice(0, 1));
    store.append(batch, { before: emptyState(), after: stale });
    expect(store.stateAtSeq(2).seq).toBe(2);
  });

  it('on an empty timeline takes only an empty `before` as the head', () => {
    const bogus: ClusterState = { seq: 1, t: 5, nodes: { x: {} as never } };
    store.append([cri(5)], {
      before: { ...emptyState(), nodes: { x: {} as never } },
      after: bogus,
    });
    expect(store.stateAtSeq(1)).toEqual({ seq: 1, t: 5, nodes: {} });
    const given: ClusterState = { seq: 2, t: 6, nodes: {} };
    const other = openStore({ path: ':memory:' });
    try {
      other.append([cri(6), cri(6)], { before: emptyState(), after: given });
      expect(other.stateAtSeq(2)).toBe(given);
    } finally {
      other.close();
    }
  });
});

describe('two connections to one file', () => {
  it('a reader sees what the writer committed, including a raised retention floor', async () => {
    const reader = openStore({ path: tmp.dir });
    try {
      const workload = new SyntheticWorkload({ seed: 6, nodes: 2, podsPerNode: 3 });
      expect(reader.latestSeq()).toBe(0);
      const written: TimelineEvent[] = [];
      for (const b of workload.batches(600)) written.push(...store.append(b));
      expect(reader.latestSeq()).toBe(written.length);
      expect(reader.eventsAfter(written.length - 3)).toEqual(written.slice(-3));
      const head = reader.stateAtSeq(written.length);
      expect(head.seq).toBe(written.length);
      for (const b of workload.batches(300)) written.push(...store.append(b));
      expect(reader.stateAt(Number.MAX_SAFE_INTEGER).seq).toBe(written.length);
      const report = await store.retention({ maxAgeMs: 0 });
      expect(thrown(() => reader.stateAtSeq(report.floorSeq - 1)).code).toBe('NOT_RETAINED');
      expect(reader.bounds().floorSeq).toBe(report.floorSeq);
    } finally {
      reader.close();
    }
  });

  it('re-sequences instead of colliding', () => {
    const other = openStore({ path: tmp.dir });
    try {
      store.append([cri(1), cri(2)]);
      expect(other.append([cri(3)])[0]?.seq).toBe(3);
      expect(store.append([cri(4)])[0]?.seq).toBe(4);
      expect(store.range().map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    } finally {
      other.close();
    }
  });
});

describe('reads', () => {
  let all: TimelineEvent[];
  beforeEach(() => {
    const workload = new SyntheticWorkload({
      seed: 9,
      nodes: 3,
      podsPerNode: 4,
      stepMs: 1_000,
      startT: 1_000_000,
    });
    all = [];
    for (let i = 0; i < 20; i++) all.push(...store.append(workload.nextBatch()));
  });

  it('range() with no query returns everything in seq order (up to the default limit)', () => {
    expect(store.range()).toEqual(all);
  });

  it('range by time is inclusive at both ends', () => {
    const from = 1_005_000;
    const to = 1_009_000;
    const got = store.range({ from, to });
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(all.filter((e) => e.t >= from && e.t <= to));
  });

  it('range by time with nothing inside is empty', () => {
    expect(store.range({ from: 2_000_000 })).toEqual([]);
    expect(store.range({ to: 999_999 })).toEqual([]);
    expect(store.range({ from: 1_005_500, to: 1_005_900 })).toEqual([]);
  });

  it('pages with afterSeq and limit without gaps or duplicates', () => {
    const pages: TimelineEvent[] = [];
    let after = 0;
    for (;;) {
      const page = store.range({ afterSeq: after, limit: 37 });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(37);
      pages.push(...page);
      after = page[page.length - 1]?.seq ?? after;
    }
    expect(pages).toEqual(all);
  });

  it('filters by node and kind', () => {
    const got = store.range({ nodes: ['node-001'], kinds: ['pod', 'node'] });
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(
      all.filter((e) => e.node === 'node-001' && (e.kind === 'pod' || e.kind === 'node')),
    );
    expect(store.range({ nodes: [] })).toEqual([]);
  });

  it('combines time, seq and filters', () => {
    const mid = all[Math.floor(all.length / 2)]?.seq ?? 0;
    const got = store.range({
      from: 1_003_000,
      to: 1_015_000,
      afterSeq: mid,
      kinds: ['container'],
      limit: 10,
    });
    expect(got).toEqual(
      all
        .filter(
          (e) => e.t >= 1_003_000 && e.t <= 1_015_000 && e.seq > mid && e.kind === 'container',
        )
        .slice(0, 10),
    );
  });

  it('a non-finite limit means no limit', () => {
    expect(store.range({ limit: Number.POSITIVE_INFINITY })).toHaveLength(all.length);
    expect(store.range({ limit: 0 })).toEqual([]);
  });

  it('eventsAfter is what an SSE resume needs', () => {
    const at = all[100]?.seq ?? 0;
    expect(store.eventsAfter(at, 5)).toEqual(all.slice(101, 106));
    expect(store.eventsAfter(store.latestSeq())).toEqual([]);
  });

  it('bounds() and stats()', () => {
    const last = all[all.length - 1];
    expect(store.bounds()).toEqual({
      floorSeq: 0,
      floorT: 0,
      oldestSeq: 1,
      oldestT: 1_000_000,
      latestSeq: all.length,
      latestT: last?.t,
    });
    const stats = store.stats();
    expect(stats.events).toBe(all.length);
    expect(stats.usedBytes).toBeGreaterThan(0);
  });

  it('stores the entity id, node, kind and type columns', () => {
    // Filters only see columns, so a wrong column would show as a wrong filter result.
    const pods = store.range({ kinds: ['pod'] });
    expect(pods.every((e) => e.kind === 'pod')).toBe(true);
    expect(new Set(pods.map(entityId)).size).toBeGreaterThan(1);
  });
});

describe('timeline time', () => {
  it('is the running maximum of t, so a clock step backwards keeps time queries monotonic', () => {
    store.append([cri(1_000), cri(2_000)]);
    store.append([cri(1_500)]); // server clock stepped back
    store.append([cri(3_000)]);
    // The event keeps its own t…
    expect(store.range().map((e) => e.t)).toEqual([1_000, 2_000, 1_500, 3_000]);
    // …and sits at timeline time 2_000, like the reducer's state.t.
    expect(store.range({ from: 1_600, to: 2_500 }).map((e) => e.seq)).toEqual([2, 3]);
    expect(store.stateAt(2_000).seq).toBe(3);
    expect(store.stateAt(1_999).seq).toBe(1);
  });
});

describe('checkpoints by default follow the cost of a seek', () => {
  it('are due once the events since the last add up to its size, within bounds', () => {
    // Few events: never, however many bytes.
    expect(adaptiveCheckpointDue(999, 10_000_000, 1_000)).toBe(false);
    // Enough events, but fewer bytes than twice the checkpoint a seek would start from.
    expect(adaptiveCheckpointDue(5_000, 2_000_000, 30_000_000)).toBe(false);
    expect(adaptiveCheckpointDue(5_000, 30_000_000, 30_000_000)).toBe(false);
    expect(adaptiveCheckpointDue(5_000, 59_999_999, 30_000_000)).toBe(false);
    expect(adaptiveCheckpointDue(5_000, 60_000_000, 30_000_000)).toBe(true);
    // A huge state still gets one now and then.
    expect(adaptiveCheckpointDue(50_000, 1, 1e12)).toBe(true);
    // No checkpoint yet: after the minimum.
    expect(adaptiveCheckpointDue(1_000, 1, 0)).toBe(true);
  });

  it('a small timeline gets one every thousand-odd events, and seeks find them', () => {
    for (let i = 0; i < 35; i++)
      store.append(Array.from({ length: 100 }, (_, j) => cri(1_000 + i * 100 + j)));
    // 3,500 events of a tiny state: one at 1,000, 2,000 and 3,000.
    expect(store.stats().checkpoints).toBe(3);
    expect(store.stateAt(1_000 + 3_499).seq).toBe(3_500);
  });
});
