/** The scenario runner's taint-eviction controller: each pod once, at the end of its toleration. */
import { describe, expect, it } from 'vitest';
import type { ClusterState, PodView } from '@/lib/timeline/state';
import { ManualClock } from '@/server/driver/clock';
import { startTaintEviction } from './taint-eviction';

const T0 = Date.UTC(2026, 0, 1);

function state(pods: Partial<PodView>[]): ClusterState {
  return {
    seq: 1,
    t: T0,
    nodes: {
      n1: {
        name: 'n1',
        endpoint: 'unix:///x',
        runtimeConditions: [],
        conditions: [],
        why: {},
        health: { connected: true },
        pods: Object.fromEntries(pods.map((p) => [p.uid ?? '', p as PodView])),
      },
    },
  };
}

describe('startTaintEviction', () => {
  it('evicts a pod at its evictionDueAt, once, and skips pods already being deleted', () => {
    const clock = new ManualClock(T0);
    const evicted: string[] = [];
    let pods: Partial<PodView>[] = [
      { uid: 'a', name: 'a', namespace: 'shop', evictionDueAt: T0 + 300_500 },
      { uid: 'b', name: 'b', namespace: 'shop', evictionDueAt: T0 + 10_000, deletionTimestamp: T0 },
      { uid: 'c', name: 'c', namespace: 'shop' },
    ];
    const at: number[] = [];
    const c = startTaintEviction({
      driver: {
        node: 'n1',
        evict: (uid) => {
          evicted.push(uid);
          at.push(clock.now());
        },
      },
      clock,
      observe: () => state(pods),
    });
    clock.advanceTo(T0 + 300_499);
    expect(evicted).toEqual([]);
    clock.advanceTo(T0 + 300_500);
    expect(evicted).toEqual(['a']);
    expect(at).toEqual([T0 + 300_500]);
    clock.advanceTo(T0 + 400_000);
    expect(evicted).toEqual(['a']);
    // A node back to Ready clears the due time: nothing more happens.
    pods = [{ uid: 'd', name: 'd', namespace: 'shop' }];
    clock.advanceTo(T0 + 500_000);
    expect(evicted).toEqual(['a']);
    c.stop();
  });
});
