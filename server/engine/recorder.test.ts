import { describe, expect, it } from 'vitest';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import { Recorder, type EngineStore } from './recorder';
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
