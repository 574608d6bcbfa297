/**
 * Issue 16 end to end: runtime (a simulated node over its socket) → engine → rules, for what the
 * engine feeds the rules beyond the CRI's pods — the node's host IPs (API server, configured,
 * detected), container resource figures, a container the runtime reports UNKNOWN, a pod
 * being deleted as the CRI alone shows it, and the node's container back-off (its maximum, the
 * 600 s reset) as the engine infers it.
 */
import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { CriClient } from '@/server/cri/client';
import type { DriverOptions } from '@/server/driver/driver-options';
import type { EngineOptions } from './engine-options';
import type { HintProvider } from './hints';
import { simEngineRigs, type SimEngineRig } from './testing/sim-rig';
import { kubeletContainer, kubeletSandbox } from '@/test/contract/scenario';

const simRig = simEngineRigs();

function rig(
  over: Partial<EngineOptions> = {},
  extra: HintProvider[] = [],
  opts: {
    driver?: Partial<DriverOptions>;
    /** The engine learns only the driver's specs: what the kubelet decided it infers itself. */
    specOnly?: boolean;
  } = {},
) {
  return simRig({
    engine: { detectedIPs: [], ...over },
    driver: { uidSeed: 'fid', ...opts.driver },
    providers: (driver) => [
      ...extra,
      opts.specOnly
        ? {
            name: 'driver',
            specFor: (uid) => driver.hints.specFor?.(uid),
            hintsFor: () => undefined,
          }
        : driver.hints,
    ],
  });
}

const spec = (name: string, hostNetwork: boolean, command = ['sleep', '3600']): V1Pod => ({
  metadata: { name, namespace: 'test' },
  spec: {
    hostNetwork, // explicit: the driver defaults to the host network
    containers: [{ name: 'app', image: 'podscope.local/busybox:1', command }],
  },
});

describe('host IPs through the engine', () => {
  it('configured node IPs: hostIP(s) set, a host-network pod takes them, the why says "configured"', async () => {
    const r = await rig({ nodeIPs: { all: [], byNode: { 'node-a': ['10.1.2.3', 'fd00::3'] } } });
    const host = (await r.driver.apply(spec('host', true))).metadata?.uid ?? '';
    const plain = (await r.driver.apply(spec('plain', false))).metadata?.uid ?? '';
    await r.run(3_000);
    const h = r.pod(host);
    expect(h?.status.hostIPs).toEqual([{ ip: '10.1.2.3' }, { ip: 'fd00::3' }]);
    // containerd reports no IP for a host-network sandbox: the kubelet gives it the node's.
    expect(h?.status.podIPs).toEqual([{ ip: '10.1.2.3' }, { ip: 'fd00::3' }]);
    expect(h?.why.hostIPs?.id).toBe('pod.hostIPs.configured');
    const p = r.pod(plain);
    expect(p?.status.hostIP).toBe('10.1.2.3');
    expect(p?.status.podIP).toMatch(/^10\.88\./); // the sandbox's IP, not the node's
    expect(p?.status.podIPs).toHaveLength(1);
  });

  it("the API server's Node wins over configuration; detected is the last resort", async () => {
    const api: HintProvider = {
      name: 'apiserver',
      hintsFor: () => undefined,
      hostIPsFor: (node) => (node === 'node-a' ? ['192.168.5.5'] : undefined),
    };
    const r = await rig({ nodeIPs: { all: ['10.9.9.9'], byNode: {} } }, [api]);
    const host = (await r.driver.apply(spec('host', true))).metadata?.uid ?? '';
    await r.run(3_000);
    expect(r.pod(host)?.status.podIPs).toEqual([{ ip: '192.168.5.5' }]);
    expect(r.pod(host)?.why.hostIPs?.id).toBe('pod.hostIPs.apiserver');

    const d = await rig({ detectedIPs: ['172.16.0.7'] });
    const uid = (await d.driver.apply(spec('host', true))).metadata?.uid ?? '';
    await d.run(3_000);
    expect(d.pod(uid)?.status.hostIP).toBe('172.16.0.7');
    expect(d.pod(uid)?.why.hostIPs?.id).toBe('pod.hostIPs.detected');
  });

  it('no host IPs known: no hostIP, and a host-network pod has no pod IP (as before a kubelet knows its node)', async () => {
    const r = await rig();
    const host = (await r.driver.apply(spec('host', true))).metadata?.uid ?? '';
    await r.run(3_000);
    expect(r.pod(host)?.status.hostIP).toBeUndefined();
    expect(r.pod(host)?.status.podIPs).toBeUndefined();
  });
});

