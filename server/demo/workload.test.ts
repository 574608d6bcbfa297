import { describe, expect, it } from 'vitest';
import { ManualClock } from '../driver/clock';
import { seededRandom, startDemoWorkload, steadyPods } from './workload';
import { Driver } from '../driver/driver';
import { FakeRuntime } from '../driver/testing/fake-runtime';

function cluster(n: number) {
  const clock = new ManualClock();
  const runtimes = Array.from({ length: n }, () => new FakeRuntime(clock));
  for (const r of runtimes) {
    for (const image of ['podscope.local/app:1.4.2', 'podscope.local/oom-after:1'])
      r.images.add(image);
    r.failingPulls.set(
      'podscope.local/failing-pull:2.0.0',
      'unexpected status: 503 Service Unavailable',
    );
  }
  const drivers = runtimes.map(
    (client, i) =>
      new Driver({
        client,
        node: `sim-node-00${i + 1}`,
        clock,
        backoffScale: 0.2,
        log: () => undefined,
      }),
  );
  return { clock, runtimes, drivers };
}

/** Moves the manual clock in 1 s steps, letting every driver settle after each. */
async function run(clock: ManualClock, drivers: Driver[], ms: number) {
  for (let t = 0; t < ms; t += 1000) {
    clock.advance(1000);
    await Promise.all(drivers.map((d) => d.settle()));
  }
}

describe('demo workload', () => {
  it('gives the same pod names for the same seed, and different ones for another', () => {
    const names = (seed: number) =>
      steadyPods(seededRandom(seed), 3).map(
        (p) => `${p.pod.metadata?.namespace}/${p.pod.metadata?.name}`,
      );
    expect(names(1)).toEqual(names(1));
    expect(names(1)).not.toEqual(names(2));
    for (const n of names(1)) expect(n).toMatch(/^(shop|media|kube-system)\/[a-z0-9-]+$/);
    expect(names(1).filter((n) => n.startsWith('shop/web-'))).toHaveLength(3);
  });

  it('spreads the web replicas and kube-proxy over every node', () => {
    const pods = steadyPods(seededRandom(7), 3);
    const nodesOf = (prefix: string) =>
      pods
        .filter((p) => (p.pod.metadata?.name ?? '').startsWith(prefix))
        .map((p) => p.node)
        .sort();
    expect(nodesOf('web-')).toEqual([0, 1, 2]);
    expect(nodesOf('kube-proxy-')).toEqual([0, 1, 2]);
  });

  it('runs the mixed workload and keeps recurring Jobs coming, with a history limit', async () => {
    const { clock, drivers } = cluster(3);
    const demo = await startDemoWorkload({ drivers, clock, seed: 1 });
    await Promise.all(drivers.map((d) => d.settle()));
    const all = () => drivers.flatMap((d) => d.pods());
    const names = () => all().map((p) => `${p.namespace}/${p.name}`);
    expect(names().filter((n) => n.startsWith('batch/report-'))).toHaveLength(1);
    expect(names().some((n) => n.startsWith('shop/orders-'))).toBe(true);

    // The image that cannot be pulled shows the kubelet's reasons.
    await run(clock, drivers, 30_000);
    const recommendations = all().find((p) => p.name.startsWith('recommendations-'));
    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(
      recommendations?.syncErrors.recommendations?.reason,
    );

    // Four report runs (0, 2, 4, 6 min): only the last three are kept.
    await run(clock, drivers, 6 * 60_000 + 1_000);
    const reports = all().filter((p) => p.name.startsWith('report-') && p.phase !== 'terminating');
    expect(reports).toHaveLength(3);
    // The orders rollout replaced the first pod (5 min).
    expect(all().filter((p) => p.name.startsWith('orders-') && p.phase === 'syncing')).toHaveLength(
      1,
    );

    await demo.stop();
    const count = all().length;
    await run(clock, drivers, 5 * 60_000);
    expect(all().filter((p) => p.name.startsWith('report-')).length).toBeLessThanOrEqual(3);
    expect(all().length).toBeLessThanOrEqual(count);
    await Promise.all(drivers.map((d) => d.stop()));
  });
});
