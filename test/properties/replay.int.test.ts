/**
 * Replay is exact, whatever a runtime says. A runtime that reports any sequence of records —
 * ids reused, states going backwards, containers pointing at sandboxes that do not exist, pod
 * uids that disagree between label and sandbox, times at zero, in the future, out of order,
 * inspections that fail — goes through the real engine (NodeWatcher → diff → lib/kubelet →
 * reducer → store). Then:
 * - the engine neither throws nor mistakes its own trouble for the runtime's (no RelistFailed);
 * - seqs are contiguous and every cause points backwards;
 * - replay(recorded events) == the live state, and the store's checkpointed seek to any seq ==
 *   the fold of the events up to it;
 * - re-delivering any events (duplicates, anywhere after their first delivery) changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import type { TimelineEvent } from '@/lib/timeline/events';
import { reduce, reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { CriError } from '@/server/cri/errors';
import { Engine } from '@/server/engine/engine';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import { openStore } from '@/server/timeline-db';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

const T0 = Date.UTC(2026, 0, 1);
const hostile = fc.constantFrom(
  '',
  'app',
  'side',
  'init',
  '<img src=x onerror=alert(1)>',
  'ünï',
  'a'.repeat(300),
);
/** CRI times are int64 nanoseconds: epoch ms within ±9,223,372,036,854 (years 1677–2262). */
const INT64_MS = 9_223_372_036_854;
const time = fc.oneof(
  fc.integer({ min: T0 - 3_600_000, max: T0 + 3_600_000 }),
  fc.integer({ min: -INT64_MS, max: INT64_MS }),
  fc.constantFrom(0, -1, T0, INT64_MS, -INT64_MS),
);

const sandboxArb = fc.record({
  id: fc.constantFrom('s1', 's2', 's3'),
  name: fc.constantFrom('web', 'db', '<b>x</b>'),
  namespace: fc.constantFrom('default', 'kube-system', ''),
  uid: fc.constantFrom('u1', 'u2', 'u3', ''),
  attempt: fc.nat(3),
  state: fc.constantFrom('ready' as const, 'notready' as const),
  createdAt: time,
  annotations: fc.constantFrom<Record<string, string>>(
    {},
    {
      'podscope.dev/pod-spec':
        '{"spec":{"restartPolicy":"Never","containers":[{"name":"app"},{"name":"side"}]}}',
    },
    {
      'podscope.dev/pod-spec':
        '{"spec":{"initContainers":[{"name":"init"}],"containers":[{"name":"app"}]}}',
    },
    { 'podscope.dev/pod-spec': '{not json' },
  ),
});

const containerArb = fc.record({
  id: fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c5'),
  sandboxId: fc.constantFrom('s1', 's2', 's3', 'sX', ''),
  name: hostile,
  attempt: fc.nat(5),
  state: fc.constantFrom(
    'created' as const,
    'running' as const,
    'exited' as const,
    'unknown' as const,
  ),
  createdAt: time,
  startedAt: fc.option(time, { nil: undefined }),
  finishedAt: fc.option(time, { nil: undefined }),
  exitCode: fc.option(fc.integer({ min: -1, max: 300 }), { nil: undefined }),
  reason: fc.option(fc.constantFrom('Error', 'Completed', 'OOMKilled', 'StartError', '<script>'), {
    nil: undefined,
  }),
  message: fc.option(hostile, { nil: undefined }),
  restartCount: fc.nat(10),
  podUidLabel: fc.option(fc.constantFrom('u1', 'u2', 'u4'), { nil: undefined }),
});
type ContainerArb = typeof containerArb extends fc.Arbitrary<infer T> ? T : never;

function toContainer(c: ContainerArb): RuntimeContainer {
  return {
    id: c.id,
    sandboxId: c.sandboxId,
    name: c.name,
    attempt: c.attempt,
    state: c.state,
    createdAt: c.createdAt,
    ...(c.startedAt !== undefined ? { startedAt: c.startedAt } : {}),
    ...(c.finishedAt !== undefined ? { finishedAt: c.finishedAt } : {}),
    ...(c.exitCode !== undefined ? { exitCode: c.exitCode } : {}),
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.message !== undefined ? { message: c.message } : {}),
    image: 'podscope.local/busybox:1',
    imageRef: 'sha256:1',
    restartCount: c.restartCount,
    labels: {
      'io.kubernetes.container.name': c.name,
      ...(c.podUidLabel !== undefined ? { 'io.kubernetes.pod.uid': c.podUidLabel } : {}),
    },
    annotations: { 'io.kubernetes.container.restartCount': String(c.restartCount) },
    inspected: true,
  };
}

/** One moment of the runtime: what it lists, and which inspections fail. */
const worldArb = fc.record({
  advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120_000 })),
  sandboxes: fc.uniqueArray(sandboxArb, { selector: (s) => s.id, maxLength: 3 }),
  containers: fc.uniqueArray(containerArb, { selector: (c) => c.id, maxLength: 5 }),
  failing: fc.subarray(['c1', 'c2', 's1', 'c3']),
  notFound: fc.boolean(),
});
type World = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

