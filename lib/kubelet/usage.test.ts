import { describe, expect, it } from 'vitest';
import {
  computeUsage,
  memoryUsersText,
  topMemoryPods,
  usageChange,
  type UsageSample,
} from './usage';

const MiB = 2 ** 20;
const s = (over: Partial<UsageSample> & { id: string }): UsageSample => ({
  podUid: 'p1',
  container: over.id,
  ...over,
});

describe('computeUsage (cri_stats_provider: cores from usage_core_nano_seconds deltas, working set)', () => {
  it('CPU needs two samples of the same container: Δ core-ns / Δ ns', () => {
    const first = computeUsage(
      [s({ id: 'a', cpuAt: 1000, usageCoreNanoSeconds: 5e9, workingSetBytes: 10 * MiB })],
      new Map(),
      1000,
    );
    expect(first.usage.pods.p1?.containers.a).toEqual({ memoryBytes: 10 * MiB });
    const second = computeUsage(
      [s({ id: 'a', cpuAt: 11_000, usageCoreNanoSeconds: 5e9 + 2.5e9, workingSetBytes: 12 * MiB })],
      first.cursor,
      11_000,
    );
    expect(second.usage.pods.p1?.containers.a?.cpuCores).toBeCloseTo(0.25, 9);
    expect(second.usage.pods.p1).toMatchObject({ cpuCores: 0.25, memoryBytes: 12 * MiB });
  });

  it('a pod is the sum of its running containers; stopped ones and unlabelled stats are left out', () => {
    const prev = new Map([
      ['a', { at: 0, coreNanos: 0 }],
      ['b', { at: 0, coreNanos: 0 }],
    ]);
    const { usage } = computeUsage(
      [
        s({ id: 'a', cpuAt: 1000, usageCoreNanoSeconds: 1e9, workingSetBytes: 100 }),
        s({ id: 'b', cpuAt: 1000, usageCoreNanoSeconds: 5e8, workingSetBytes: 50 }),
        s({ id: 'gone', cpuAt: 1000, usageCoreNanoSeconds: 1e9, workingSetBytes: 999 }),
        s({ id: 'x', podUid: '' }),
      ],
      prev,
      1000,
      (id) => id !== 'gone',
    );
    expect(usage.pods.p1).toEqual({
      cpuCores: 1.5,
      memoryBytes: 150,
      containers: { a: { cpuCores: 1, memoryBytes: 100 }, b: { cpuCores: 0.5, memoryBytes: 50 } },
    });
    expect(Object.keys(usage.pods)).toEqual(['p1']);
  });

  it('a counter that went backwards or a repeated timestamp gives no CPU, then counts from there', () => {
    const prev = new Map([['a', { at: 1000, coreNanos: 9e9 }]]);
    const back = computeUsage([s({ id: 'a', cpuAt: 2000, usageCoreNanoSeconds: 1e9 })], prev, 2000);
    expect(back.usage.pods.p1?.containers.a?.cpuCores).toBeUndefined();
    const same = computeUsage(
      [s({ id: 'a', cpuAt: 2000, usageCoreNanoSeconds: 2e9 })],
      back.cursor,
      2000,
    );
    expect(same.usage.pods.p1?.containers.a?.cpuCores).toBeUndefined();
  });

  it('hostile figures (negative, NaN, strings) are ignored, not crashed on', () => {
    const { usage } = computeUsage(
      [
        s({ id: 'a', cpuAt: Number.NaN, usageCoreNanoSeconds: -1, workingSetBytes: -5 }),
        { id: 'b', podUid: 'p1', container: 'b', workingSetBytes: 'x' as never },
        null as never,
      ],
      new Map(),
      0,
    );
    expect(usage.pods.p1).toEqual({ containers: { a: {}, b: {} } });
  });
});

describe('usageChange', () => {
  const u = (mem: number, cpu?: number) => ({
    at: 0,
    pods: {
      p1: {
        memoryBytes: mem,
        containers: { a: { memoryBytes: mem, ...(cpu !== undefined ? { cpuCores: cpu } : {}) } },
      },
    },
  });
  it('records a move of memory beyond max(1 MiB, 10 %) or of CPU beyond max(0.01 cores, 10 %)', () => {
    expect(usageChange(undefined, u(100 * MiB))).not.toBe('none');
    expect(usageChange(u(100 * MiB), u(105 * MiB))).toBe('none');
    expect(usageChange(u(100 * MiB), u(115 * MiB))).not.toBe('none');
    expect(usageChange(u(1 * MiB), u(1.9 * MiB))).toBe('none');
    expect(usageChange(u(MiB, 0.5), u(MiB, 0.52))).toBe('none');
    expect(usageChange(u(MiB, 0.5), u(MiB, 0.6))).not.toBe('none');
    expect(usageChange(u(MiB, 0.001), u(MiB, 0.008))).toBe('none');
    expect(usageChange(u(MiB), u(MiB, 0.5))).not.toBe('none');
    expect(usageChange(u(MiB), { at: 0, pods: {} })).toBe('shape');
    expect(usageChange(u(MiB), u(MiB, 0.5))).toBe('shape'); // a CPU figure appeared
    expect(usageChange(u(100 * MiB), u(115 * MiB))).toBe('moved');
  });
});

describe('topMemoryPods / memoryUsersText', () => {
  it('largest first, at most n, in the kubelet quantities’ binary units', () => {
    const usage = {
      at: 0,
      pods: {
        a: { memoryBytes: 12 * MiB, containers: {} },
        b: { memoryBytes: 7200 * MiB, containers: {} },
        c: { containers: {} },
        d: { memoryBytes: 1 * MiB, containers: {} },
      },
    };
    expect(topMemoryPods(usage, 2)).toEqual([
      { uid: 'b', memoryBytes: 7200 * MiB },
      { uid: 'a', memoryBytes: 12 * MiB },
    ]);
    expect(
      memoryUsersText([
        { name: 'test/hog', memoryBytes: 7200 * MiB },
        { name: 'test/web', memoryBytes: 12 * MiB },
      ]),
    ).toBe('test/hog 7Gi, test/web 12Mi');
    expect(topMemoryPods(undefined)).toEqual([]);
  });
});
