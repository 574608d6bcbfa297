/**
 * A runtime that sends enormous strings (well inside the 16 MiB message limit): a container whose
 * start error quotes a 200 KB argv[0], as containerd quotes whatever it could not exec. Such a
 * string must not stop the timeline: the store refuses events above 256 KiB, and a refused batch
 * was held and retried for ever, so nothing after it ever reached a subscriber. Now the refused
 * events are recorded shrunk (server/engine/shrink.ts), and replay still equals live.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainerEvent } from '@/lib/timeline/events';
import { soundness, startRig, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('enormous strings from the runtime', () => {
  it('a 200 KB container message is recorded bounded; the timeline keeps moving', async () => {
    const r = (rig = await startRig());
    // 200 KB: the driver's pod-spec annotation (which quotes the command) stays under its own
    // 256 KiB limit, while each event quoting the message several times is far above the store's.
    const huge = `/bin/${'x'.repeat(200_000)}`;
    await r.driver.apply({
      metadata: { name: 'huge', namespace: 'faults' },
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'app', image: 'podscope.local/busybox:1', command: [huge] }],
      },
    });
    await r.driver.apply({
      metadata: { name: 'after', namespace: 'faults' },
      spec: {
        containers: [
          { name: 'app', image: 'podscope.local/busybox:1', command: ['sleep', 'infinity'] },
        ],
      },
    });
    await r.run(5_000);
    // The runtime really said it: the StartError message quotes the whole path.
    const record = r.sim.runtime
      .listContainers(null)
      .find((c) => c.metadata?.name === 'app' && c.state === 'CONTAINER_EXITED');
    expect(record).toBeDefined();

    expect(r.engine.health().ok).toBe(true);
    // The CRI edge bounds a runtime's message (server/cri CRI_TEXT_LIMITS), so the store never
    // has to refuse the event (the shrink path behind it is covered by server/engine/shrink.test.ts).
    expect(r.logs.filter((l) => l.startsWith('store: '))).toEqual([]);
    const pods = Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {});
    expect(pods.find((p) => p.name === 'after')?.status.phase).toBe('Running');
    const failed = pods.find((p) => p.name === 'huge');
    expect(failed?.status.phase).toBe('Failed');
    const message = failed?.status.containerStatuses?.[0]?.state?.terminated?.message ?? '';
    expect(message.endsWith('…')).toBe(true);
    expect(message.length).toBe(32_768);
    expect(message.startsWith('failed to create containerd task')).toBe(true);
    const biggest = Math.max(...r.events().map((e) => JSON.stringify(e).length));
    expect(biggest).toBeLessThan(256 * 1024);
    expect(
      r
        .events()
        .some((e): e is ContainerEvent => e.kind === 'container' && e.podUid === failed?.uid),
    ).toBe(true);
    const s = soundness(r.events(), r.engine.snapshot());
    expect(s.gaps).toEqual([]);
    expect(s.replayMatches).toBe(true);
  }, 60_000);
});
