/**
 * The demo workload on three simulated nodes (real gRPC, the simulator's clock at 20×), observed
 * by the engine: within a few virtual minutes the console has what it promises — a crash loop
 * with rising restarts, a failed pull, an OOM kill, a sidecar, init containers, a Job that
 * succeeds and one that fails, web replicas on every node, a readiness probe that flaps and a
 * liveness probe that restarts its container — run by the drivers' prober on the simulator's
 * network model, as `npm start` runs them (server/runtime).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { newBackoff } from '@/lib/kubelet/backoff';
import type { PodView } from '@/lib/timeline/state';
import { CriClient } from '@/server/cri/client';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { startSimCluster, type SimCluster } from '@/server/sim';
import { simProbeNetwork } from '@/server/sim/runtime/network';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { fromSimClock } from '../driver/clock';
import { startDemoWorkload, type DemoWorkload } from './workload';
import { Driver } from '../driver/driver';

const SPEED = 20;
const SCALE = 0.2;

describe('demo workload on three simulated nodes', () => {
  let cluster: SimCluster;
  let store: TimelineStore;
  let engine: Engine;
  let drivers: Driver[];
  let clients: CriClient[];
  let demo: DemoWorkload;

  beforeAll(async () => {
    cluster = await startSimCluster({ nodes: 3, clock: { mode: 'real', speed: SPEED }, seed: 1 });
    const clock = fromSimClock(cluster.clock);
    clients = cluster.nodes.map((n) => new CriClient(n.endpoint, { timeoutMs: 3_000 }));
    drivers = cluster.nodes.map(
      (n, i) =>
        new Driver({
          client: clients[i] as CriClient,
          node: n.name,
          clock,
          backoffScale: SCALE,
          network: simProbeNetwork(n.runtime),
          log: () => undefined,
        }),
    );
    store = openStore({ path: ':memory:' });
    engine = new Engine({
      store: engineStore(store),
      timings: {
        relistMs: 50,
        nodeStatusMs: 500,
        fullRelistMs: 3_000,
        nodeMonitorGraceMs: 50_000,
        plegThresholdMs: 180_000,
        tolerationSeconds: 300,
      },
      clock: cluster.clock,
      providers: drivers.map((d) => d.hints),
      backoff: () => newBackoff(10_000 * SCALE, 300_000 * SCALE),
      dial: (ep) => criRuntime(ep, { timeoutMs: 3_000 }),
      log: () => undefined,
    });
    for (const n of cluster.nodes) engine.addNode(n.name, n.endpoint, false);
    engine.start();
    demo = await startDemoWorkload({ drivers, clock, seed: 1, log: () => undefined });
  }, 60_000);

  afterAll(async () => {
    await demo.stop();
    await Promise.all(drivers.map((d) => d.stop()));
    await engine.stop();
    store.close();
    for (const c of clients) c.close();
    await cluster.stop();
  });

  const pods = (): PodView[] =>
    Object.values(engine.snapshot().nodes).flatMap((n) => Object.values(n.pods));
  const named = (prefix: string) => pods().filter((p) => p.name.startsWith(prefix));
  const status = (p: PodView | undefined, container: string): V1ContainerStatus | undefined =>
    [...(p?.status.initContainerStatuses ?? []), ...(p?.status.containerStatuses ?? [])].find(
      (c) => c.name === container,
    );

  /** Polls the engine's state (real time) until `check` holds. */
  async function until(what: string, check: () => boolean, realMs = 30_000): Promise<void> {
    const deadline = Date.now() + realMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`demo: ${what} not seen within ${realMs / 1000}s (${SPEED}× clock)`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('spreads the web replicas and kube-proxy over the three nodes, all Running', async () => {
    await until(
      'web replicas running',
      () => named('web-').filter((p) => p.status.phase === 'Running').length === 3,
    );
    expect(new Set(named('web-').map((p) => p.node)).size).toBe(3);
    expect(new Set(named('kube-proxy-').map((p) => p.node)).size).toBe(3);
    expect(named('web-').every((p) => p.specSource === 'annotation')).toBe(true);
  });

  it('shows a crash loop with rising restarts', async () => {
    await until('payments-worker in CrashLoopBackOff with 2+ restarts', () => {
      const s = status(named('payments-worker-')[0], 'worker');
      return s?.state?.waiting?.reason === 'CrashLoopBackOff' && s.restartCount >= 2;
    });
    expect(named('payments-worker-')[0]?.status.phase).toBe('Running');
  });

  it('shows an image that cannot be pulled', async () => {
    await until(
      'recommendations in ImagePullBackOff',
      () =>
        status(named('recommendations-')[0], 'recommendations')?.state?.waiting?.reason ===
        'ImagePullBackOff',
    );
    expect(named('recommendations-')[0]?.status.phase).toBe('Pending');
  });

  it('shows an OOM kill', async () => {
    await until(
      'thumbnailer OOMKilled',
      () =>
        status(named('thumbnailer-')[0], 'thumbnailer')?.lastState?.terminated?.reason ===
        'OOMKilled',
    );
    expect(status(named('thumbnailer-')[0], 'thumbnailer')?.lastState?.terminated?.exitCode).toBe(
      137,
    );
  });

  it('runs the sidecar and the init containers', async () => {
    await until('checkout with its envoy sidecar running', () => {
      const p = named('checkout-')[0];
      return p?.status.phase === 'Running' && status(p, 'envoy')?.state?.running !== undefined;
    });
    await until('orders initialized and running', () =>
      named('orders-').some(
        (p) =>
          p.status.phase === 'Running' &&
          status(p, 'migrate')?.state?.terminated?.reason === 'Completed',
      ),
    );
  });

  it('has a Job pod that succeeds and one that fails', async () => {
    await until('a report Job pod Succeeded', () =>
      named('report-').some((p) => p.status.phase === 'Succeeded'),
    );
    await until('an import Job pod Failed', () =>
      named('import-customers-').some(
        (p) =>
          p.status.phase === 'Failed' && status(p, 'import')?.state?.terminated?.exitCode === 2,
      ),
    );
  });

  it('has a pod whose readiness probe flaps: Running, not Ready, then Ready again, never restarted', async () => {
    const cart = () => named('cart-')[0];
    const ready = () => cart()?.status.conditions?.find((c) => c.type === 'Ready')?.status;
    await until('cart Ready', () => ready() === 'True' && status(cart(), 'cart')?.ready === true);
    await until('cart Running but not Ready', () => {
      const s = status(cart(), 'cart');
      return ready() === 'False' && s?.state?.running !== undefined && s.ready === false;
    });
    expect(cart()?.status.phase).toBe('Running');
    expect(cart()?.why.containers.cart?.id).toBe('container.running.readinessFailed');
    await until('cart Ready again', () => ready() === 'True');
    expect(status(cart(), 'cart')?.restartCount).toBe(0);
  });

  it('has a pod whose liveness probe restarts it', async () => {
    const inventory = () => status(named('inventory-')[0], 'inventory');
    await until(
      'inventory restarted by its liveness probe',
      () => (inventory()?.restartCount ?? 0) >= 1,
    );
    // The kubelet stopped it with SIGTERM, which its trap turns into exit 143.
    expect(inventory()?.lastState?.terminated?.exitCode).toBe(143);
    const killed = engine
      .eventsAfter(0, 100_000)
      .some(
        (e) =>
          e.kind === 'k8s' &&
          e.reason === 'Killing' &&
          e.involvedObject.name === named('inventory-')[0]?.name &&
          e.message.includes('failed liveness probe'),
      );
    expect(killed).toBe(true);
  });
});