describe('CONTAINER_UNKNOWN through the engine', () => {
  it('a running container the runtime loses: Terminated 137 ContainerStatusUnknown, restartCount + 1', async () => {
    const r = await rig();
    const uid = (await r.driver.apply(spec('lost', false))).metadata?.uid ?? '';
    await r.run(3_000);
    const before = r.pod(uid)?.status.containerStatuses?.[0];
    expect(before?.state?.running).toBeDefined();
    const id = before?.containerID?.replace(/^[a-z]+:\/\//, '') ?? '';
    r.sim.runtime.loseContainer(id);
    await r.watcher.relist();
    const after = r.pod(uid)?.status.containerStatuses?.[0];
    expect(after?.state?.terminated).toMatchObject({
      exitCode: 137,
      reason: 'ContainerStatusUnknown',
      message: 'The container could not be located when the pod was terminated',
    });
    expect(after?.restartCount).toBe((before?.restartCount ?? 0) + 1);
    expect(r.pod(uid)?.why.containers.app?.id).toBeDefined();
  });
});

describe('a pod the kubelet stopped, seen from the CRI only', () => {
  async function stoppedPod(extra: HintProvider[] = []) {
    const r = await rig({}, extra);
    const cri = new CriClient(r.sim.endpoint);
    r.defer(() => cri.close());
    const sb = kubeletSandbox('gone', '/tmp');
    const sid = await cri.runPodSandbox({ ...sb, logDirectory: '' });
    const cid = await cri.createContainer(
      sid,
      { ...kubeletContainer(sb, 'app', ['sleep', '3600']), logPath: '' },
      sb,
    );
    await cri.startContainer(cid);
    await r.run(2_000);
    // What the kubelet does when it kills a pod: stop the containers, then the sandbox.
    await cri.stopContainer(cid, 0);
    await cri.stopPodSandbox(sid);
    await r.run(30_000);
    return { r, uid: sb.uid };
  }

  it('no deletionTimestamp: no back-off invented, the why says it cannot be told', async () => {
    const { r, uid } = await stoppedPod();
    const p = r.pod(uid);
    const app = p?.status.containerStatuses?.[0];
    expect(app?.state?.waiting?.reason).not.toBe('CrashLoopBackOff');
    expect(app?.state?.terminated?.exitCode).toBe(137);
    expect(p?.nextRestartAt).toBeUndefined();
    expect(p?.why.phase).toMatchObject({
      id: 'phase.stoppedUnknown',
      params: { exitCodes: 'app 137' },
    });
  });

  it("the API server's deletionTimestamp: the pod is terminal (Failed: killed, exit 137)", async () => {
    // The API server has marked the pod for deletion from the start (graceful deletion).
    const api: HintProvider = {
      name: 'apiserver',
      hintsFor: () => ({ deletionTimestamp: 1 }),
    };
    const { r, uid } = await stoppedPod([api]);
    const p = r.pod(uid);
    expect(p?.deletionTimestamp).toBe(1);
    expect(p?.status.phase).toBe('Failed');
    expect(p?.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(137);
    expect(p?.why.phase.id).not.toBe('phase.stoppedUnknown');
  });
});

describe("the node's container back-off, as the engine infers it", () => {
  /** Every CrashLoopBackOff message the engine showed for `app` while running `ms` by `step`. */
  async function backoffsSeen(r: SimEngineRig, uid: string, ms: number, step: number) {
    const seen = new Set<string>();
    for (let done = 0; done < ms; done += step) {
      await r.run(step, step);
      const waiting = r.pod(uid)?.status.containerStatuses?.find((c) => c.name === 'app')
        ?.state?.waiting;
      if (waiting?.reason === 'CrashLoopBackOff') seen.add(waiting.message ?? '');
    }
    return [...seen].map((m) => /^back-off (\S+) /.exec(m)?.[1] ?? m);
  }

  it('maxContainerRestartPeriod 20 s on this node: the windows grow 10 s → 20 s and stop there', async () => {
    const r = await rig({ maxContainerRestartPeriodMs: { byNode: { 'node-a': 20_000 } } }, [], {
      driver: { maxContainerRestartPeriodMs: 20_000 },
      specOnly: true,
    });
    const uid = (await r.driver.apply(spec('crash', false, ['sh', '-c', 'exit 1']))).metadata?.uid;
    const seen = await backoffsSeen(r, uid ?? '', 240_000, 1000);
    expect(seen).toEqual(['10s', '20s']);
    expect(r.pod(uid ?? '')?.status.containerStatuses?.[0]?.restartCount).toBeGreaterThanOrEqual(8);
  });

  it('maximum 60 s: 200 s runs (past 2 × max, within 600 s) keep growing the back-off; 601 s runs reset it every time', async () => {
    const over = { maxContainerRestartPeriodMs: { all: 60_000 } };
    const opts = { driver: { maxContainerRestartPeriodMs: 60_000 }, specOnly: true };
    const r = await rig(over, [], opts);
    const uid = (await r.driver.apply(spec('slow', false, ['sh', '-c', 'sleep 200; exit 1'])))
      .metadata?.uid;
    expect(await backoffsSeen(r, uid ?? '', 1_000_000, 2000)).toEqual(['10s', '20s', '40s']);

    const long = await rig(over, [], opts);
    const uid2 = (await long.driver.apply(spec('long', false, ['sh', '-c', 'sleep 601; exit 1'])))
      .metadata?.uid;
    expect(await backoffsSeen(long, uid2 ?? '', 2_000_000, 5000)).toEqual([]);
    expect(
      long.pod(uid2 ?? '')?.status.containerStatuses?.[0]?.restartCount,
    ).toBeGreaterThanOrEqual(2);
  });
});

describe('container resources through the engine (ListContainerStats)', () => {
  const MiB = 2 ** 20;
  it('CPU cores from usage deltas and working sets per container and pod; MemoryPressure names the pod holding the memory', async () => {
    const r = await rig();
    const hogSpec = spec('hog', false, ['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=7200M']);
    const hog = (await r.driver.apply(hogSpec)).metadata?.uid ?? '';
    const idle = (await r.driver.apply(spec('idle', false))).metadata?.uid ?? '';
    await r.run(3_000);
    await r.engine.sampleUsage();
    const first = r.engine.snapshot().nodes['node-a']?.usage;
    // one sample: memory at once, CPU only once there is a delta
    expect(first?.pods[hog]?.memoryBytes).toBeGreaterThan(7000 * MiB);
    expect(first?.pods[hog]?.cpuCores).toBeUndefined();
    await r.run(10_000, 1000);
    await r.engine.sampleUsage();
    const usage = r.engine.snapshot().nodes['node-a']?.usage;
    expect(usage?.pods[hog]?.cpuCores).toBeCloseTo(1, 2); // dd holds a core
    expect(usage?.pods[hog]?.containers.app?.cpuCores).toBeCloseTo(1, 2);
    expect(usage?.pods[idle]?.cpuCores).toBeLessThan(0.01);
    expect(usage?.pods[idle]?.memoryBytes).toBeLessThan(2 * MiB);
    expect(usage?.pods[idle]?.containers.app?.memoryBytes).toBe(usage?.pods[idle]?.memoryBytes);

    await r.watcher.readStatus();
    const node = r.engine.snapshot().nodes['node-a'];
    expect(node?.conditions.find((c) => c.type === 'MemoryPressure')?.status).toBe('True');
    expect(node?.why.MemoryPressure?.id).toBe('node.pressure.trueUsage');
    expect(String(node?.why.MemoryPressure?.params?.pods)).toMatch(
      /^test\/hog 7(\.\d)?Gi, test\/idle /,
    );
  });

  it('a quiet node records its usage when it first has CPU figures, not at every sample', async () => {
    const r = await rig();
    await r.driver.apply(spec('idle', false));
    await r.run(3_000);
    const usageEvents = () =>
      r.engine
        .range({ nodes: ['node-a'] })
        .filter((e) => e.kind === 'node' && e.usage !== undefined && e.usage !== null).length;
    await r.engine.sampleUsage(); // memory
    await r.run(10_000, 1000);
    await r.engine.sampleUsage(); // and CPU
    expect(usageEvents()).toBe(2);
    for (let i = 0; i < 5; i++) {
      await r.run(10_000, 1000);
      await r.engine.sampleUsage();
    }
    expect(usageEvents()).toBe(2);
  });
});

describe("the node lifecycle controller's MarkPodsNotReady through the engine (issue 32)", () => {
  const probed = (name: string): V1Pod => ({
    metadata: { name, namespace: 'test' },
    spec: {
      hostNetwork: false,
      containers: [
        {
          name: 'app',
          image: 'podscope.local/busybox:1',
          command: ['sleep', '3600'],
          readinessProbe: { exec: { command: ['true'] }, periodSeconds: 1 },
        },
      ],
    },
  });
  const readyOf = (p: ReturnType<SimEngineRig['pod']>) =>
    p?.status.conditions?.find((c) => c.type === 'Ready');
  const nodeReady = (r: SimEngineRig) =>
    r.engine.snapshot().nodes['node-a']?.conditions.find((c) => c.type === 'Ready');

  it('the runtime network is not ready: the kubelet reports the node NotReady and the pod keeps its Ready=True (only the taint and eviction follow)', async () => {
    const r = await rig();
    const uid = (await r.driver.apply(probed('web'))).metadata?.uid ?? '';
    await r.run(5_000);
    expect(readyOf(r.pod(uid))?.status).toBe('True');
    r.sim.setCondition('NetworkReady', {
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'Network plugin returns error: cni plugin not initialized',
    });
    await r.watcher.readStatus();
    await r.run(15_000);
    expect(nodeReady(r)).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
    expect(nodeReady(r)?.message).toContain('container runtime network not ready');
    const p = r.pod(uid);
    expect(readyOf(p)?.status).toBe('True');
    expect(p?.why.conditions.Ready).toMatchObject({
      id: 'condition.ready.kubeletReportsNodeNotReady',
      params: { cause: 'networkNotReady' },
    });
    expect(p?.evictionDueAt).toBeGreaterThan(r.clock.now());
  });

  it('the kubelet falls silent (partition): the controller turns Ready True → Unknown and marks the pod not ready; the kubelet’s next post puts it back', async () => {
    const r = await rig();
    const uid = (await r.driver.apply(probed('cache'))).metadata?.uid ?? '';
    await r.run(5_000);
    expect(readyOf(r.pod(uid))?.status).toBe('True');
    r.driver.partition(true);
    // The runtime keeps answering its Status calls (the rig reads them only when asked).
    for (let i = 0; i < 12; i++) {
      await r.watcher.readStatus();
      await r.run(5_000, 1_000);
    }
    expect(nodeReady(r)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    const p = r.pod(uid);
    expect(readyOf(p)?.status).toBe('False');
    expect(p?.why.conditions.Ready?.id).toBe('condition.ready.nodeNotReady');
    expect(p?.status.containerStatuses?.[0]?.state?.running).toBeDefined();
    expect(p?.status.conditions?.find((c) => c.type === 'ContainersReady')?.status).toBe('True');
    r.driver.partition(false);
    await r.run(2_000);
    expect(nodeReady(r)?.status).toBe('True');
    expect(readyOf(r.pod(uid))?.status).toBe('True');
  });
});