/** A runtime client over a scripted sequence of worlds (in memory; the real one is gRPC). */
function scripted(): { client: RuntimeClient; set(w: World): void } {
  let world: World | undefined;
  const sandboxes = () =>
    (world?.sandboxes ?? []).map((s): RuntimeSandbox => ({ ...s, labels: {}, inspected: true }));
  const containers = () => (world?.containers ?? []).map(toContainer);
  const failure = (id: string) =>
    new CriError({
      endpoint: 'fake://node',
      rpc: id.startsWith('s') ? 'PodSandboxStatus' : 'ContainerStatus',
      code: world?.notFound ? 5 : 13,
      details: `injected failure for ${id}`,
    });
  const client: RuntimeClient = {
    endpoint: 'fake://node',
    version: () => Promise.resolve({ name: 'fake', version: '1', apiVersion: 'v1' }),
    status: () =>
      Promise.resolve({
        conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }],
      }),
    listPodSandbox: () => Promise.resolve(sandboxes().map((s) => ({ ...s, inspected: false }))),
    listContainers: () =>
      Promise.resolve(
        containers().map(
          ({
            startedAt: _s,
            finishedAt: _f,
            exitCode: _e,
            reason: _r,
            message: _m,
            ...listed
          }) => ({
            ...listed,
            inspected: false,
          }),
        ),
      ),
    podSandboxStatus: (id) => {
      if (world?.failing.includes(id)) return Promise.reject(failure(id));
      const s = sandboxes().find((x) => x.id === id);
      return s ? Promise.resolve(s) : Promise.reject(failure(id));
    },
    containerStatus: (id, sandboxId) => {
      if (world?.failing.includes(id)) return Promise.reject(failure(id));
      const c = containers().find((x) => x.id === id);
      return c
        ? Promise.resolve({ ...c, sandboxId: sandboxId || c.sandboxId })
        : Promise.reject(failure(id));
    },
    containerEvents: () => ({
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<never>>(() => undefined),
      }),
    }),
    close: () => undefined,
  };
  return { client, set: (w) => (world = w) };
}

async function record(
  worlds: readonly World[],
  pick = 0,
): Promise<{
  events: TimelineEvent[];
  live: unknown;
  logs: string[];
  /** The store's seek to the seq of event number `pick` (modulo), read before it closes. */
  seek?: { seq: number; state: unknown };
}> {
  let now = T0;
  const clock = { now: () => now };
  const store = openStore({ path: ':memory:', checkpointEvery: 7 });
  const fake = scripted();
  const logs: string[] = [];
  const engine = new Engine({
    store: engineStore(store),
    timings: DEFAULT_ENGINE_TIMINGS,
    clock,
    dial: () => fake.client,
    log: (l) => logs.push(l),
  });
  const watcher = engine.addNode('node-a', 'fake://node', false, false);
  try {
    await watcher.once();
    for (const w of worlds) {
      now += w.advanceMs;
      fake.set(w);
      await watcher.relist();
      engine.tick();
      if (w.advanceMs > 60_000) await watcher.readStatus();
    }
    const events = store.range({ limit: 1_000_000 });
    const seq = events[pick % Math.max(1, events.length)]?.seq;
    return {
      events,
      live: engine.snapshot(),
      logs,
      ...(seq !== undefined ? { seek: { seq, state: store.stateAtSeq(seq) } } : {}),
    };
  } finally {
    await engine.stop();
    store.close();
  }
}

describe('replay of whatever a runtime reported', () => {
  it('equals the live state; seqs contiguous; causes backwards; the engine never fails its own relist', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(worldArb, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        async (worlds, pick) => {
          const r = await record(worlds, pick);
          expect(r.logs.filter((l) => l.includes('relist failed'))).toEqual([]);
          expect(r.events.filter((e) => e.kind === 'cri' && e.type === 'RelistFailed')).toEqual([]);
          r.events.forEach((e, i) => {
            expect(e.seq).toBe(i + 1);
            if (e.cause !== undefined) expect(e.cause).toBeLessThan(e.seq);
          });
          expect(reduceAll(emptyState(), r.events)).toEqual(r.live);
          // A seek through the store's checkpoints agrees with the fold of the prefix.
          const k = r.seek?.seq ?? 0;
          expect(r.seek?.state).toEqual(
            reduceAll(
              emptyState(),
              r.events.filter((e) => e.seq <= k),
            ),
          );
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 120) },
    );
  }, 120_000);

  it('re-delivered events change nothing (the reducer is seq-guarded)', async () => {
    const worlds =
      fc.sample(fc.array(worldArb, { minLength: 4, maxLength: 10 }), { numRuns: 1, seed: 7 })[0] ??
      [];
    const r = await record(worlds);
    expect(r.events.length).toBeGreaterThan(5);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }), (dups) => {
        // Each duplicate i is delivered again somewhere at or after its first delivery.
        const later = new Map<number, TimelineEvent[]>();
        for (const [a, b] of dups) {
          const i = a % r.events.length;
          const at = i + (b % (r.events.length - i));
          const e = r.events[i];
          if (e) later.set(at, [...(later.get(at) ?? []), e]);
        }
        let state = emptyState();
        r.events.forEach((e, i) => {
          state = reduce(state, e);
          for (const d of later.get(i) ?? []) {
            const before = state;
            state = reduce(state, d);
            expect(state).toBe(before); // not just equal: untouched
          }
        });
        expect(state).toEqual(r.live);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
