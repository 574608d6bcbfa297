/**
 * The fault suite's rig: one simulated node (a real gRPC server on a unix socket) with Podscope's
 * driver on it as the node's kubelet, and an engine relisting it into a store. Time is manual:
 * the test moves the runtime's clock and the engine's clock together (apart by `skewMs` when the
 * runtime's clock is wrong) and drives relist()/tick() itself, so nothing waits on wall time
 * except socket round trips and the faults that are wall-clock by nature (latency, deadlines,
 * gRPC's reconnect back-off).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { TimelineEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { CriClient } from '@/server/cri/client';
import { fromSimClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine, type EngineTimings } from '@/server/engine/engine';
import type { NodeWatcher } from '@/server/engine/relist/node-watcher';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import {
  createClock,
  DEFAULT_MANUAL_START,
  startSimNode,
  type SimClock,
  type SimNode,
  type SimNodeOptions,
} from '@/server/sim';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

export const NODE = 'node-a';

export const TIMINGS: EngineTimings = DEFAULT_ENGINE_TIMINGS;

export interface RigOptions {
  /**
   * Real time instead of manual clocks: the runtime, its driver and the engine's loops all run
   * on wall-clock timers (event-stream tests, where the stream itself is real-time). run(ms) then
   * waits ms.
   */
  realTime?: boolean;
  timings?: Partial<EngineTimings>;
  /** Runtime clock minus engine clock, ms (a node whose clock is wrong). */
  skewMs?: number;
  /** Deadline of each CRI call the engine makes. */
  timeoutMs?: number;
  sim?: Partial<Omit<SimNodeOptions, 'name' | 'clock'>>;
  /** The store (default: a fresh in-memory one, closed with the rig). */
  store?: TimelineStore;
  /** Wraps the engine's runtime client (to count or record calls). */
  wrap?: (client: RuntimeClient) => RuntimeClient;
  /**
   * Give the engine the driver's hints (its reason cache: CrashLoopBackOff, ErrImagePull …), as
   * in embedded mode. false: the engine only observes the runtime and infers, as it does against
   * a real kubelet's node. Default true.
   */
  hints?: boolean;
  /** Driver back-off scale (default 1: the kubelet's 10 s doubling to 300 s). */
  backoffScale?: number;
}

export interface Rig {
  /** The runtime's (and its kubelet's) clock. */
  simClock: SimClock;
  /** The engine's clock. */
  clock: SimClock;
  sim: SimNode;
  driver: Driver;
  store: TimelineStore;
  engine: Engine;
  watcher: NodeWatcher;
  /** Everything the engine logged. */
  logs: string[];
  /** Everything the driver (the node's kubelet stand-in) logged. */
  driverLogs: string[];
  /** Moves both clocks in steps; after each, the driver acts and the engine relists and ticks. */
  run(ms: number, step?: number): Promise<void>;
  /** Moves both clocks without relisting. */
  advance(ms: number): void;
  /** Every event in the store, in seq order. */
  events(): TimelineEvent[];
  close(): Promise<void>;
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const skew = options.skewMs ?? 0;
  const real = options.realTime === true;
  if (real && skew !== 0) throw new Error('rig: skewMs needs manual clocks');
  const clock = real
    ? createClock({ mode: 'real', speed: 1 })
    : createClock({ mode: 'manual', start: DEFAULT_MANUAL_START });
  const simClock =
    skew === 0 ? clock : createClock({ mode: 'manual', start: DEFAULT_MANUAL_START + skew });
  const sim = await startSimNode({
    eventsMode: 'unimplemented',
    ...options.sim,
    name: NODE,
    clock: simClock,
  });
  // The driver's calls end at a short deadline too, so a hung runtime never holds up stop().
  const client = new CriClient(sim.endpoint, { timeoutMs: 2000 });
  const driverLogs: string[] = [];
  const driver = new Driver({
    log: (line) => driverLogs.push(line),
    client,
    node: NODE,
    clock: fromSimClock(simClock),
    uidSeed: 'faults',
    ...(options.backoffScale !== undefined ? { backoffScale: options.backoffScale } : {}),
  });
  const ownStore = options.store === undefined;
  const store = options.store ?? openStore({ path: ':memory:' });
  const logs: string[] = [];
  const wrap = options.wrap ?? ((c: RuntimeClient) => c);
  const engine = new Engine({
    store: engineStore(store),
    timings: { ...TIMINGS, ...options.timings },
    clock,
    // The driver's reason cache, not its node posting: these faults are Podscope watching a
    // runtime it alone judges (read-only), so node contact comes from the runtime's answers.
    providers: options.hints === false ? [] : [{ ...driver.hints, kubeletPostedAt: undefined }],
    dial: (e) => wrap(criRuntime(e, { timeoutMs: options.timeoutMs ?? 2000 })),
    log: (line) => logs.push(line),
  });
  const watcher = engine.addNode(NODE, sim.endpoint, false, false);
  await watcher.once();

