/**
 * `podscope snapshot --server URL`: the snapshot document read from a running console equals the
 * one read from the runtime directly (a simulated node, a real tRPC HTTP server).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { afterAll, describe, expect, it } from 'vitest';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { startSimNode } from '@/server/sim';
import { createRequest, podSpec, runPodRequest } from '@/server/sim/testing';
import { openStore } from '@/server/timeline-db';
import { appRouter } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { takeServerSnapshot, takeSnapshot } from './snapshot';

const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('podscope snapshot --server', () => {
  it('prints the same document from a running console as from the runtime', async () => {
    const node = await startSimNode({ name: 'snap-a' });
    cleanup.push(() => node.stop());
    const pod = podSpec('web');
    const sandbox = node.runtime.runPodSandbox(runPodRequest(pod));
    const id = node.runtime.createContainer(
      createRequest(
        sandbox,
        { name: 'main', image: 'podscope.local/busybox:1', command: ['sh', '-c', 'sleep 3600'] },
        pod,
      ),
    );
    node.runtime.startContainer(id);

    const store = openStore({ path: ':memory:' });
    const engine = new Engine({
      store: engineStore(store),
      timings: DEFAULT_ENGINE_TIMINGS,
      dial: (endpoint) => criRuntime(endpoint),
      log: () => undefined,
    });
    cleanup.push(
      () => store.close(),
      () => engine.stop(),
    );
    await engine.addNode('snap-a', node.endpoint, false, false).once();
    const server = createHTTPServer({
      basePath: '/api/trpc/',
      router: appRouter,
      createContext: () => testContext({ engine }),
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanup.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const fromServer = await takeServerSnapshot(url, { timeoutMs: 5_000 });
    const fromRuntime = await takeSnapshot(
      [{ name: 'snap-a', endpoint: node.endpoint, lab: false }],
      5_000,
    );
    expect(fromServer.nodes.map((n) => n.name)).toEqual(['snap-a']);
    const strip = (d: typeof fromServer) =>
      d.nodes.map((n) => ({
        name: n.name,
        pods: n.pods.map((p) => ({ uid: p.metadata.uid, phase: p.status.phase, why: p.why.phase })),
        ready: n.conditions.find((c) => c.type === 'Ready')?.status,
      }));
    expect(strip(fromServer)).toEqual(strip(fromRuntime));
    expect(strip(fromServer)[0]?.pods[0]).toMatchObject({ uid: pod.uid, phase: 'Running' });
  });

  it('says clearly when the console cannot be read or the URL is wrong', async () => {
    await expect(takeServerSnapshot('ftp://x', { timeoutMs: 1_000 })).rejects.toThrow(/http:\/\//);
    await expect(takeServerSnapshot('not a url', { timeoutMs: 1_000 })).rejects.toThrow(
      /console's URL/,
    );
    await expect(takeServerSnapshot('http://127.0.0.1:3799', { timeoutMs: 2_000 })).rejects.toThrow(
      /cannot read the console at http:\/\/127\.0\.0\.1:3799/,
    );
  });
});
