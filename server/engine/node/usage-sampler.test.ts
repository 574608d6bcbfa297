import { describe, expect, it } from 'vitest';
import type { NodeUsage, UsageSample } from '@/lib/kubelet/usage';
import type { NodeEvent } from '@/lib/timeline/events';
import type { RuntimeClient } from '../relist/runtime-client';
import { RECORD_MOVED_MS, UsageSampler } from './usage-sampler';

const MiB = 2 ** 20;

/** A runtime whose ListContainerStats answers what `next` holds; the recorded usage folds back. */
function rig(list?: () => Promise<UsageSample[]>) {
  const client = {
    endpoint: 'fake',
    ...(list ? { listContainerStats: list } : {}),
  } as RuntimeClient;
  const logs: string[] = [];
  const sampler = new UsageSampler('node-a', client, (l) => logs.push(l));
  let recorded: NodeUsage | undefined;
  let now = 0;
  const sample = async (at: number) => {
    now = at;
    const events = (await sampler.sample(
      () => now,
      () => true,
      () => recorded,
    )) as NodeEvent[];
    for (const e of events) if (e.usage) recorded = e.usage;
    return events.length;
  };
  return { sample, logs, recorded: () => recorded };
}

const at = (t: number, mem: number, nanos: number): UsageSample[] => [
  {
    id: 'c1',
    podUid: 'p1',
    container: 'app',
    cpuAt: t,
    usageCoreNanoSeconds: nanos,
    workingSetBytes: mem,
  },
];

describe('UsageSampler', () => {
  it('records new figures at once, moved figures at most once a minute, unchanged ones never', async () => {
    let next = at(0, 100 * MiB, 0);
    const r = rig(() => Promise.resolve(next));
    expect(await r.sample(0)).toBe(1); // memory appears
    next = at(10_000, 100 * MiB, 5e9);
    expect(await r.sample(10_000)).toBe(1); // CPU appears (0.5 cores)
    next = at(20_000, 200 * MiB, 10e9);
    expect(await r.sample(20_000)).toBe(0); // moved, but within the minute
    next = at(30_000, 200 * MiB, 15e9);
    expect(await r.sample(10_000 + RECORD_MOVED_MS)).toBe(1); // moved, a minute on
    expect(r.recorded()?.pods.p1?.memoryBytes).toBe(200 * MiB);
    next = at(40_000, 201 * MiB, 20e9);
    expect(await r.sample(10_000 + 3 * RECORD_MOVED_MS)).toBe(0); // within thresholds
  });

  it('a runtime without the call is asked once; a failing one is logged once and tried again', async () => {
    let calls = 0;
    const none = rig(() => {
      calls++;
      return Promise.reject(Object.assign(new Error('unimplemented'), { unimplemented: true }));
    });
    await none.sample(0);
    await none.sample(10_000);
    expect(calls).toBe(1);
    let fail = true;
    const flaky = rig(() =>
      fail ? Promise.reject(new Error('deadline exceeded')) : Promise.resolve(at(0, MiB, 0)),
    );
    await flaky.sample(0);
    await flaky.sample(10_000);
    expect(flaky.logs.filter((l) => l.includes('failed'))).toHaveLength(1);
    fail = false;
    expect(await flaky.sample(20_000)).toBe(1);
    expect(flaky.logs.at(-1)).toMatch(/answers again/);
    expect(await rig().sample(0)).toBe(0); // no ListContainerStats at all
  });

  it('never has two calls in flight', async () => {
    let calls = 0;
    let release: (() => void) | undefined;
    const r = rig(
      () =>
        new Promise((resolve) => {
          calls++;
          release = () => resolve(at(0, MiB, 0));
        }),
    );
    const first = r.sample(0);
    expect(await r.sample(1)).toBe(0);
    release?.();
    expect(await first).toBe(1);
    expect(calls).toBe(1);
  });
});
