/**
 * The engine over real sockets: simulated node (manual clock) ← driver, engine relisting it.
 * Tests call relist() and tick() directly and move the virtual clock; nothing sleeps on wall time
 * except for socket round trips.
 */
import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerEvent, CriEvent, PodEvent, TimelineEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import type { TimelineStore } from '@/server/timeline-db';
import type { EngineTimings } from './engine';
import { simEngineRigs } from './testing/sim-rig';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

const simRig = simEngineRigs();
const rig = (over: Partial<EngineTimings> = {}) =>
  simRig({ engine: { timings: { ...DEFAULT_ENGINE_TIMINGS, ...over } } });

const pod = (
  name: string,
  command: string[],
  restartPolicy: 'Always' | 'Never' | 'OnFailure' = 'Always',
): V1Pod => ({
  metadata: { name, namespace: 'test' },
  spec: {
    restartPolicy,
    containers: [{ name: 'app', image: 'podscope.local/busybox:1', command }],
  },
});

const recorded = (store: TimelineStore): TimelineEvent[] => store.range({ limit: 50_000 });

describe('engine over a simulated node', () => {
  it('records a crash loop in order: started → exited → CrashLoopBackOff, with causes and rising restartCount', async () => {
    const r = await rig();
    const applied = await r.driver.apply(pod('crashy', ['sh', '-c', 'sleep 2; exit 3']));
    const uid = applied.metadata?.uid ?? '';
    await r.run(45_000);

    const events = recorded(r.store);
    const mine = events.filter((e) => ('podUid' in e ? e.podUid === uid : false));
    const states = mine
      .filter(
        (e): e is ContainerEvent => e.kind === 'container' && e.type === 'ContainerStateChanged',
      )
      .map(
        (e) =>
          `${e.to}:${e.status?.state?.waiting?.reason ?? e.status?.state?.terminated?.reason ?? ''}`,
      );
    const running = states.indexOf('running:');
    const terminated = states.indexOf('terminated:Error', running);
    const backoff = states.indexOf('waiting:CrashLoopBackOff', terminated);
    expect(running).toBeGreaterThanOrEqual(0);
    expect(terminated).toBeGreaterThan(running);
    expect(backoff).toBeGreaterThan(terminated);

    // Every derived container event names a CRI event of the same pod as its cause, recorded before it.
    const bySeq = new Map(events.map((e) => [e.seq, e]));
    for (const e of mine.filter((e) => e.kind === 'container' && e.cause !== undefined)) {
      const cause = bySeq.get(e.cause ?? -1) as CriEvent | undefined;
      expect(cause?.kind).toBe('cri');
      expect(cause?.podUid).toBe(uid);
      expect(cause?.seq).toBeLessThan(e.seq);
    }

    const counts = mine
      .filter((e): e is ContainerEvent => e.kind === 'container' && e.status !== undefined)
      .map((e) => e.status?.restartCount ?? 0);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    // The pod stays Running throughout (restartPolicy Always), as the kubelet keeps it.
    const phases = mine
      .filter((e): e is PodEvent => e.kind === 'pod' && e.type === 'PodPhaseChanged')
      .map((e) => e.phase);
    expect(phases.at(-1)).toBe('Running');
    expect(phases).not.toContain('Succeeded');
    expect(phases).not.toContain('Failed');
  }, 60_000);

  it('seqs are strictly increasing and replay(events) equals the live state', async () => {
    const r = await rig();
    await r.driver.apply(pod('ok', ['sh', '-c', 'sleep 1; exit 0'], 'Never'));
    await r.driver.apply(pod('forever', ['sleep', 'infinity']));
    await r.run(8_000);
    const events = recorded(r.store);
    events.forEach((e, i) => i > 0 && expect(e.seq).toBeGreaterThan(events[i - 1]?.seq ?? 0));
    expect(reduceAll(emptyState(), events)).toEqual(r.engine.snapshot());
    const view = Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {});
    expect(view.find((p) => p.name === 'ok')?.status.phase).toBe('Succeeded');
    expect(view.find((p) => p.name === 'forever')?.status.phase).toBe('Running');
  }, 60_000);

  it('a runtime that goes away while its kubelet still posts status: Ready=False "container runtime is down" after 30 s, not Unknown; the pod keeps the kubelet’s Ready; and it recovers', async () => {
    const r = await rig({ nodeMonitorGraceMs: 5_000 });
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.run(3_000);
    const ready = () =>
      r.engine.snapshot().nodes['node-a']?.conditions.find((c) => c.type === 'Ready');
    expect(ready()?.status).toBe('True');

    await r.sim.setListener('down');
    await r.run(10_000);
    // Far past the 5 s grace period, but the kubelet still posts: no Unknown, and the last
    // Status is younger than 30 s.
    expect(ready()?.status).toBe('True');
    await r.run(25_000);
    expect(ready()).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
    expect(ready()?.message).toContain('container runtime is down');
    const web = Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).find(
      (p) => p.name === 'web',
    );
    // The kubelet still posts: no MarkPodsNotReady, only the not-ready taint's eviction clock.
    expect(web?.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(web?.why.conditions.Ready).toMatchObject({
      id: 'condition.ready.kubeletReportsNodeNotReady',
      params: { cause: 'runtimeDown' },
    });
    expect(web?.evictionDueAt).toBeGreaterThan(r.clock.now());
    expect(recorded(r.store).some((e) => e.kind === 'cri' && e.type === 'RelistFailed')).toBe(true);

    await r.sim.setListener('grpc');
    // gRPC reconnects on its own (real-time) back-off, up to 5 s: keep relisting until it does.
    const deadline = Date.now() + 10_000;
    while (ready()?.status !== 'True' && Date.now() < deadline) {
      await r.run(500);
      await r.watcher.readStatus();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready()?.status).toBe('True');
    expect(recorded(r.store).some((e) => e.kind === 'cri' && e.type === 'RelistRecovered')).toBe(
      true,
    );
    const again = Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).find(
      (p) => p.name === 'web',
    );
    expect(again?.evictionDueAt).toBeUndefined();
  }, 60_000);

  it('a kubelet cut off from the API server: Ready=Unknown after the grace period though the runtime answers', async () => {
    const r = await rig({ nodeMonitorGraceMs: 5_000 });
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.run(3_000);
    const ready = () =>
      r.engine.snapshot().nodes['node-a']?.conditions.find((c) => c.type === 'Ready');
    r.driver.partition(true);
    await r.run(4_000);
    expect(ready()?.status).toBe('True');
    await r.run(2_000);
    expect(ready()).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    const web = Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).find(
      (p) => p.name === 'web',
    );
    expect(web?.status.containerStatuses?.[0]?.state?.running).toBeDefined();
    // The controller turned Ready True → Unknown: it marks the pod not ready.
    expect(web?.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    expect(web?.why.conditions.Ready?.id).toBe('condition.ready.nodeNotReady');
    r.driver.partition(false);
    await r.run(1_000);
    expect(ready()?.status).toBe('True');
  }, 60_000);

  it('skips, and counts, a tick that finds the previous relist still running', async () => {
    const r = await rig();
    const first = r.watcher.relist();
    await r.watcher.relist();
    await first;
    expect(r.watcher.skipped).toBe(1);
    expect(await r.engine.metrics()).toMatch(
      /podscope_relist_skipped_ticks_total\{node="node-a"\} 1/,
    );
  });
});
