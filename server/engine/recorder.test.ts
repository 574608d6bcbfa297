import { describe, expect, it } from 'vitest';
import { encode } from '@/lib/timeline/codec';
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState, type ClusterState } from '@/lib/timeline/state';
import { adoptNodeFold, Recorder, type EngineStore } from './recorder';
import { memoryStore } from './testing/memory-runtime';

type States = { before: ClusterState; after: ClusterState };

/** A memory store that records the states each append was given, and can be made to fail. */
function watchedStore(): EngineStore & { given: (States | undefined)[]; fail?: Error } {
  const inner = memoryStore();
  const store: EngineStore & { given: (States | undefined)[]; fail?: Error } = {
    ...inner,
    given: [],
    append(events, states) {
      if (store.fail) throw store.fail;
      store.given.push(states);
      return inner.append(events);
    },
  };
  return store;
}

const added = (node: string, t: number, endpoint = `unix:///${node}.sock`): UnsequencedEvent => ({
  kind: 'node',
  type: 'NodeAdded',
  node,
  t,
  endpoint,
});

function recorder(store: EngineStore): Recorder {
  return new Recorder({ store, clock: { now: () => 0 }, publish: () => undefined, log: () => {} });
}

describe('Recorder hands the store its states (no second fold of a batch)', () => {
  it('gives each append the committed state before it and the working state after it', () => {
    const store = watchedStore();
    const r = recorder(store);
    const empty = r.committed;
    r.record([added('a', 1)]);
    const first = r.committed;
    r.record([added('b', 2), added('c', 3)]);
    expect(store.given).toEqual([
      { before: empty, after: first },
      { before: first, after: r.committed },
    ]);
    expect(store.given[0]?.before).toBe(empty);
    expect(store.given[1]?.before).toBe(first);
    expect(store.given[1]?.after).toBe(r.working);
  });

  it('after a failed write, the retry starts from the last committed state and covers what was held', () => {
    const store = watchedStore();
    const r = recorder(store);
    r.record([added('a', 1)]);
    const committed = r.committed;
    store.fail = Object.assign(new Error('disk full'), { code: 'DISK_FULL' });
    r.record([added('b', 2)]);
    expect(r.held).toBe(1);
    delete store.fail;
    r.record([added('c', 3)]);
    const last = store.given[store.given.length - 1];
    expect(last?.before).toBe(committed);
    expect(last?.after).toBe(r.committed);
    expect(Object.keys(r.committed.nodes)).toEqual(['a', 'b', 'c']);
  });

  it('a shrunk batch comes with the state folded from the shrunk events', () => {
    const store = watchedStore();
    const inner = store.append.bind(store);
    let refused = false;
    store.append = (events, states) => {
      const big = events.some((e) => e.kind === 'node' && (e.endpoint?.length ?? 0) > 10_000);
      if (big) {
        refused = true;
        throw Object.assign(new Error('too large'), { code: 'TOO_LARGE' });
      }
      return inner(events, states);
    };
    const r = recorder(store);
    const before = r.committed;
    const [event] = r.record([added('a', 1, 'x'.repeat(300_000))]);
    expect(refused).toBe(true);
    const given = store.given[store.given.length - 1];
    expect(given?.before).toBe(before);
    expect(given?.after).toBe(r.working);
    const shrunk = (r.working.nodes.a?.endpoint ?? '').length;
    expect(shrunk).toBeLessThan(300_000);
    expect(event).toBeDefined();
    const shrunkEvent = { ...added('a', 1, r.working.nodes.a?.endpoint), seq: 1 };
    expect(r.working).toEqual(reduceAll(before, [shrunkEvent]));
  });
});

