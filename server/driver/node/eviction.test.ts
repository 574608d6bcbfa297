/**
 * The eviction manager's ranking and message, after pkg/kubelet/eviction/helpers_test.go
 * (TestOrderedByExceedsRequestMemory, TestOrderedByPriority, TestOrderedbyMemory — our own
 * tables) and helpers.go evictionMessage; and one pass of synchronize against a fake runtime.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import {
  binaryQuantity,
  EvictionManager,
  evictionMessage,
  rankMemoryPressure,
  type EvictionCandidate,
} from './eviction';

const Mi = 2 ** 20;
const Gi = 2 ** 30;
const ranked = (name: string, usage: number, request: number, priority = 0) => ({
  candidate: { uid: name } as EvictionCandidate,
  usage,
  request,
  priority,
  containers: [{ name, usage, request }],
});

describe('rankMemoryPressure', () => {
  it('usage over requests first, then lower priority, then the larger overshoot', () => {
    const order = rankMemoryPressure([
      ranked('guaranteed', 2.5 * Gi, 3 * Gi),
      ranked('burstable', 2 * Gi, 1 * Gi),
      ranked('besteffort', 1.5 * Gi, 0),
    ]).map((r) => r.candidate.uid);
    // besteffort overshoots by 1.5 Gi, burstable by 1 Gi; guaranteed stays within its request.
    expect(order).toEqual(['besteffort', 'burstable', 'guaranteed']);
    expect(
      rankMemoryPressure([ranked('big', 3 * Gi, 0), ranked('small-low', 1 * Gi, 0, -10)]).map(
        (r) => r.candidate.uid,
      ),
    ).toEqual(['small-low', 'big']);
    expect(
      rankMemoryPressure([
        ranked('within', 1 * Gi, 2 * Gi, -100),
        ranked('over', 2 * Gi, 1 * Gi),
      ]).map((r) => r.candidate.uid),
    ).toEqual(['over', 'within']);
  });
});

describe('evictionMessage', () => {
  it('reads as the kubelet writes it, trailing spaces included', () => {
    expect(
      evictionMessage(100 * Mi, 0, [
        { name: 'backfill', usage: 1536 * Mi, request: 0 },
        { name: 'sidecar', usage: 10 * Mi, request: 64 * Mi },
      ]),
    ).toBe(
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. Container backfill was using 1536Mi, request is 0, has larger consumption of memory. ',
    );
  });

  it('formats quantities as resource.Quantity does for binary bytes', () => {
    expect(binaryQuantity(100 * Mi)).toBe('100Mi');
    expect(binaryQuantity(1.5 * Gi)).toBe('1536Mi');
    expect(binaryQuantity(3 * Gi)).toBe('3Gi');
    expect(binaryQuantity(4096 * 3)).toBe('12Ki');
    expect(binaryQuantity(1500)).toBe('1500');
  });
});

describe('EvictionManager.synchronize', () => {
  const stats = [
    { name: 'a', labels: { 'io.kubernetes.pod.uid': 'A' }, memory: { workingSetBytes: 2 * Gi } },
    { name: 'b', labels: { 'io.kubernetes.pod.uid': 'B' }, memory: { workingSetBytes: 1.5 * Gi } },
  ];
  const candidate = (uid: string, name: string, request?: string) => {
    const evicted: string[] = [];
    const c: EvictionCandidate & { evicted: string[] } = {
      uid,
      evicted,
      pod: {
        spec: {
          containers: [
            { name, ...(request ? { resources: { requests: { memory: request } } } : {}) },
          ],
        },
      },
      evict: (m) => evicted.push(m),
      cleanedUp: true,
    };
    return c;
  };

  it('evicts one pod per pass while memory.available is under 100Mi, none once it is not', async () => {
    let available = 50 * Mi;
    const a = candidate('A', 'a', '1Gi');
    const b = candidate('B', 'b');
    const m = new EvictionManager({
      runtime: {
        status: () =>
          Promise.resolve({
            node: { memoryCapacityBytes: 8 * Gi, memoryAvailableBytes: available },
          }),
        listContainerStats: () => Promise.resolve(stats),
      },
      clock: new ManualClock(0),
      candidates: () => [a, b].filter((c) => c.evicted.length === 0),
      log: () => undefined,
    });
    // B: 1.5 Gi over its request of 0; A: 1 Gi over its 1Gi.
    expect(await m.synchronize()).toBe('B');
    expect(b.evicted[0]).toContain('Container b was using 1536Mi, request is 0');
    expect(await m.synchronize()).toBe('A');
    available = 2 * Gi;
    expect(await m.synchronize()).toBeUndefined();
  });

  it('observes nothing without the node figures (a real containerd publishes none)', async () => {
    const a = candidate('A', 'a');
    const m = new EvictionManager({
      runtime: {
        status: () => Promise.resolve({}),
        listContainerStats: () => Promise.resolve(stats),
      },
      clock: new ManualClock(0),
      candidates: () => [a],
      log: () => undefined,
    });
    expect(await m.synchronize()).toBeUndefined();
    expect(a.evicted).toEqual([]);
  });
});
