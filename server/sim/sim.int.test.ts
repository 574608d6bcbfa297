/**
 * The simulated node over real unix sockets, through the real client (server/cri): every RPC,
 * the containerd behaviours of REAL-CONTAINERD.md, StopContainer timeouts on the manual clock,
 * the event stream, images, stats, faults and clusters.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CriClient, CriError, EventsUnimplementedError, decodeListContainers } from '@/server/cri';
import type { RuntimeContainerEvent, SandboxSpec } from '@/server/cri';
import { createClock } from './clock/clock';
import type { SimClock } from './clock/clock';
import { startSimCluster, startSimNode } from './node';
import type { SimNode } from './node';

const IMAGE = 'podscope.local/busybox:1';
const MiB = 1024 * 1024;

const clients: CriClient[] = [];
const nodes: SimNode[] = [];

async function node(options: Partial<Parameters<typeof startSimNode>[0]> = {}): Promise<{
  sim: SimNode;
  cri: CriClient;
  clock: SimClock;
}> {
  const clock = createClock({ mode: 'manual' });
  const sim = await startSimNode({ name: 'sim-a', clock, seed: 'int', ...options });
  nodes.push(sim);
  const cri = new CriClient(sim.endpoint, { timeoutMs: 5000 });
  clients.push(cri);
  return { sim, cri, clock: sim.clock };
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

let podCount = 0;
function pod(overrides: Partial<SandboxSpec> = {}): SandboxSpec {
  podCount++;
  return {
    name: `pod-${podCount}`,
    namespace: 'default',
    uid: `uid-${podCount}`,
    networkMode: 'NODE',
    labels: { 'io.kubernetes.pod.uid': `uid-${podCount}`, app: 'web' },
    ...overrides,
  };
}

async function expectCode(p: Promise<unknown>, codeName: string): Promise<CriError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CriError);
  const criError = err as CriError;
  expect(criError.codeName).toBe(codeName);
  return criError;
}

/** Lets pending socket I/O complete (the manual clock does not move). */
const flush = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Waits (bounded, 5 s) until a condition on the node holds. */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('every RPC through CriClient', () => {
  it('Version, Status with node figures, images, ImageFsInfo', async () => {
    const { cri, sim } = await node();
    expect(await cri.version()).toEqual({
      name: 'podscope-sim',
      version: '0.1.0',
      apiVersion: 'v1',
    });
    const status = await cri.status({ verbose: true });
    expect(status.conditions.map((c) => [c.type, c.status])).toEqual([
      ['RuntimeReady', true],
      ['NetworkReady', true],
    ]);
    expect(status.node?.memoryCapacityBytes).toBe(8 * 1024 ** 3);
    expect(status.node?.pidMax).toBe(4_194_304);
    sim.setCondition('NetworkReady', {
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'cni plugin not initialized',
    });
    sim.setPressure({ memoryBytes: 7 * 1024 ** 3 });
    const after = await cri.status({ verbose: true });
    expect(after.conditions[1]).toEqual({
      type: 'NetworkReady',
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'cni plugin not initialized',
    });
    expect(after.node?.memoryAvailableBytes).toBeLessThan(1024 ** 3);
    expect((await cri.status()).node).toBeUndefined();

    expect((await cri.listImages()).map((i) => i.repoTags)).toEqual([[IMAGE]]);
    expect(await cri.imageStatus('podscope.local/app:1')).toBeUndefined();
    const ref = await cri.pullImage('podscope.local/app:1');
    expect(ref).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await cri.imageStatus('podscope.local/app:1'))?.id).toBe(ref);
    const fs = await cri.imageFsInfo();
    expect(fs.imageFilesystems[0]?.usedBytes).toBeGreaterThan(12 * MiB);
    expect(fs.containerFilesystems).toEqual([]);
  });

  it('sandbox and container lifecycle with lists, filters, statuses, exec and stats', async () => {
    const { cri, clock } = await node();
    const logDir = mkdtempSync(join(tmpdir(), 'podscope-sim-logs-'));
    onTestFinished(() => rmSync(logDir, { recursive: true, force: true }));
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    expect(await cri.listPodSandbox()).toMatchObject([
      { id: sid, name: spec.name, state: 'ready' },
    ]);
    expect(await cri.listPodSandbox({ state: 'notready' })).toEqual([]);
    expect(await cri.listPodSandbox({ labelSelector: { app: 'web' } })).toHaveLength(1);
    const sandbox = await cri.podSandboxStatus(sid, { verbose: true });
    expect(sandbox.sandbox).toMatchObject({
      networkMode: 'NODE',
      network: { ip: '', additionalIps: [] },
      inspected: true,
    });
    expect(JSON.parse(sandbox.info.info ?? '{}')).toMatchObject({ simulated: true });

    const id = await cri.createContainer(
      sid,
      {
        name: 'main',
        image: IMAGE,
        command: ['sh', '-c', 'touch /tmp/ready; exec dd if=/dev/zero of=/dev/null bs=8M'],
        labels: { 'io.kubernetes.container.name': 'main' },
        annotations: { 'io.kubernetes.container.restartCount': '2' },
        logPath: 'main/0.log',
        resources: { memoryLimitBytes: 64 * MiB },
      },
      { ...spec, logDirectory: logDir },
    );
    expect(await cri.listContainers({ sandboxId: sid })).toMatchObject([
      { id, state: 'created', restartCount: 2 },
    ]);
    await cri.startContainer(id);
    expect(await cri.listContainers({ state: 'running' })).toHaveLength(1);
    expect(await cri.listContainers({ state: 'exited' })).toHaveLength(0);
    const detail = await cri.containerStatusDetail(id, { sandboxId: sid });
    expect(detail.container).toMatchObject({
      state: 'running',
      sandboxId: sid,
      name: 'main',
      image: IMAGE,
    });
    expect(detail.memoryLimitBytes).toBe(64 * MiB);
    expect(detail.logPath).toBe(join(logDir, 'main/0.log'));
    // containerd's openLogFile: the folder is made and the file created when the container starts.
    expect(existsSync(join(logDir, 'main/0.log'))).toBe(true);

    expect((await cri.execSync(id, ['cat', '/tmp/ready'])).exitCode).toBe(0);
    const echo = await cri.execSync(id, ['sh', '-c', 'echo hello; exit 4']);
    expect([echo.exitCode, echo.stdout.toString()]).toEqual([4, 'hello\n']);
    const slow = cri.execSync(id, ['sleep', '5'], 1);
    await flush();
    clock.advance(1000);
    await expectCode(slow, 'DEADLINE_EXCEEDED');

    const before = (await cri.listContainerStats({ id }))[0];
    clock.advance(10_000);
    const later = (await cri.listContainerStats())[0];
    expect(later?.cpu?.usageCoreNanoSeconds).toBeGreaterThan(
      before?.cpu?.usageCoreNanoSeconds ?? Infinity,
    );
    expect(later?.memory?.workingSetBytes).toBeGreaterThan(8 * MiB);
    expect(later?.memory?.availableBytes).toBeLessThan(64 * MiB);
    const podStats = await cri.listPodSandboxStats();
    expect(podStats).toHaveLength(1);
    expect(podStats[0]?.containers.map((c) => c.id)).toEqual([id]);
    expect(podStats[0]?.processCount).toBe(2);

    await cri.stopContainer(id, 0);
    expect(await cri.containerStatus(id)).toMatchObject({
      state: 'exited',
      exitCode: 137,
      reason: 'Error',
    });
    const stoppedStats = (await cri.listContainerStats({ id }))[0];
    expect(stoppedStats?.cpu).toBeUndefined();
    expect(stoppedStats?.writableLayer?.usedBytes).toBeGreaterThan(0);
    await cri.removeContainer(id);
    expect(await cri.listContainers()).toEqual([]);
    await cri.stopPodSandbox(sid);
    expect((await cri.podSandboxStatus(sid)).sandbox.state).toBe('notready');
    expect(await cri.listPodSandboxStats()).toEqual([]);
    await cri.removePodSandbox(sid);
    expect(await cri.listPodSandbox()).toEqual([]);
  });

  it('serves the unfiltered lists from a cached encoding that follows every change', async () => {
    const { cri, sim } = await node();
    const sid = await cri.runPodSandbox(pod());
    const first = await cri.listContainersRaw();
    expect(decodeListContainers(first)).toEqual([]);
    const id = await cri.createContainer(
      sid,
      { name: 'a', image: IMAGE, command: ['sleep', '10'] },
      pod(),
    );
    const second = await cri.listContainersRaw();
    expect(decodeListContainers(second).map((c) => c.id)).toEqual([id]);
    const version = sim.runtime.listVersion;
    expect(Buffer.compare(await cri.listContainersRaw(), second)).toBe(0);
    expect(sim.runtime.listVersion).toBe(version);
    await cri.startContainer(id);
    expect(decodeListContainers(await cri.listContainersRaw())[0]?.state).toBe('running');
    expect((await cri.listPodSandboxRaw()).length).toBeGreaterThan(0);
  });
});

