import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { NodeWatcher, phase, type RelistOutcome, type WatcherSink } from './node-watcher';
import type { RuntimeClient } from './runtime-client';

const sandbox = (
  id: string,
  uid: string,
  state: RuntimeSandbox['state'] = 'ready',
): RuntimeSandbox => ({
  id,
  name: `pod-${uid}`,
  namespace: 'default',
  uid,
  attempt: 0,
  state,
  createdAt: 10,
  labels: {},
  annotations: {},
  inspected: false,
});

const container = (
  id: string,
  sandboxId: string,
  uid: string,
  state: RuntimeContainer['state'] = 'running',
): RuntimeContainer => ({
  id,
  sandboxId,
  name: `c-${id}`,
  attempt: 0,
  state,
  createdAt: 20,
  image: 'img',
  imageRef: 'img',
  restartCount: 0,
  labels: { 'io.kubernetes.pod.uid': uid },
  annotations: {},
  inspected: false,
});

/** An in-memory runtime whose lists the test edits; counts the inspections. */
function fakeRuntime() {
  const rt = {
    sandboxes: [sandbox('s1', 'u1'), sandbox('s2', 'u2')],
    containers: [
      container('a', 's1', 'u1'),
      container('b', 's1', 'u1'),
      container('c', 's2', 'u2'),
    ],
    inspected: [] as string[],
    failing: new Set<string>(),
  };
  const client: RuntimeClient = {
    endpoint: 'fake',
    version: () => Promise.resolve({ name: 'fake', version: '1', apiVersion: 'v1' }),
    status: () => Promise.resolve({ conditions: [] }),
    listPodSandbox: () => Promise.resolve(rt.sandboxes.map((s) => ({ ...s }))),
    listContainers: () => Promise.resolve(rt.containers.map((c) => ({ ...c }))),
    podSandboxStatus: (id) => {
      rt.inspected.push(id);
      const s = rt.sandboxes.find((x) => x.id === id);
      return s
        ? Promise.resolve({ ...s, inspected: true })
        : Promise.reject(new Error(`no sandbox ${id}`));
    },
    containerStatus: (id) => {
      rt.inspected.push(id);
      const c = rt.containers.find((x) => x.id === id);
      if (!c || rt.failing.has(id)) return Promise.reject(new Error(`cannot inspect ${id}`));
      return Promise.resolve({
        ...c,
        inspected: true,
        ...(c.state !== 'created' ? { startedAt: 21 } : {}),
      });
    },
    containerEvents: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
    }),
    close: () => undefined,
  };
  return { rt, client };
}

/** A sink that ignores everything but the reports given. */
const sinkWith = (reports: Partial<WatcherSink>): WatcherSink => ({
  relisted: () => undefined,
  relistFailed: () => undefined,
  statusRead: () => undefined,
  connected: () => undefined,
  modeChanged: () => undefined,
  skippedTick: () => undefined,
  inspectFailed: () => undefined,
  ...reports,
});

function watch() {
  const { rt, client } = fakeRuntime();
  const outcomes: RelistOutcome[] = [];
  const sink = sinkWith({ relisted: (o) => outcomes.push(o) });
  let now = 1000;
  const watcher = new NodeWatcher(
    'n1',
    client,
    sink,
    { now: () => now++ },
    { relistMs: 1000, nodeStatusMs: 10_000, fullRelistMs: 60_000 },
  );
  return { rt, watcher, outcomes };
}