  const advance = (ms: number) => {
    clock.advance(ms);
    if (simClock !== clock) simClock.advance(ms);
  };
  const run = async (ms: number, step = 500) => {
    if (real) return new Promise<void>((resolve) => setTimeout(resolve, ms));
    for (let done = 0; done < ms; done += step) {
      advance(step);
      await driver.settle();
      await watcher.relist();
      engine.tick();
    }
  };
  let closed = false;
  return {
    simClock,
    clock,
    sim,
    driver,
    store,
    engine,
    watcher,
    logs,
    driverLogs,
    run,
    advance,
    events: () => store.range({ limit: 1_000_000 }),
    async close() {
      if (closed) return;
      closed = true;
      await engine.stop();
      await driver.stop();
      client.close();
      if (ownStore) store.close();
      await sim.stop();
      if (simClock !== clock) simClock.close();
      clock.close();
    },
  };
}

export const pod = (
  name: string,
  command: string[],
  restartPolicy: 'Always' | 'Never' | 'OnFailure' = 'Always',
): V1Pod => ({
  metadata: { name, namespace: 'faults' },
  spec: {
    restartPolicy,
    containers: [{ name: 'app', image: 'podscope.local/busybox:1', command }],
  },
});

/** CRI transitions that happen once per container or sandbox id (a second one is a duplicate). */
const ONCE_PER_ID = new Set([
  'ContainerCreated',
  'ContainerStarted',
  'ContainerExited',
  'ContainerRemoved',
  'SandboxReady',
  'SandboxNotReady',
  'SandboxRemoved',
]);

export interface Soundness {
  /** Seqs that are not exactly one more than the previous event's. */
  gaps: number[];
  /** `type id` of CRI transitions recorded more than once. */
  duplicates: string[];
  /** Whether folding the stored events from scratch gives the engine's snapshot. */
  replayMatches: boolean;
  /** Derived events whose cause is missing or not before them. */
  badCauses: number[];
}

/**
 * What must hold of any recorded timeline, whatever the runtime did: seqs contiguous (the
 * store's first retained seq onwards), no CRI transition recorded twice, replay == live, causes
 * point backwards.
 */
export function soundness(events: readonly TimelineEvent[], live: unknown): Soundness {
  const gaps: number[] = [];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const badCauses: number[] = [];
  const seqs = new Set<number>();
  events.forEach((e, i) => {
    const prev = events[i - 1];
    if (prev && e.seq !== prev.seq + 1) gaps.push(e.seq);
    seqs.add(e.seq);
    if (e.kind === 'cri' && ONCE_PER_ID.has(e.type) && e.id !== undefined) {
      const key = `${e.type} ${e.id}`;
      if (seen.has(key)) duplicates.push(key);
      seen.add(key);
    }
    if (e.cause !== undefined && (e.cause >= e.seq || !seqs.has(e.cause))) badCauses.push(e.seq);
  });
  const replayed = reduceAll(emptyState(), events);
  return {
    gaps,
    duplicates,
    replayMatches: JSON.stringify(replayed) === JSON.stringify(live),
    badCauses,
  };
}

/** The node's Ready condition as the engine derived it. */
export function readyOf(engine: Engine): string | undefined {
  return engine.nodeView(NODE)?.conditions.find((c) => c.type === 'Ready')?.status;
}

/** Waits (wall clock) until `check` holds, running the rig meanwhile; throws after `ms`. */
export async function until(
  rig: Rig,
  check: () => boolean,
  what: string,
  ms = 15_000,
  step = 500,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await rig.run(step, step);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