describe('containerd behaviours (REAL-CONTAINERD.md) over the wire', () => {
  async function life(
    cri: CriClient,
    clock: SimClock,
    command: string[],
    opts: { memoryLimitBytes?: number; image?: string } = {},
  ) {
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    const id = await cri.createContainer(
      sid,
      {
        name: 'main',
        image: opts.image ?? IMAGE,
        command,
        ...(opts.memoryLimitBytes
          ? { resources: { memoryLimitBytes: opts.memoryLimitBytes } }
          : {}),
      },
      spec,
    );
    const states = [(await cri.containerStatus(id)).state];
    const start = await cri.startContainer(id).then(
      () => 'ok',
      (e: unknown) => (e instanceof CriError ? e.codeName : 'other'),
    );
    states.push((await cri.containerStatus(id)).state);
    clock.advance(5_000);
    const final = await cri.containerStatus(id);
    return { start, states: [...states, final.state], final };
  }

  it.each([
    {
      command: ['sh', '-c', 'sleep 2; exit 3'],
      exit: 3,
      reason: 'Error',
      states: ['created', 'running', 'exited'],
    },
    {
      command: ['sh', '-c', 'sleep 1; exit 0'],
      exit: 0,
      reason: 'Completed',
      states: ['created', 'running', 'exited'],
    },
    { command: ['false'], exit: 1, reason: 'Error', states: ['created', 'exited', 'exited'] },
  ])('$command → $exit $reason', async ({ command, exit, reason, states }) => {
    const { cri, clock } = await node();
    const r = await life(cri, clock, command);
    expect(r.start).toBe('ok');
    expect(r.states).toEqual(states);
    expect(r.final).toMatchObject({ exitCode: exit, reason });
    expect(r.final.finishedAt).toBeGreaterThanOrEqual(r.final.startedAt ?? Infinity);
  });

  it('OOM: memory limit 32 MiB, main process over it → 137 OOMKilled', async () => {
    const { cri, clock } = await node();
    const r = await life(
      cri,
      clock,
      ['sh', '-c', 'sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M'],
      {
        memoryLimitBytes: 32 * MiB,
      },
    );
    expect(r.final).toMatchObject({ state: 'exited', exitCode: 137, reason: 'OOMKilled' });
  });

  it('binary that does not exist → StartContainer UNKNOWN, EXITED 128 StartError', async () => {
    const { cri, clock } = await node();
    const r = await life(cri, clock, ['/no/such/binary']);
    expect(r.start).toBe('UNKNOWN');
    expect(r.final).toMatchObject({ state: 'exited', exitCode: 128, reason: 'StartError' });
    expect(r.final.message).toContain('no such file or directory');
  });

  it('image that does not exist → CreateContainer NOT_FOUND; unknown ids → NOT_FOUND', async () => {
    const { cri } = await node();
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    await expectCode(
      cri.createContainer(
        sid,
        { name: 'x', image: 'podscope.local/nope:1', command: ['true'] },
        spec,
      ),
      'NOT_FOUND',
    );
    const unknown = 'f'.repeat(64);
    await expectCode(cri.containerStatus(unknown), 'NOT_FOUND');
    await expectCode(cri.startContainer(unknown), 'NOT_FOUND');
    await expectCode(cri.stopContainer(unknown, 1), 'NOT_FOUND');
    await expectCode(cri.podSandboxStatus(unknown), 'NOT_FOUND');
    await expectCode(cri.stopPodSandbox(unknown), 'NOT_FOUND');
    await cri.removeContainer(unknown);
    await cri.removePodSandbox(unknown);
  });

  it('StopContainer waits for the grace period on the manual clock when PID 1 ignores SIGTERM', async () => {
    const { cri, clock } = await node();
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    const id = await cri.createContainer(
      sid,
      { name: 'main', image: IMAGE, command: ['sleep', '3600'] },
      spec,
    );
    await cri.startContainer(id);
    let returned = false;
    const stop = cri.stopContainer(id, 30).then(() => {
      returned = true;
    });
    await flush();
    clock.advance(29_999);
    await flush();
    expect(returned).toBe(false);
    expect((await cri.containerStatus(id)).state).toBe('running');
    clock.advance(1);
    await stop;
    const after = await cri.containerStatus(id);
    expect(after).toMatchObject({ state: 'exited', exitCode: 137, reason: 'Error' });
    expect((after.finishedAt ?? 0) - (after.startedAt ?? 0)).toBe(30_000);
  });

  it('a shell trapping SIGTERM in wait ends 143 at once', async () => {
    const { cri } = await node();
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    const id = await cri.createContainer(
      sid,
      {
        name: 'main',
        image: IMAGE,
        command: ['sh', '-c', "trap 'exit 143' TERM; sleep 3600 & wait"],
      },
      spec,
    );
    await cri.startContainer(id);
    await cri.stopContainer(id, 30);
    expect(await cri.containerStatus(id)).toMatchObject({ exitCode: 143, reason: 'Error' });
  });

  it('catalogue: slow pull waits on the clock; failing pull is UNKNOWN; unknown images NOT_FOUND', async () => {
    const { cri, clock } = await node();
    let pulled = false;
    const timersBefore = clock.pending();
    const pull = cri
      .pullImage('podscope.local/slow-pull:30s', { timeoutMs: 10_000 })
      .then((ref) => {
        pulled = true;
        return ref;
      });
    // The pull's timer exists once the RPC reached the node; a fixed pause raced it on a loaded
    // machine (the clock then moved before the pull began, and the pull never finished).
    await until(() => clock.pending() > timersBefore);
    clock.advance(29_000);
    await flush();
    expect(pulled).toBe(false);
    clock.advance(1_000);
    expect(await pull).toMatch(/^sha256:/);
    const failing = await expectCode(cri.pullImage('podscope.local/failing-pull:1'), 'UNKNOWN');
    expect(failing.details).toContain('503 Service Unavailable');
    await expectCode(cri.pullImage('podscope.local/nope:1'), 'NOT_FOUND');
  });

  it('catalogue images behave as documented', async () => {
    const { cri, clock } = await node({
      preloadImages: [
        IMAGE,
        'podscope.local/app:1',
        'podscope.local/crash:1',
        'podscope.local/ignore-sigterm:1',
      ],
    });
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    const make = async (name: string, image: string, env?: Record<string, string>) => {
      const id = await cri.createContainer(sid, { name, image, ...(env ? { env } : {}) }, spec);
      await cri.startContainer(id);
      return id;
    };
    const app = await make('app', 'podscope.local/app:1');
    const crash = await make('crash', 'podscope.local/crash:1', { EXIT_CODE: '2' });
    const stubborn = await make('stubborn', 'podscope.local/ignore-sigterm:1');
    clock.advance(1);
    expect(await cri.containerStatus(crash)).toMatchObject({
      state: 'exited',
      exitCode: 2,
      reason: 'Error',
    });
    await cri.stopContainer(app, 10);
    expect(await cri.containerStatus(app)).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const stop = cri.stopContainer(stubborn, 2);
    await flush();
    clock.advance(2000);
    await stop;
    expect(await cri.containerStatus(stubborn)).toMatchObject({ exitCode: 137, reason: 'Error' });
  });
});

