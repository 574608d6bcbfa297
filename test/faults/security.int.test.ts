/**
 * Observing never becomes a way into the cluster:
 * - the engine only ever reads a runtime: every RPC a simulated node receives while the engine
 *   watches it (lab or not) is a read;
 * - only configured or allow-listed endpoints are dialled: nodes.connect refuses anything else
 *   before any dial, and a browser cannot mark an endpoint as a lab;
 * - the access token never appears in what the configuration says back.
 * (The driver's refusal of non-lab, non-simulator runtimes: server/driver/driver.test.ts.)
 */
import { TRPCError } from '@trpc/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/server/config';
import { CriClient } from '@/server/cri/client';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine, type EngineTimings } from '@/server/engine/engine';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import { startSimNode, type RpcName, type SimNode } from '@/server/sim';
import { podSpec, createRequest, runPodRequest } from '@/server/sim/testing';
import { openStore } from '@/server/timeline-db';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const TIMINGS: EngineTimings = {
  relistMs: 100,
  nodeStatusMs: 200,
  fullRelistMs: 500,
  nodeMonitorGraceMs: 50_000,
  plegThresholdMs: 180_000,
  tolerationSeconds: 300,
};

/** The CRI's read-only RPCs (RuntimeService and ImageService). */
const READS = new Set<RpcName>([
  'Version',
  'Status',
  'ListPodSandbox',
  'PodSandboxStatus',
  'ListContainers',
  'ContainerStatus',
  'ListContainerStats',
  'ListPodSandboxStats',
  'GetContainerEvents',
  'ListImages',
  'ImageStatus',
  'ImageFsInfo',
]);

/** Records the name of every RPC the node's gRPC server is asked (each goes through its faults). */
function recordRpcs(sim: SimNode): RpcName[] {
  const seen: RpcName[] = [];
  const f = sim.faults;
  const latency = f.latency.bind(f);
  const error = f.error.bind(f);
  f.latency = (rpc) => {
    seen.push(rpc);
    return latency(rpc);
  };
  // Streams skip the latency draw; GetContainerEvents consults error() first.
  f.error = (rpc) => {
    if (rpc === 'GetContainerEvents') seen.push(rpc);
    return error(rpc);
  };
  return seen;
}

describe('observing is read-only', () => {
  for (const lab of [false, true]) {
    it(`the engine sends a ${lab ? 'lab' : 'production'} runtime nothing but reads while pods come, crash and go`, async () => {
      const sim = await startSimNode({ name: 'node-a', eventsMode: 'stream' });
      cleanups.push(() => sim.stop());
      const rpcs = recordRpcs(sim);
      const store = openStore({ path: ':memory:' });
      cleanups.push(() => store.close());
      const engine = new Engine({
        store: engineStore(store),
        timings: TIMINGS,
        dial: (e) => criRuntime(e, { timeoutMs: 2_000 }),
        log: () => undefined,
      });
      cleanups.push(() => engine.stop());
      engine.addNode('node-a', sim.endpoint, lab);
      engine.start();

      // Someone else (the node's kubelet) changes the runtime, straight through its model: no RPC.
      const rt = sim.runtime;
      const spec = podSpec('web');
      const sandbox = rt.runPodSandbox(runPodRequest(spec));
      const app = rt.createContainer(
        createRequest(
          sandbox,
          { name: 'app', image: 'podscope.local/busybox:1', command: ['sleep', 'infinity'] },
          spec,
        ),
      );
      rt.startContainer(app);
      const crash = rt.createContainer(
        createRequest(
          sandbox,
          { name: 'crash', image: 'podscope.local/busybox:1', command: ['sh', '-c', 'exit 3'] },
          spec,
        ),
      );
      rt.startContainer(crash);
      await new Promise((resolve) => setTimeout(resolve, 800));
      await rt.stopContainer(app, 0);
      rt.removeContainer(crash);
      await new Promise((resolve) => setTimeout(resolve, 800));
      rt.stopPodSandbox(sandbox);
      rt.removePodSandbox(sandbox);
      await new Promise((resolve) => setTimeout(resolve, 800));

      // It watched everything…
      const pods = Object.values(engine.snapshot().nodes['node-a']?.pods ?? {});
      expect(pods).toEqual([]);
      expect(
        store.range({ limit: 10_000 }).some((e) => e.kind === 'cri' && e.type === 'SandboxRemoved'),
      ).toBe(true);
      for (const rpc of [
        'Version',
        'Status',
        'ListPodSandbox',
        'ListContainers',
        'ContainerStatus',
        'PodSandboxStatus',
        'GetContainerEvents',
      ] as const) {
        expect(rpcs).toContain(rpc);
      }
      // …and asked nothing that changes a runtime.
      expect([...new Set(rpcs.filter((rpc) => !READS.has(rpc)))]).toEqual([]);
      // (The recorder does see a mutation when one arrives.)
      // The engine keeps polling meanwhile, so look among the calls since, not at the last one.
      const seen = rpcs.length;
      const other = new CriClient(sim.endpoint);
      await other.removePodSandbox(sandbox).catch(() => undefined);
      other.close();
      expect(rpcs.slice(seen)).toContain('RemovePodSandbox');
    }, 30_000);
  }
});