describe('adoptNodeFold (the recorder takes a node engine’s fold instead of folding again)', () => {
  /** An event about node b unless it says otherwise. */
  const ev = (e: Record<string, unknown>): TimelineEvent =>
    ({ node: 'b', ...e }) as unknown as TimelineEvent;
  const at = (seq: number): TimelineEvent[] => [
    ev({ kind: 'cri', type: 'ContainerStarted', source: 'relist', seq, t: 50 }),
    ev({ kind: 'node', type: 'NodeUpdated', seq: seq + 1, t: 40, health: { connected: true } }),
    ev({
      kind: 'node',
      type: 'NodeConditionChanged',
      seq: seq + 2,
      t: 60,
      condition: { type: 'Ready', status: 'True' },
    }),
  ];
  /** A working state with nodes a and b at seq 10, and an engine holding the same view of b. */
  function setup() {
    const working = reduceAll(emptyState(), [
      { ...added('a', 1), seq: 1 },
      { ...added('b', 2), seq: 2 },
      ev({ kind: 'cri', type: 'ContainerCreated', source: 'relist', seq: 10, t: 70 }),
    ]);
    const before: ClusterState = { seq: 2, t: 2, nodes: { b: working.nodes.b! } };
    return { working, before };
  }

  it('gives the state the fold gives, byte for byte, holding the engine’s view of the node', () => {
    const { working, before } = setup();
    const events = at(11);
    const after = reduceAll(before, events);
    const adopted = adoptNodeFold(working, events, { node: 'b', before, after });
    const folded = reduceAll(working, events);
    expect(adopted).toStrictEqual(folded);
    expect(encode(adopted)).toBe(encode(folded));
    expect(adopted?.nodes.b).toBe(after.nodes.b);
    expect(adopted?.nodes.a).toBe(working.nodes.a);
    expect(working.nodes.b).toBe(before.nodes.b); // nothing changed in place
  });

  it('a node added by the batch goes to the end of the map, as the fold puts it', () => {
    const { working } = setup();
    const before: ClusterState = emptyState();
    const events = [{ ...added('c', 80), seq: 11 }];
    const after = reduceAll(before, events);
    const adopted = adoptNodeFold(working, events, { node: 'c', before, after });
    expect(encode(adopted)).toBe(encode(reduceAll(working, events)));
    expect(Object.keys(adopted?.nodes ?? {})).toEqual(['a', 'b', 'c']);
  });

  it('CRI events alone advance seq and t only', () => {
    const { working, before } = setup();
    const events = at(11).slice(0, 1);
    const after = reduceAll(before, events);
    const adopted = adoptNodeFold(working, events, { node: 'b', before, after });
    expect(adopted).toStrictEqual(reduceAll(working, events));
    expect(adopted?.nodes).toBe(working.nodes);
  });

  it('folds instead when it cannot show the result is the same', () => {
    const { working, before } = setup();
    const fold = (b: ClusterState, events: TimelineEvent[], node = 'b') =>
      adoptNodeFold(working, events, { node, before: b, after: reduceAll(b, events) });
    // Another view of the node (equal, not the same object).
    expect(fold({ ...before, nodes: { b: { ...working.nodes.b! } } }, at(11))).toBeUndefined();
    // An event about another node.
    expect(fold(before, [...at(11), ev({ ...at(14)[1]!, node: 'a' })])).toBeUndefined();
    // A seq the recorder's fold would skip, or the engine's.
    expect(fold(before, at(10))).toBeUndefined();
    expect(fold({ ...before, seq: 12 }, at(11))).toBeUndefined();
    // A removal (and maybe re-add) moves the node in the map.
    expect(
      fold(before, [ev({ kind: 'node', type: 'NodeRemoved', seq: 11, t: 80 })]),
    ).toBeUndefined();
    // The engine's state does not end at the batch's last seq.
    const events = at(11);
    expect(
      adoptNodeFold(working, events, {
        node: 'b',
        before,
        after: { ...reduceAll(before, events), seq: 20 },
      }),
    ).toBeUndefined();
  });

  it('commit() takes the node engine’s view and equals the fold', () => {
    const store = watchedStore();
    const r = recorder(store);
    r.record([added('a', 1), added('b', 2)]);
    const start = r.working;
    const before: ClusterState = { seq: 0, t: 0, nodes: { b: start.nodes.b! } };
    const events = at(r.nextSeq());
    r.nextSeq();
    r.nextSeq();
    const after = reduceAll(before, events);
    r.commit(events, { node: 'b', before, after });
    expect(r.working.nodes.b).toBe(after.nodes.b);
    expect(encode(r.working)).toBe(encode(reduceAll(start, events)));
    expect(r.committed).toBe(r.working);
  });
});