describe('GetContainerEvents', () => {
  async function collect(cri: CriClient, signal: AbortSignal) {
    const events: RuntimeContainerEvent[] = [];
    const done = (async () => {
      for await (const e of cri.getContainerEvents(signal)) events.push(e);
    })();
    await flush();
    return { events, done };
  }

  it('streams created/started/stopped/deleted with sandbox and container statuses (containerd 1.7+)', async () => {
    const { cri, clock } = await node();
    const ac = new AbortController();
    const { events, done } = await collect(cri, ac.signal);
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    const id = await cri.createContainer(
      sid,
      { name: 'main', image: IMAGE, command: ['sh', '-c', 'sleep 1; exit 2'] },
      spec,
    );
    await cri.startContainer(id);
    clock.advance(1000);
    await cri.removeContainer(id);
    await flush();
    ac.abort();
    await done;
    expect(
      events.map((e) => `${e.containerId === sid ? 'sandbox' : 'container'}:${e.kind}`),
    ).toEqual([
      'sandbox:created',
      'sandbox:started',
      'container:created',
      'container:started',
      'container:stopped',
      'container:deleted',
    ]);
    const stopped = events[4];
    expect(stopped?.sandbox?.id).toBe(sid);
    expect(stopped?.containers).toMatchObject([
      { id, state: 'exited', exitCode: 2, sandboxId: sid },
    ]);
    expect(stopped?.createdAt).toBe(clock.now());
  });

  it('answers UNIMPLEMENTED like containerd 1.6', async () => {
    const { cri } = await node({ eventsMode: 'unimplemented' });
    const err = await (async () => {
      try {
        for await (const _ of cri.getContainerEvents()) void _;
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(EventsUnimplementedError);
    expect((err as CriError).unimplemented).toBe(true);
    expect((err as CriError).details).toBe(
      'unknown method GetContainerEvents for service runtime.v1.RuntimeService',
    );
  });

  it('a stalled stream stays open but silent; a dropped one fails with UNAVAILABLE', async () => {
    const { cri, sim } = await node();
    sim.faults.update({ events: 'stall' });
    const ac = new AbortController();
    const { events, done } = await collect(cri, ac.signal);
    const spec = pod();
    await cri.runPodSandbox(spec);
    await flush();
    expect(events).toEqual([]);
    sim.dropEventStreams();
    const err = await done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CriError);
    expect((err as CriError).codeName).toBe('UNAVAILABLE');
  });
});

describe('faults', () => {
  it('adds latency and fails RPCs with the configured code', async () => {
    const { cri, sim } = await node({
      faults: { latency: { rpc: { Version: { fixedMs: 150 } } } },
    });
    const t0 = performance.now();
    await cri.version();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    sim.faults.update({
      errors: { ListContainers: { code: 14, message: 'runtime busy', times: 1 } },
    });
    const err = await expectCode(cri.listContainers(), 'UNAVAILABLE');
    expect(err.details).toBe('runtime busy');
    expect(await cri.listContainers()).toEqual([]);
  });

  it('a runtime restart takes the socket away; containers survive and their later exit is reported', async () => {
    const { cri, sim, clock } = await node();
    const spec = pod();
    const sid = await cri.runPodSandbox(spec);
    const id = await cri.createContainer(
      sid,
      { name: 'main', image: IMAGE, command: ['sh', '-c', 'sleep 10; exit 5'] },
      spec,
    );
    await cri.startContainer(id);
    await sim.setListener('down');
    expect(existsSync(sim.endpoint.slice('unix://'.length))).toBe(false);
    await expectCode(cri.listContainers(undefined, { timeoutMs: 1000 }), 'UNAVAILABLE');
    clock.advance(10_000);
    await sim.setListener('grpc');
    await cri.waitForReady(5000);
    expect(await cri.containerStatus(id)).toMatchObject({ state: 'exited', exitCode: 5 });
  });
});

describe('socket-level faults on a node', () => {
  it('garbage and silent listeners in place of the runtime, then restart() brings it back', async () => {
    const { cri, sim } = await node();
    const sid = await cri.runPodSandbox(pod());
    await sim.setListener('garbage');
    expect(sim.listener).toBe('garbage');
    const garbage = await cri.version({ timeoutMs: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(garbage).toBeInstanceOf(CriError);
    await sim.setListener('hang');
    // A fresh channel (the first one is backing off after the garbage and would fail fast).
    const fresh = new CriClient(sim.endpoint);
    clients.push(fresh);
    await expectCode(fresh.version({ timeoutMs: 300 }), 'DEADLINE_EXCEEDED');
    await sim.restart({ downMs: 50 });
    expect(sim.listener).toBe('grpc');
    await cri.waitForReady(5000);
    expect((await cri.listPodSandbox()).map((s) => s.id)).toEqual([sid]);
  });
});

describe('clusters', () => {
  let cluster: Awaited<ReturnType<typeof startSimCluster>>;
  beforeAll(async () => {
    cluster = await startSimCluster({ nodes: 25, clock: { mode: 'manual' }, seed: 'cl' });
  });
  afterAll(async () => {
    await cluster.stop();
  });

  it('runs many nodes on one clock, each on its own socket', async () => {
    expect(cluster.nodes.map((n) => n.name).slice(0, 2)).toEqual(['sim-node-001', 'sim-node-002']);
    const versions = await Promise.all(
      cluster.nodes.map(async (n) => {
        const c = new CriClient(n.endpoint);
        try {
          const spec = pod();
          const sid = await c.runPodSandbox(spec);
          const id = await c.createContainer(
            sid,
            { name: 'a', image: IMAGE, command: ['sleep', '1'] },
            spec,
          );
          await c.startContainer(id);
          return id;
        } finally {
          c.close();
        }
      }),
    );
    expect(new Set(versions).size).toBe(25);
    expect(cluster.clock.pending()).toBe(25);
    cluster.clock.advance(1000);
    expect(cluster.clock.pending()).toBe(0);
    for (const n of cluster.nodes)
      expect([...n.runtime.containers.values()][0]?.state).toBe('CONTAINER_EXITED');
  });

  it('removes its sockets on stop', async () => {
    const small = await startSimCluster({ nodes: 2, clock: { mode: 'manual' } });
    const paths = small.nodes.map((n) => n.endpoint.slice('unix://'.length));
    expect(paths.every((p) => existsSync(p))).toBe(true);
    await small.stop();
    expect(paths.some((p) => existsSync(p))).toBe(false);
    expect(existsSync(small.socketDir)).toBe(false);
  });
});