describe('nodes.connect dials only configured or allow-listed endpoints', () => {
  function setup(allowEndpoints: string[] = []) {
    const dialled: string[] = [];
    const store = openStore({ path: ':memory:' });
    const engine = new Engine({
      store: engineStore(store),
      timings: TIMINGS,
      allowEndpoints,
      dial: (endpoint) => {
        dialled.push(endpoint);
        // A runtime that never answers: enough to be "watched" without a socket.
        const never = () => new Promise<never>(() => undefined);
        return {
          endpoint,
          version: never,
          status: never,
          listPodSandbox: never,
          listContainers: never,
          podSandboxStatus: never,
          containerStatus: never,
          containerEvents: () => ({ [Symbol.asyncIterator]: () => ({ next: never }) }),
          close: () => undefined,
        } satisfies RuntimeClient;
      },
      log: () => undefined,
    });
    cleanups.push(async () => {
      await engine.stop();
      store.close();
    });
    return { engine, dialled, caller: createCaller(testContext({ engine })) };
  }

  const refusal = async (p: Promise<unknown>): Promise<TRPCError> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof TRPCError) return err;
      throw err;
    }
    throw new Error('expected a refusal');
  };

  it('refuses an endpoint nobody configured, before dialling it', async () => {
    const { caller, dialled, engine } = setup(['unix:///run/allowed.sock']);
    for (const endpoint of [
      'unix:///run/containerd/containerd.sock',
      'tcp://10.0.0.1:10010',
      '/run/allowed.sock', // the same socket written differently is not what was allowed
      'unix:///run/allowed.sock ',
      'unix:///run/allowed.sock#lab',
    ]) {
      const err = await refusal(caller.nodes.connect({ name: 'evil', endpoint }));
      expect(err.code).toBe('FORBIDDEN');
      expect(err.message).toContain('PODSCOPE_ALLOW_ENDPOINTS');
    }
    expect(dialled).toEqual([]);
    expect(engine.nodes()).toEqual([]);
  });

  it('connects an allow-listed endpoint, read-only: a browser cannot mark it as a lab', async () => {
    const { caller, dialled } = setup(['unix:///run/allowed.sock']);
    const input = {
      name: 'lab-node',
      endpoint: 'unix:///run/allowed.sock',
      lab: true,
    } as unknown as { name: string; endpoint: string };
    const node = await caller.nodes.connect(input);
    expect(node).toMatchObject({
      name: 'lab-node',
      endpoint: 'unix:///run/allowed.sock',
      lab: false,
    });
    expect(dialled).toEqual(['unix:///run/allowed.sock']);
    expect(
      (
        await refusal(
          caller.nodes.connect({ name: 'lab-node', endpoint: 'unix:///run/allowed.sock' }),
        )
      ).code,
    ).toBe('CONFLICT');
  });

  it('a configured node that was disconnected can be connected again (issue 17)', async () => {
    const { caller, engine, dialled } = setup();
    engine.addNode('node-a', 'unix:///run/configured.sock', false, false);
    await caller.nodes.disconnect({ name: 'node-a' });
    expect(engine.nodes()).toEqual([]);
    const back = await caller.nodes.connect({
      name: 'node-a',
      endpoint: 'unix:///run/configured.sock',
    });
    expect(back).toMatchObject({ name: 'node-a', endpoint: 'unix:///run/configured.sock' });
    expect(dialled).toEqual(['unix:///run/configured.sock', 'unix:///run/configured.sock']);
  });

  it('an endpoint is watched under one name only: no second name, however it is written (issue 17)', async () => {
    const { caller, engine, dialled } = setup(['unix:///run/allowed.sock', '/run/allowed.sock']);
    await caller.nodes.connect({ name: 'first', endpoint: 'unix:///run/allowed.sock' });
    for (const [name, endpoint] of [
      ['second', 'unix:///run/allowed.sock'],
      ['third', '/run/allowed.sock'],
    ] as const) {
      const err = await refusal(caller.nodes.connect({ name, endpoint }));
      expect(err.code).toBe('CONFLICT');
      expect(err.message).toBe(`endpoint ${endpoint} is already watched as first`);
    }
    expect(engine.nodes().map((n) => n.name)).toEqual(['first']);
    expect(dialled).toEqual(['unix:///run/allowed.sock']);
  });

  it('refuses malformed names and oversized endpoints as bad input', async () => {
    const { caller, dialled } = setup(['unix:///run/allowed.sock']);
    for (const input of [
      { name: 'Evil<script>', endpoint: 'unix:///run/allowed.sock' },
      { name: 'x'.repeat(254), endpoint: 'unix:///run/allowed.sock' },
      { name: 'ok', endpoint: `unix:///${'a'.repeat(1100)}` },
      { name: 'ok', endpoint: '' },
    ]) {
      expect((await refusal(caller.nodes.connect(input))).code).toBe('BAD_REQUEST');
    }
    expect(dialled).toEqual([]);
  });
});

describe('the access token is never said back', () => {
  it('a configuration error about the token does not contain it', () => {
    const token = 'short-s3cret';
    let message = '';
    try {
      loadConfig({ PODSCOPE_HOST: '0.0.0.0', PODSCOPE_TOKEN: token });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/token: the token must be at least 16 characters/);
    expect(message).not.toContain(token);
  });

  it('a wider bind without a token is refused, and one with a token is accepted', () => {
    expect(() => loadConfig({ PODSCOPE_HOST: '0.0.0.0' })).toThrow(/set PODSCOPE_TOKEN/);
    expect(
      loadConfig({ PODSCOPE_HOST: '0.0.0.0', PODSCOPE_TOKEN: 'a-long-enough-s3cret' }).token,
    ).toBe('a-long-enough-s3cret');
  });
});