describe('NodeWatcher relist', () => {
  it('inspects everything once, then a quiet relist inspects nothing and reports no change', async () => {
    const { rt, watcher, outcomes } = watch();
    await watcher.once();
    expect(rt.inspected.sort()).toEqual(['a', 'b', 'c', 's1', 's2']);
    expect(outcomes[0]?.touched).toEqual(new Set(['u1', 'u2']));
    const held = watcher.records();

    rt.inspected = [];
    await watcher.relist();
    const quiet = outcomes[1];
    expect(rt.inspected).toEqual([]);
    expect(quiet?.transitions).toEqual([]);
    expect(quiet?.touched.size).toBe(0);
    expect(quiet?.removed.size).toBe(0);
    // The records held are the inspected ones, untouched.
    expect(watcher.records()).toEqual(held);
    // Pods are still there for whoever asks (time-due re-derivations).
    expect([...(quiet?.pods.keys() ?? [])].sort()).toEqual(['u1', 'u2']);
    expect(
      quiet?.pods
        .get('u1')
        ?.containers.map((c) => c.id)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(quiet?.pods.get('u1')?.containers.every((c) => c.inspected)).toBe(true);
  });

  it('reports a container that changed state, and only inspects that one', async () => {
    const { rt, watcher, outcomes } = watch();
    await watcher.once();
    rt.inspected = [];
    rt.containers = rt.containers.map((c) => (c.id === 'b' ? { ...c, state: 'exited' } : c));
    await watcher.relist();
    const o = outcomes[1];
    expect(rt.inspected).toEqual(['b']);
    expect(o?.transitions.map((t) => [t.type, t.id])).toEqual([['ContainerExited', 'b']]);
    expect(o?.touched).toEqual(new Set(['u1']));
    expect(o?.previousContainers.get('b')?.state).toBe('running');
  });

  it('reports removals even when no record needs inspecting', async () => {
    const { rt, watcher, outcomes } = watch();
    await watcher.once();
    rt.inspected = [];
    rt.containers = rt.containers.filter((c) => c.id !== 'c');
    rt.sandboxes = rt.sandboxes.filter((s) => s.id !== 's2');
    await watcher.relist();
    const o = outcomes[1];
    expect(rt.inspected).toEqual([]);
    expect(o?.transitions.map((t) => [t.type, t.id])).toEqual([
      ['SandboxRemoved', 's2'],
      ['ContainerExited', 'c'],
      ['ContainerRemoved', 'c'],
    ]);
    expect(o?.removed).toEqual(new Set(['u2']));
  });

  it('keeps the old record when an inspection fails and retries the pod next pass', async () => {
    const { rt, watcher, outcomes } = watch();
    await watcher.once();
    rt.failing.add('a');
    rt.containers = rt.containers.map((c) => (c.id === 'a' ? { ...c, state: 'exited' } : c));
    await watcher.relist();
    expect(outcomes[1]?.transitions).toEqual([]);
    expect(outcomes[1]?.touched).toEqual(new Set(['u1']));
    expect(watcher.records().containers.find((c) => c.id === 'a')?.state).toBe('running');
    rt.failing.clear();
    await watcher.relist();
    expect(outcomes[2]?.transitions.map((t) => [t.type, t.id])).toEqual([['ContainerExited', 'a']]);
  });
});

describe('NodeWatcher stop', () => {
  it('reports nothing from calls still in flight when stopped (they fail with CANCELLED)', async () => {
    const { client } = fakeRuntime();
    const reports: string[] = [];
    const sink: WatcherSink = {
      relisted: () => reports.push('relisted'),
      relistFailed: () => reports.push('relistFailed'),
      statusRead: (_node, _at, _status, error) => reports.push(error ? 'statusFailed' : 'status'),
      connected: () => reports.push('connected'),
      modeChanged: () => reports.push('modeChanged'),
      skippedTick: () => reports.push('skippedTick'),
      inspectFailed: () => reports.push('inspectFailed'),
    };
    // Inspections and the status read wait until the client is closed, then fail the way grpc-js
    // fails calls on a closed channel.
    let close = (): void => undefined;
    const closed = new Promise<never>((_resolve, reject) => {
      close = () => reject(new Error('1 CANCELLED: client closed'));
    });
    closed.catch(() => undefined);
    const watcher = new NodeWatcher(
      'n1',
      { ...client, containerStatus: () => closed, status: () => closed, close },
      sink,
      { now: () => 1000 },
      { relistMs: 1000, nodeStatusMs: 10_000, fullRelistMs: 60_000 },
    );
    const status = watcher.readStatus();
    const relist = watcher.relist();
    await new Promise((r) => setTimeout(r, 5));
    expect(reports).toEqual(['connected']); // the lists answered; the inspections wait
    reports.length = 0;
    watcher.stop();
    await Promise.all([status, relist]);
    expect(reports).toEqual([]);
  });

  it('still reports a failed inspection while running', async () => {
    const { rt, client } = fakeRuntime();
    const failed: string[] = [];
    rt.failing.add('a');
    const watcher = new NodeWatcher(
      'n1',
      client,
      sinkWith({ inspectFailed: (_node, id) => failed.push(id) }),
      { now: () => 1000 },
      { relistMs: 1000, nodeStatusMs: 10_000, fullRelistMs: 60_000 },
    );
    await watcher.relist();
    expect(failed).toEqual(['a']);
  });
});

describe('phase', () => {
  it('spreads nodes over the period, stably', () => {
    const phases = Array.from({ length: 200 }, (_, i) => phase(`node-${i}`, 1000));
    for (const p of phases) expect(p >= 0 && p < 1000).toBe(true);
    expect(phase('node-7', 1000)).toBe(phases[7]);
    // Not all in one corner of the period: each quarter holds some.
    for (let q = 0; q < 4; q++)
      expect(phases.filter((p) => p >= q * 250 && p < (q + 1) * 250).length).toBeGreaterThan(20);
  });
});
