/**
 * Replay exactness end to end: a simulated node driven by the kubelet stand-in, watched by the
 * engine into a file-backed store; a period is saved and exported (gzip), imported into a fresh
 * store, and replayed: at ten sampled moments the imported timeline gives the same ClusterState,
 * state for state, as the original server's stateAt(t).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { encode } from '@/lib/timeline/codec';
import { stateAtTime, timelineTimes } from '@/lib/timeline/file';
import { CriClient } from '@/server/cri/client';
import { fromSimClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { createClock, startSimNode } from '@/server/sim';
import { openStore } from '@/server/timeline-db';
import { tempDir } from '@/server/timeline-db/testing/testkit';
import { decodeUpload } from './decode';
import { TimelinesService } from './service';
import { savedInStore } from './storage';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const pod = (
  name: string,
  command: string[],
  restartPolicy: 'Always' | 'Never' | 'OnFailure' = 'Always',
): V1Pod => ({
  metadata: { name, namespace: 'incident' },
  spec: {
    restartPolicy,
    initContainers: [
      {
        name: 'setup',
        image: 'podscope.local/busybox:1',
        command: ['sh', '-c', 'sleep 1; exit 0'],
      },
    ],
    containers: [{ name: 'app', image: 'podscope.local/busybox:1', command }],
  },
});

describe('export → import replays exactly', () => {
  it('gives the original server’s state at ten sampled moments', async () => {
    const clock = createClock({ mode: 'manual' });
    const sim = await startSimNode({ name: 'node-a', clock, eventsMode: 'unimplemented' });
    const client = new CriClient(sim.endpoint);
    const driver = new Driver({
      client,
      node: 'node-a',
      clock: fromSimClock(clock),
      uidSeed: 'incident',
    });
    const dataA = tempDir('podscope-export-a-');
    const store = openStore({ path: dataA.dir, checkpointEvery: 50 });
    const engine = new Engine({
      store: engineStore(store),
      timings: DEFAULT_ENGINE_TIMINGS,
      clock,
      providers: [driver.hints],
      dial: (e) => criRuntime(e, { timeoutMs: 2000 }),
      log: () => undefined,
    });
    const watcher = engine.addNode('node-a', sim.endpoint, true, false);
    cleanups.push(async () => {
      await engine.stop();
      await driver.stop();
      client.close();
      store.close();
      await sim.stop();
      dataA.cleanup();
    });
    await watcher.once();
    const run = async (ms: number) => {
      for (let done = 0; done < ms; done += 500) {
        clock.advance(500);
        await driver.settle();
        await watcher.relist();
        engine.tick();
      }
    };

    await driver.apply(pod('steady', ['sleep', 'infinity']));
    await run(5_000);
    const from = clock.now();
    await driver.apply(pod('crashy', ['sh', '-c', 'sleep 2; exit 3']));
    await driver.apply(pod('job', ['sh', '-c', 'sleep 3; exit 0'], 'Never'));
    await run(40_000);
    const to = clock.now();
    await run(5_000);

    const exporter = new TimelinesService(savedInStore(store));
    const saved = await exporter.save({
      title: 'crashy crash loop',
      notes: 'from the integration test',
      from,
      to,
      annotations: [{ t: from + 3_000, text: 'crashy applied' }],
    });
    expect(saved.eventCount).toBeGreaterThan(30);
    const { body } = await exporter.exportBytes(saved.id, { gzip: true });

    // The file itself replays exactly, before any import.
    const file = decodeUpload(body);
    const dataB = tempDir('podscope-export-b-');
    const fresh = openStore({ path: dataB.dir });
    cleanups.push(() => {
      fresh.close();
      dataB.cleanup();
    });
    const imported = await new TimelinesService(savedInStore(fresh)).importBytes(body);
    const copy = fresh.getTimeline(imported.id);

    const times = timelineTimes(copy);
    const samples = Array.from(
      { length: 10 },
      (_, i) => times[Math.floor(((times.length - 1) * i) / 9)] ?? to,
    );
    expect(new Set(samples).size).toBeGreaterThanOrEqual(5);
    for (const t of [from, ...samples, to]) {
      const original = store.stateAt(t);
      expect(encode(stateAtTime(copy, t))).toBe(encode(original));
      expect(encode(stateAtTime(file, t))).toBe(encode(original));
    }
    // What the file shows is really the incident: crashy restarted, the job succeeded.
    const pods = Object.values(stateAtTime(copy, to).nodes['node-a']?.pods ?? {});
    expect(
      pods.find((p) => p.name === 'crashy')?.status.containerStatuses?.[0]?.restartCount,
    ).toBeGreaterThanOrEqual(2);
    expect(pods.find((p) => p.name === 'job')?.status.phase).toBe('Succeeded');
    expect(copy.annotations.map((a) => a.text)).toEqual(['crashy applied']);
  }, 120_000);
});
