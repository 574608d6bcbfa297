/**
 * Probes seen by the engine (issue 15): the kubelet stand-in runs a readiness probe on the
 * simulator (real gRPC, 10× clock); the engine records the kubelet's events and derives
 * "readiness probe failed 3 times → Ready=False" with that result as the cause, and explains the
 * container's state from the probe's runs. Without a source of probe results (read-only), the
 * container's why says they are not visible from the runtime.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBackoff } from '@/lib/kubelet/backoff';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { PodView } from '@/lib/timeline/state';
import { CriClient } from '@/server/cri/client';
import { fromSimClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { startSimNode, type SimNode } from '@/server/sim';
import { simProbeNetwork } from '@/server/sim/runtime/network';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { criRuntime } from './relist/cri-runtime';
import { Engine } from './engine';
import { engineStore } from './store-adapter';

const SPEED = 10;

describe('probe results on the timeline', () => {
  let node: SimNode;
  let client: CriClient;
  let driver: Driver;
  let engine: Engine;
  let readOnly: Engine;
  let store: TimelineStore;
  let store2: TimelineStore;

  const timings = {
    relistMs: 50,
    nodeStatusMs: 500,
    fullRelistMs: 3_000,
    nodeMonitorGraceMs: 50_000,
    plegThresholdMs: 180_000,
    tolerationSeconds: 300,
  };

  beforeAll(async () => {
    node = await startSimNode({ name: 'probe-node', clock: { mode: 'real', speed: SPEED } });
    client = new CriClient(node.endpoint, { timeoutMs: 3_000 });
    driver = new Driver({
      client,
      node: 'probe-node',
      clock: fromSimClock(node.clock),
      network: simProbeNetwork(node.runtime),
      log: () => undefined,
    });
    store = openStore({ path: ':memory:' });
    store2 = openStore({ path: ':memory:' });
    const common = {
      timings,
      clock: node.clock,
      backoff: () => newBackoff(10_000, 300_000),
      dial: (ep: string) => criRuntime(ep, { timeoutMs: 3_000 }),
      log: () => undefined,
    };
    engine = new Engine({ ...common, store: engineStore(store), providers: [driver.hints] });
    readOnly = new Engine({ ...common, store: engineStore(store2) });
    for (const e of [engine, readOnly]) {
      e.addNode('probe-node', node.endpoint, false);
      e.start();
    }
  }, 30_000);

  afterAll(async () => {
    await driver.stop();
    await engine.stop();
    await readOnly.stop();
    store.close();
    store2.close();
    client.close();
    await node.stop();
  });

  const podOf = (e: Engine, name: string): PodView | undefined =>
    Object.values(e.snapshot().nodes)
      .flatMap((n) => Object.values(n.pods))
      .find((p) => p.name === name);

  async function until(what: string, check: () => boolean, realMs = 20_000): Promise<void> {
    const deadline = Date.now() + realMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what} not seen within ${realMs / 1000}s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('readiness failing 3 times → Ready=False, caused by the probe result', async () => {
    // Ready after 2 s, unready from 6 s on: the file the probe reads is removed.
    const spec: V1Pod = {
      metadata: { name: 'flaky', namespace: 'shop' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'podscope.local/busybox:1',
            command: [
              'sh',
              '-c',
              'sleep 2; touch /tmp/ready; sleep 4; rm /tmp/ready; exec sleep 3600',
            ],
            readinessProbe: {
              exec: { command: ['cat', '/tmp/ready'] },
              periodSeconds: 1,
              failureThreshold: 3,
            },
          },
        ],
      },
    };
    const applied = await driver.apply(spec);
    const uid = applied.metadata?.uid ?? '';
    const ready = (e: Engine) =>
      podOf(e, 'flaky')?.status.conditions?.find((c) => c.type === 'Ready')?.status;
    await until('Ready=True', () => ready(engine) === 'True');
    expect(podOf(engine, 'flaky')?.why.containers.app?.id).toBe('container.running.readyByProbe');
    await until('Ready=False again', () => ready(engine) === 'False');

    const events: TimelineEvent[] = engine.eventsAfter(0, 10_000);
    const result = events.find(
      (e) =>
        e.kind === 'k8s' &&
        e.reason === 'ProbeResult' &&
        e.podUid === uid &&
        e.message.startsWith('Readiness probe of app failed 3 times in a row (failureThreshold 3)'),
    );
    expect(result).toBeDefined();
    const unhealthy = events.filter(
      (e) =>
        e.kind === 'k8s' &&
        e.reason === 'Unhealthy' &&
        e.podUid === uid &&
        e.seq < (result?.seq ?? 0),
    );
    expect(unhealthy.length).toBeGreaterThanOrEqual(3);
    expect(unhealthy.at(-1)).toMatchObject({
      source: 'kubelet',
      eventType: 'Warning',
      message: "Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory\n",
      involvedObject: {
        kind: 'Pod',
        name: 'flaky',
        namespace: 'shop',
        fieldPath: 'spec.containers{app}',
      },
    });
    const readyFalse = events.find(
      (e) =>
        e.kind === 'pod' &&
        e.type === 'PodConditionChanged' &&
        e.podUid === uid &&
        e.condition?.type === 'Ready' &&
        e.condition.status === 'False' &&
        e.seq > (result?.seq ?? 0),
    );
    expect(readyFalse?.cause).toBe(result?.seq);
    const why = podOf(engine, 'flaky')?.why.containers.app;
    expect(why).toMatchObject({
      id: 'container.running.readinessFailed',
      params: { threshold: 3 },
    });
    expect(podOf(engine, 'flaky')?.status.phase).toBe('Running');
    expect(podOf(engine, 'flaky')?.spec.probes).toEqual({ app: ['readiness'] });

    // Watching read-only, the same container's results are not visible: the why says so.
    await until('the read-only engine sees the pod', () => podOf(readOnly, 'flaky') !== undefined);
    expect(podOf(readOnly, 'flaky')?.why.containers.app).toMatchObject({
      id: 'container.running.probesUnseen',
      params: { probes: ['readinessProbe'] },
    });
    await driver.delete(uid, { gracePeriodSeconds: 0 });
  }, 40_000);
});
