/**
 * A runtime that misbehaves on the wire: answers slowly, never answers, answers with garbage,
 * answers past the 16 MiB message limit. Each has a defined outcome: the error names the node's
 * endpoint, the RPC and the gRPC code; it shows in the node's health (NodeView.health.lastError),
 * on the timeline (RelistFailed) and in the log; the node goes Ready=Unknown only after the grace
 * period; nothing crashes, and when the runtime behaves again the node recovers with nothing lost
 * or recorded twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CriEvent } from '@/lib/timeline/events';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { pod, readyOf, soundness, startRig, until, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const relistFailures = (r: Rig) =>
  r.events().filter((e): e is CriEvent => e.kind === 'cri' && e.type === 'RelistFailed');
const health = (r: Rig) => r.engine.nodeView('node-a')?.health;
const podNamed = (r: Rig, name: string) =>
  Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).find((p) => p.name === name);

function expectSound(r: Rig): void {
  const s = soundness(r.events(), r.engine.snapshot());
  expect(s.duplicates).toEqual([]);
  expect(s.gaps).toEqual([]);
  expect(s.badCauses).toEqual([]);
  expect(s.replayMatches).toBe(true);
}

/** Counts list calls in flight at once (a relist issues one ListPodSandbox and one ListContainers). */
function concurrency(): {
  wrap: (c: RuntimeClient) => RuntimeClient;
  max: () => number;
  calls: () => number;
} {
  let inFlight = 0;
  let max = 0;
  let calls = 0;
  const wrap = (c: RuntimeClient): RuntimeClient => ({
    ...c,
    endpoint: c.endpoint,
    close: () => c.close(),
    listContainers: async () => {
      calls++;
      max = Math.max(max, ++inFlight);
      try {
        return await c.listContainers();
      } finally {
        inFlight--;
      }
    },
  });
  return { wrap, max: () => max, calls: () => calls };
}

describe('a slow runtime (p99 5 s)', () => {
  it('skips and counts the ticks that find a relist still running; relists never pile up', async () => {
    const c = concurrency();
    {
      const r = (rig = await startRig({
        wrap: c.wrap,
        timeoutMs: 10_000,
        timings: { relistMs: 100 },
      }));
      await r.driver.apply(pod('web', ['sleep', 'infinity']));
      await r.run(2_000);
      const callsBefore = c.calls();
      const skippedBefore = r.watcher.skipped;
      // Log-normal latency with median 150 ms and 99th percentile 5 s on every list call.
      r.sim.faults.update({
        latency: {
          rpc: {
            ListContainers: { p50Ms: 150, p99Ms: 5_000 },
            ListPodSandbox: { p50Ms: 150, p99Ms: 5_000 },
          },
        },
      });
      // The relist loop ticks every 100 ms (real timers, the production path) for 4 s.
      r.watcher.start();
      await r.driver.apply(pod('late', ['sleep', 'infinity']));
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      r.watcher.stop();
      const relists = c.calls() - callsBefore;
      const skipped = r.watcher.skipped - skippedBefore;
      expect(c.max()).toBe(1);
      expect(skipped).toBeGreaterThan(0);
      // Every tick either ran a relist or was skipped: ~40 ticks in 4 s.
      expect(relists + skipped).toBeGreaterThanOrEqual(30);
      expect(relists).toBeLessThan(relists + skipped);
      expect(await r.engine.metrics()).toMatch(
        new RegExp(
          `podscope_relist_skipped_ticks_total\\{node="node-a"\\} ${r.watcher.skipped}\\b`,
        ),
      );
      // The process's own memory is on /metrics too (the soak test watches it).
      expect(await r.engine.metrics()).toMatch(/^process_heap_bytes [1-9]\d+$/m);
      expect(await r.engine.metrics()).toMatch(/^process_resident_memory_bytes [1-9]\d+$/m);
      // Slow is not down: no failure recorded, the node stays connected, the late pod was seen.
      expect(relistFailures(r)).toEqual([]);
      expect(health(r)?.connected).toBe(true);
      expect(podNamed(r, 'late')).toBeDefined();
      expectSound(r);
    }
  }, 60_000);
});

