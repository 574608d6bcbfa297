/**
 * A start that fails is not announced on GetContainerEvents (containerd 1.6 marks the container
 * EXITED 128 StartError without an event; the simulator does the same). With the event stream
 * delivering, the engine must still see it at the relist period — not a minute later at the
 * full relist — and must not take it for a stalled stream.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRequest, podSpec, runPodRequest } from '@/server/sim/testing';
import { pod, startRig, until, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a failed start while watching GetContainerEvents', () => {
  it('is seen at the relist period, and the node stays on the event stream', async () => {
    const r = (rig = await startRig({
      sim: { eventsMode: 'stream' },
      timings: { relistMs: 200, fullRelistMs: 60_000 },
    }));
    r.watcher.start();
    await r.driver.apply(pod('first', ['sleep', 'infinity']));
    await until(r, () => r.watcher.mode === 'events', 'the event stream to deliver', 15_000);

    // The kubelet's part, straight through the runtime's model: create, let the engine see the
    // container created, then a start that fails.
    const rt = r.sim.runtime;
    const spec = podSpec('broken');
    const sandbox = rt.runPodSandbox(runPodRequest(spec));
    const id = rt.createContainer(
      createRequest(
        sandbox,
        { name: 'app', image: 'podscope.local/busybox:1', command: ['/no/such/binary'] },
        spec,
      ),
    );
    const state = () =>
      Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).find(
        (p) => p.name === 'broken',
      )?.status.containerStatuses?.[0]?.state;
    // Real timers only (the watcher's own loops), well inside the 60 s full relist.
    const seen = async (what: string, check: () => boolean) => {
      const started = Date.now();
      while (!check()) {
        if (Date.now() - started > 10_000)
          throw new Error(`${what} was not seen: ${JSON.stringify(state())}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await seen('the created container', () => state()?.waiting !== undefined);
    try {
      rt.startContainer(id);
    } catch {
      // The binary does not exist: that is the point.
    }
    await seen('the failed start', () => state()?.terminated?.reason === 'StartError');
    expect(r.watcher.mode).toBe('events');
    expect(r.logs.some((l) => /stalled/.test(l))).toBe(false);
  }, 60_000);
});
