/**
 * The kubelet stand-in's runtime state and API link: the runtime's NetworkReady gates every pod
 * off the host network (pkg/kubelet/kubelet.go SyncPod and updateRuntimeUp), and a partition
 * freezes the kubelet's last post and holds the API server's deletions until it heals.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RuntimeCondition } from '@/lib/kubelet/runtime';
import { ManualClock } from '../clock';
import { Driver, type DriverNote } from '../driver';
import { FakeRuntime } from '../testing/fake-runtime';
import { advance, advanceUntil } from '../testing/step';

class StatusRuntime extends FakeRuntime {
  network: RuntimeCondition = { type: 'NetworkReady', status: true, reason: '', message: '' };
  status(): Promise<{ conditions: RuntimeCondition[] }> {
    this.calls.push('Status');
    return Promise.resolve({
      conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }, this.network],
    });
  }
}

function setup() {
  const clock = new ManualClock();
  const runtime = new StatusRuntime(clock);
  const notes: DriverNote[] = [];
  const driver = new Driver({ client: runtime, node: 'node-a', clock, log: () => undefined });
  driver.onNote((n) => notes.push(n));
  return { clock, runtime, driver, notes };
}

const pod = (name: string, hostNetwork: boolean): V1Pod => ({
  metadata: { name, namespace: 'shop' },
  spec: {
    hostNetwork,
    containers: [{ name: 'app', image: 'podscope.local/busybox:1', command: ['sleep', '3600'] }],
  },
});

describe('the runtime network gates pods off the host network', () => {
  it('no sandbox while NetworkReady is false, the kubelet error and event; host-network pods start', async () => {
    const { clock, runtime, driver, notes } = setup();
    runtime.network = {
      type: 'NetworkReady',
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'cni plugin not initialized',
    };
    const web = await driver.apply(pod('web', false));
    const uid = web.metadata?.uid ?? '';
    await advance(clock, driver, 1_000);
    expect(runtime.calls.filter((c) => c.startsWith('RunPodSandbox'))).toEqual([]);
    const text =
      'network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni plugin not initialized';
    expect(driver.pods()[0]?.lastError).toBe(text);
    expect(notes.find((n) => n.uid === uid)?.event).toEqual({
      type: 'networkNotReady',
      message: text,
    });
    // The engine still shows the pod: the kubelet syncs it.
    expect(driver.hints.podsOn?.('node-a')).toEqual([uid]);
    expect(driver.hints.podsOn?.('node-b')).toEqual([]);

    await driver.apply(pod('agent', true));
    await advance(clock, driver, 1_000);
    expect(runtime.calls.some((c) => c.startsWith('StartContainer'))).toBe(true);
    expect(runtime.calls.filter((c) => c.startsWith('RunPodSandbox'))).toHaveLength(1);

    // Back: the next Status (5 s) clears the error, the next retry (10 s) creates the sandbox.
    runtime.network = { type: 'NetworkReady', status: true, reason: '', message: '' };
    await advanceUntil(
      clock,
      driver,
      () => runtime.calls.filter((c) => c.startsWith('RunPodSandbox')).length === 2,
      20_000,
      'the sandbox of web',
    );
    await driver.stop();
  });
});

describe('the API link', () => {
  it('a partition freezes the last post and holds the eviction until it heals', async () => {
    const { clock, driver, notes } = setup();
    const web = await driver.apply(pod('web', true));
    const uid = web.metadata?.uid ?? '';
    await advance(clock, driver, 1_000);
    expect(driver.hints.kubeletPostedAt?.('node-a')).toBe(clock.now());
    driver.partition(true);
    const cut = clock.now();
    await advance(clock, driver, 60_000);
    expect(driver.hints.kubeletPostedAt?.('node-a')).toBe(cut);

    driver.evict(uid);
    expect(notes.at(-1)?.event).toEqual({
      type: 'evicted',
      message: 'Marking for deletion Pod shop/web',
    });
    await advance(clock, driver, 10_000);
    expect(driver.pods()[0]?.deletionTimestamp).toBeUndefined();

    driver.partition(false);
    expect(driver.hints.kubeletPostedAt?.('node-a')).toBe(clock.now());
    await advance(clock, driver, 0);
    expect(driver.pods()[0]?.deletionTimestamp).toBe(clock.now());
    await advanceUntil(clock, driver, () => driver.pods().length === 0, 60_000, 'web gone');
    await driver.stop();
  });
});