describe('a runtime that never answers', () => {
  it('an RPC that hangs: the deadline ends it with a clear error; Ready=Unknown after the grace period; recovery', async () => {
    const r = (rig = await startRig({ timeoutMs: 400, timings: { nodeMonitorGraceMs: 10_000 } }));
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.run(3_000);
    expect(readyOf(r.engine)).toBe('True');

    r.sim.faults.update({ hang: { ListContainers: true } });
    const t0 = Date.now();
    await r.run(4_000, 2_000);
    // Each relist waited for its deadline (~400 ms), not forever.
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(health(r)?.lastError).toMatch(
      /^CRI ListContainers on unix:\/\/\S+node-a\.sock: DEADLINE_EXCEEDED \(4\)/,
    );
    expect(relistFailures(r)).toHaveLength(1);
    expect(relistFailures(r)[0]?.detail?.error).toMatch(/DEADLINE_EXCEEDED/);
    expect(
      r.logs.some(
        (l) =>
          l.startsWith('node-a: relist failed: CRI ListContainers') &&
          l.includes('DEADLINE_EXCEEDED'),
      ),
    ).toBe(true);
    expect(readyOf(r.engine)).toBe('True'); // 4 s into a 10 s grace period

    await r.run(8_000, 2_000);
    expect(readyOf(r.engine)).toBe('Unknown');
    const ready = r.engine.nodeView('node-a')?.conditions.find((c) => c.type === 'Ready');
    expect(ready?.reason).toBe('NodeStatusUnknown');
    expect(podNamed(r, 'web')?.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'False',
    );

    r.sim.faults.update({ hang: { ListContainers: false } });
    await r.run(2_000);
    expect(readyOf(r.engine)).toBe('True');
    expect(health(r)?.connected).toBe(true);
    expect(r.events().some((e) => e.kind === 'cri' && e.type === 'RelistRecovered')).toBe(true);
    expectSound(r);
  }, 60_000);

  it('a socket that accepts and says nothing: deadline, clear error, recovery once gRPC answers again', async () => {
    const r = (rig = await startRig({ timeoutMs: 400 }));
    await r.run(2_000);
    await r.sim.setListener('hang');
    await r.run(2_000, 1_000);
    expect(health(r)?.connected).toBe(false);
    expect(health(r)?.lastError).toMatch(
      /^CRI List(PodSandbox|Containers) on unix:\/\/\S+: (DEADLINE_EXCEEDED|UNAVAILABLE)/,
    );
    await r.sim.setListener('grpc');
    await until(r, () => health(r)?.connected === true, 'recovery after the silent listener');
    expectSound(r);
  }, 60_000);
});

describe('garbage on the wire', () => {
  it('a socket that writes garbage: clear error in health, log and timeline; recovery', async () => {
    const r = (rig = await startRig());
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.run(2_000);
    await r.sim.setListener('garbage');
    await r.run(2_000, 1_000);
    expect(health(r)?.connected).toBe(false);
    expect(health(r)?.lastError).toMatch(
      /^CRI List(PodSandbox|Containers) on unix:\/\/\S+node-a\.sock: UNAVAILABLE \(14\)/,
    );
    expect(relistFailures(r)).toHaveLength(1);
    // The live view keeps the last good state: the pod is still there.
    expect(podNamed(r, 'web')?.status.phase).toBe('Running');
    await r.sim.setListener('grpc');
    await until(r, () => health(r)?.connected === true, 'recovery after garbage');
    expect(podNamed(r, 'web')?.status.phase).toBe('Running');
    expectSound(r);
  }, 60_000);

  it('answers that are not protobuf: INTERNAL parsing error named; an inspection that fails keeps the old record', async () => {
    const r = (rig = await startRig());
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.run(2_000);
    r.sim.faults.update({ corrupt: { ListContainers: true } });
    await r.run(1_000);
    expect(health(r)?.lastError).toMatch(
      /^CRI ListContainers on \S+: INTERNAL \(13\): Response message parsing error/,
    );
    r.sim.faults.update({ corrupt: { ContainerStatus: true, ListContainers: false } });
    // A new container whose ContainerStatus answers garbage: held back, retried, never half-recorded.
    await r.driver.apply(pod('second', ['sleep', 'infinity']));
    await r.run(2_000);
    expect(
      r.logs.some((l) =>
        /inspecting \S+ failed, keeping the old record: CRI ContainerStatus .*INTERNAL/.test(l),
      ),
    ).toBe(true);
    expect(await r.engine.metrics()).toMatch(
      /podscope_inspect_errors_total\{node="node-a"\} [1-9]/,
    );
    r.sim.faults.clear();
    // The driver (the node's kubelet) read the same garbage and retries after its back-off.
    await r.run(15_000);
    expect(podNamed(r, 'second')?.status.phase).toBe('Running');
    expect(health(r)?.connected).toBe(true);
    expectSound(r);
  }, 60_000);
});

describe('answers over the message limit', () => {
  it('a ListContainers answer of 17 MiB is refused with RESOURCE_EXHAUSTED, shown in the node status', async () => {
    const r = (rig = await startRig());
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.run(2_000);
    r.sim.faults.update({ oversize: { ListContainers: 17 * 1024 * 1024 } });
    await r.run(1_000);
    const error = health(r)?.lastError ?? '';
    expect(error).toMatch(
      /^CRI ListContainers on \S+node-a\.sock: RESOURCE_EXHAUSTED \(8\): .*larger than max/,
    );
    expect(relistFailures(r)[0]?.detail?.error).toBe(error);
    expect(r.logs.some((l) => l.includes('RESOURCE_EXHAUSTED'))).toBe(true);
    // Just under the limit is fine (16 MiB is the kubelet's own limit).
    r.sim.faults.update({ oversize: { ListContainers: 15 * 1024 * 1024 } });
    await r.run(1_000);
    expect(health(r)?.connected).toBe(true);
    expect(podNamed(r, 'web')?.status.phase).toBe('Running');
    expectSound(r);
  }, 60_000);
});
