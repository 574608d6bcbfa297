/**
 * Container resources end to end (issue 16): runtime → ListContainerStats → engine → the node's
 * recorded usage, on the simulator and on real containerd 1.6 (test/containerd harness). A pod
 * with a busy container holding a 64 MiB buffer (`dd bs=64M`) and an idle one (`sleep`): the busy
 * one shows CPU (cores from the cumulative counter's growth) and its buffer in the working set,
 * the idle one next to nothing, and the pod is their sum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { CriClient } from '@/server/cri/client';
import { fromSimClock, systemClock, type DriverClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { startSimNode, type SimNode } from '@/server/sim';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import {
  skipContainerd,
  startContainerd,
  type ContainerdInstance,
} from '@/test/containerd/harness';
import { criRuntime } from './relist/cri-runtime';
import { Engine } from './engine';
import type { NodeWatcher } from './relist/node-watcher';
import { engineStore } from './store-adapter';
import { DEFAULT_ENGINE_TIMINGS } from './timings';

const IMAGE = 'podscope.local/busybox:1';
const MiB = 2 ** 20;

interface Rig {
  node: string;
  driver: Driver;
  engine: Engine;
  watcher: NodeWatcher;
  /** Real milliseconds per virtual millisecond. */
  realPerVirtual: number;
  clock: DriverClock;
}

async function rigFor(
  node: string,
  endpoint: string,
  clock: DriverClock,
  realPerVirtual: number,
  lab: boolean,
  engineClock?: { now(): number },
): Promise<{ rig: Rig; stop: () => Promise<void> }> {
  const client = new CriClient(endpoint, { timeoutMs: 10_000 });
  const driver = new Driver({
    client,
    node,
    clock,
    lab,
    removalDelayMs: 0,
    log: () => undefined,
  });
  const store: TimelineStore = openStore({ path: ':memory:' });
  const engine = new Engine({
    store: engineStore(store),
    timings: DEFAULT_ENGINE_TIMINGS,
    ...(engineClock ? { clock: engineClock } : {}),
    providers: [driver.hints],
    dial: (e) => criRuntime(e, { timeoutMs: 10_000 }),
    log: () => undefined,
    detectedIPs: [],
  });
  const watcher = engine.addNode(node, endpoint, true, false);
  await watcher.once();
  return {
    rig: { node, driver, engine, watcher, realPerVirtual, clock },
    stop: async () => {
      await engine.stop();
      await driver.stop();
      client.close();
      store.close();
    },
  };
}

const pod: V1Pod = {
  metadata: { name: 'usage', namespace: 'stats' },
  spec: {
    terminationGracePeriodSeconds: 1,
    containers: [
      { name: 'busy', image: IMAGE, command: ['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=64M'] },
      { name: 'idle', image: IMAGE, command: ['sleep', '3600'] },
    ],
  },
};

function usageCases(name: string, get: () => Rig) {
  describe(name, () => {
    it('busy and idle containers: cores from counter deltas, working sets, the pod their sum', async () => {
      const r = get();
      const uid = (await r.driver.apply(pod)).metadata?.uid ?? '';
      const view = () => r.engine.snapshot().nodes[r.node];
      const deadline = Date.now() + 60_000;
      const running = () =>
        (view()?.pods[uid]?.status.containerStatuses ?? []).filter((c) => c.state?.running)
          .length === 2;
      while (!running()) {
        if (Date.now() > deadline) throw new Error('the pod did not start within 60 s');
        await r.watcher.relist();
        await new Promise((res) => setTimeout(res, 200));
      }
      await r.engine.sampleUsage();
      // a CPU figure needs a second sample of the same containers, some time later
      await new Promise((res) => setTimeout(res, Math.max(1500, 3000 * r.realPerVirtual)));
      const sampled = Date.now() + 30_000;
      let usage = view()?.usage?.pods[uid];
      while (usage?.containers.busy?.cpuCores === undefined) {
        if (Date.now() > sampled) throw new Error('no CPU figure within 30 s');
        await r.engine.sampleUsage();
        usage = view()?.usage?.pods[uid];
        if (usage?.containers.busy?.cpuCores === undefined)
          await new Promise((res) => setTimeout(res, 500));
      }
      const busy = usage.containers.busy;
      const idle = usage.containers.idle;
      // dd spins: most of a core, fewer on a loaded machine; never more than the machine has
      expect(busy?.cpuCores).toBeGreaterThan(0.1);
      expect(busy?.cpuCores).toBeLessThan(4);
      expect(busy?.memoryBytes).toBeGreaterThan(60 * MiB);
      expect(idle?.cpuCores ?? 0).toBeLessThan(0.05);
      expect(idle?.memoryBytes).toBeLessThan(8 * MiB);
      expect(usage.memoryBytes).toBe((busy?.memoryBytes ?? 0) + (idle?.memoryBytes ?? 0));
      expect(usage.cpuCores).toBeCloseTo((busy?.cpuCores ?? 0) + (idle?.cpuCores ?? 0), 9);
      // recorded on the timeline, so a replay shows it too
      const recorded = r.engine
        .range({ nodes: [r.node] })
        .filter((e) => e.kind === 'node' && e.usage);
      expect(recorded.length).toBeGreaterThanOrEqual(1);
      await r.driver.delete(uid, { gracePeriodSeconds: 0 });
    }, 120_000);
  });
}

describe('usage on the simulator', () => {
  let sim: SimNode;
  let rig: Rig;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    sim = await startSimNode({ name: 'usage-sim', clock: { mode: 'real', speed: 10 } });
    const clock = fromSimClock(sim.clock);
    ({ rig, stop } = await rigFor('usage-sim', sim.endpoint, clock, 1 / 10, true, sim.clock));
  });
  afterAll(async () => {
    await stop?.();
    await sim?.stop();
  });
  usageCases('simulator', () => rig);
});

const skip = skipContainerd('container usage on real containerd');

describe.skipIf(skip)('usage on real containerd (lab)', () => {
  let ctrd: ContainerdInstance | undefined;
  let rig: Rig;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ctrd = await startContainerd();
    ({ rig, stop } = await rigFor('usage-lab', ctrd.endpoint, systemClock, 1, true));
  }, 180_000);
  afterAll(async () => {
    await stop?.();
    await ctrd?.stop();
  }, 120_000);
  usageCases('containerd', () => rig);
});
