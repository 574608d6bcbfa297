/**
 * The runtime is killed and comes back (containerd restarted under running containers): the
 * containers survive, the engine reports the outage and reconnects by itself, the timeline shows
 * RelistFailed then RelistRecovered, and nothing is recorded twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CriEvent } from '@/lib/timeline/events';
import { pod, readyOf, soundness, startRig, until, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const criTypes = (r: Rig) =>
  r
    .events()
    .filter((e): e is CriEvent => e.kind === 'cri')
    .map((e) => e.type);

describe('a runtime killed and restarted', () => {
  it('keeps its containers; the engine reconnects, records the outage once and duplicates nothing', async () => {
    const r = (rig = await startRig());
    await r.driver.apply(pod('web', ['sleep', 'infinity']));
    await r.driver.apply(pod('batch', ['sh', '-c', 'sleep 30; exit 0'], 'Never'));
    await r.run(3_000);
    const before = r.sim.runtime.listContainers(null).map((c) => c.id);
    expect(before).toHaveLength(2);
    const health = () => r.engine.nodeView('node-a')?.health;
    expect(health()?.connected).toBe(true);

    // The runtime goes away: relists fail with an error that names the endpoint.
    await r.sim.setListener('down');
    await r.run(3_000);
    expect(health()?.connected).toBe(false);
    expect(health()?.lastError).toMatch(
      /CRI List(PodSandbox|Containers) on unix:\/\/.*node-a\.sock: UNAVAILABLE/,
    );
    expect(r.logs.some((l) => /node-a: relist failed: CRI .* UNAVAILABLE/.test(l))).toBe(true);
    // One RelistFailed for the whole outage, not one per failed relist.
    expect(criTypes(r).filter((t) => t === 'RelistFailed')).toHaveLength(1);
    // Inside the grace period the node's last report stands.
    expect(readyOf(r.engine)).toBe('True');

    // Back, with the same containers (they lived on without their runtime's socket). The batch
    // container finished meanwhile: the first relist after the outage sees it exited.
    await r.sim.setListener('grpc');
    await until(r, () => health()?.connected === true, 'the engine to reconnect');
    await r.run(30_000);
    expect(r.sim.runtime.listContainers(null).map((c) => c.id)).toEqual(before);
    const types = criTypes(r);
    expect(types.filter((t) => t === 'RelistRecovered')).toHaveLength(1);
    expect(types.indexOf('RelistRecovered')).toBeGreaterThan(types.indexOf('RelistFailed'));
    expect(health()).toMatchObject({ connected: true });
    expect(health()?.lastError).toBeUndefined();

    const pods = Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {});
    expect(pods.find((p) => p.name === 'web')?.status.phase).toBe('Running');
    expect(pods.find((p) => p.name === 'batch')?.status.phase).toBe('Succeeded');

    const s = soundness(r.events(), r.engine.snapshot());
    expect(s.duplicates).toEqual([]);
    expect(s.gaps).toEqual([]);
    expect(s.badCauses).toEqual([]);
    expect(s.replayMatches).toBe(true);
    // The surviving containers were created and started exactly once on the timeline.
    for (const id of before) {
      const mine = r.events().filter((e) => e.kind === 'cri' && e.id === id);
      expect(mine.filter((e) => e.type === 'ContainerCreated')).toHaveLength(1);
      expect(mine.filter((e) => e.type === 'ContainerStarted')).toHaveLength(1);
    }
  }, 60_000);

  it('restart({downMs}) while the event stream is open: the stream breaks, polling covers, the stream resumes', async () => {
    const r = (rig = await startRig({
      sim: { eventsMode: 'stream' },
      timings: { relistMs: 200, fullRelistMs: 60_000 },
    }));
    // start() opens GetContainerEvents (once() does not); relists then run on real timers too.
    r.watcher.start();
    await r.driver.apply(pod('first', ['sleep', 'infinity']));
    await until(r, () => r.watcher.mode === 'events', 'the event stream to deliver', 15_000);
    await r.sim.restart({ downMs: 300 });
    await until(r, () => r.watcher.mode === 'polling', 'the fallback to polling', 10_000, 100);
    expect(
      r.logs.some((l) => /node-a: polling \(event stream broke: CRI GetContainerEvents/.test(l)),
    ).toBe(true);
    await r.driver.apply(pod('after', ['sleep', 'infinity']));
    await until(
      r,
      () =>
        Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).some(
          (p) => p.name === 'after' && p.status.phase === 'Running',
        ),
      'the pod started after the restart to be seen',
    );
    // The stream is retried (1 s, then 2 s …) and, delivering again, takes over from polling.
    let n = 0;
    const started = Date.now();
    while (r.watcher.mode !== 'events') {
      if (Date.now() - started > 15_000) throw new Error('the event stream did not come back');
      // Something must happen for the stream to deliver: a new pod every ~second.
      if ((Date.now() - started) / 1000 > n)
        await r.driver.apply(pod(`later-${n++}`, ['sleep', 'infinity']));
      await r.run(200, 200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const s = soundness(r.events(), r.engine.snapshot());
    expect(s.duplicates).toEqual([]);
    expect(s.gaps).toEqual([]);
    expect(s.replayMatches).toBe(true);
  }, 60_000);
});
