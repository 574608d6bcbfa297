/**
 * The recording rig: simulated nodes on one manual clock (real gRPC servers on unix sockets),
 * the driver syncing pods onto each, and one engine observing them — the same parts as a scenario
 * session (server/scenarios/session.ts), but nothing runs on timers of its own: the engine's
 * watcher is not started, and virtual time moves only when the pump (pump.ts) says so.
 */
import { scaledBackoff } from '@/lib/kubelet/backoff';
import { simProbeNetwork } from '@/server/sim/runtime/network';
import { CriClient } from '@/server/cri/client';
import { fromSimClock, type DriverClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine, type EngineTimings } from '@/server/engine/engine';
import type { NodeWatcher } from '@/server/engine/relist/node-watcher';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import type { SimControl } from '@/server/scenarios/runner';
import { createClock, startSimNode, type SimClock, type SimNode } from '@/server/sim';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { CallLedger, Redialable } from './calls';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

/**
 * The engine's periods for recordings: the kubelet's and the node controller's (current upstream
 * defaults), without the stats loop — it runs on the wall clock, so its first
 * sample would land at a different virtual moment in every recording (recordings are compared
 * event for event); walkthroughs do not teach resource usage.
 */
export const RECORDING_TIMINGS: EngineTimings = { ...DEFAULT_ENGINE_TIMINGS, statsMs: 0 };

/**
 * Real-time deadlines of CRI calls. A healthy call over a local socket takes a millisecond or
 * two; a runtime that does not answer costs the whole deadline per call, in real time, so the
 * clients are re-dialled with a short one while the socket is known not to answer.
 */
export const HEALTHY_DEADLINE_MS = 5_000;
export const SILENT_DEADLINE_MS = 60;

export interface RigOptions {
  /** Seeds the simulator's ids and the driver's pod uids. */
  seed: string;
  node: string;
  backoffScale: number;
  start?: number;
  log: (line: string) => void;
  /** When each node's kubelet last reached the API server, when a scenario's API server says. */
  kubeletPostedAt?: (node: string) => number | undefined;
}

/** One simulated node of a rig, with the driver syncing pods onto it and the engine's watcher. */
export interface RigNode {
  readonly name: string;
  readonly sim: SimNode;
  readonly driver: Driver;
  readonly watcher: NodeWatcher;
  /** The simulator's fault controls, tracked, re-dialling the clients when the socket changes. */
  readonly simControl: SimControl;
}

/** Several simulated nodes on one manual clock, observed by one engine (one timeline). */
export interface ClusterRig {
  readonly clock: SimClock;
  readonly driverClock: DriverClock;
  readonly nodes: readonly RigNode[];
  readonly engine: Engine;
  readonly store: TimelineStore;
  readonly ledger: CallLedger;
  stop(): Promise<void>;
}

export interface ClusterRigOptions {
  /** Each node's name and the seed of its simulator ids and its driver's pod uids. */
  nodes: readonly { name: string; seed: string }[];
  backoffScale: number;
  start?: number;
  log: (line: string) => void;
  /**
   * When each node's kubelet last renewed its Lease in the scenario's API server: then the
   * engine judges the node's silence by that Lease, as the node controller does, instead of by
   * the stand-in's own word.
   */
  kubeletPostedAt?: (node: string) => number | undefined;
}

/** A rig of one node (a walkthrough's), with that node's parts at the top. */
export interface Rig extends ClusterRig, Omit<RigNode, 'name'> {
  readonly node: string;
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const rig = await startClusterRig({
    nodes: [{ name: options.node, seed: options.seed }],
    backoffScale: options.backoffScale,
    ...(options.start !== undefined ? { start: options.start } : {}),
    log: options.log,
    ...(options.kubeletPostedAt ? { kubeletPostedAt: options.kubeletPostedAt } : {}),
  });
  const [only] = rig.nodes;
  if (!only) throw new Error('recording rig: no node');
  return {
    ...rig,
    node: only.name,
    sim: only.sim,
    driver: only.driver,
    watcher: only.watcher,
    simControl: only.simControl,
  };
}

export async function startClusterRig(options: ClusterRigOptions): Promise<ClusterRig> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (err) {
        options.log(
          `recording rig: cleanup failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  };
  try {
    const clock = createClock({
      mode: 'manual',
      ...(options.start ? { start: options.start } : {}),
    });
    const driverClock = fromSimClock(clock);
    const ledger = new CallLedger();
    const store = openStore({ path: ':memory:' });
    cleanups.push(() => store.close());
    const parts: (Omit<RigNode, 'watcher'> & { engineCalls: Redialable<RuntimeClient> })[] = [];
    for (const { name, seed } of options.nodes) {
      const sim = await startSimNode({
        name,
        clock,
        seed,
        // Polling only: the event stream would wake the engine on real-time arrival.
        eventsMode: 'unimplemented',
      });
      cleanups.push(() => sim.stop());
      const deadline = () => (sim.listener === 'grpc' ? HEALTHY_DEADLINE_MS : SILENT_DEADLINE_MS);
      const driverCalls = new Redialable<CriClient>(
        () => new CriClient(sim.endpoint, { timeoutMs: deadline() }),
        (c) => c.close(),
        ledger,
      );
      cleanups.push(() => driverCalls.close());
      const engineCalls = new Redialable<RuntimeClient>(
        () => criRuntime(sim.endpoint, { timeoutMs: deadline() }),
        (c) => c.close(),
        ledger,
      );
      cleanups.push(() => engineCalls.close());
      const driver = new Driver({
        client: driverCalls.client,
        node: name,
        clock: driverClock,
        backoffScale: options.backoffScale,
        network: simProbeNetwork(sim.runtime),
        uidSeed: seed,
        log: options.log,
      });
      cleanups.push(() => driver.stop());
      await ledger.track('ensureAllowed', driver.ensureAllowed());
      const simControl: SimControl = {
        setCondition: (type, condition) => sim.setCondition(type, condition),
        setPressure: (pressure) => sim.setPressure(pressure),
        setListener: (mode) =>
          ledger.track(
            'setListener',
            sim.setListener(mode).then(() => {
              // A fresh channel reaches the new listener at once, with the deadline that suits it.
              driverCalls.redial();
              engineCalls.redial();
            }),
          ),
      };
      parts.push({ name, sim, driver, simControl, engineCalls });
    }

    const byEndpoint = new Map(parts.map((p) => [p.sim.endpoint, p.engineCalls]));
    const engine = new Engine({
      store: engineStore(store),
      timings: RECORDING_TIMINGS,
      clock,
      providers: parts.map((p) => {
        const posted = options.kubeletPostedAt;
        return posted ? { ...p.driver.hints, kubeletPostedAt: posted } : p.driver.hints;
      }),
      backoff: () => scaledBackoff(options.backoffScale),
      dial: (endpoint) => {
        const calls = byEndpoint.get(endpoint);
        if (!calls) throw new Error(`recording rig: no node at ${endpoint}`);
        return calls.client;
      },
      log: options.log,
    });
    cleanups.push(() => engine.stop());
    const nodes: RigNode[] = [];
    for (const { engineCalls: _calls, ...part } of parts) {
      const watcher = engine.addNode(part.name, part.sim.endpoint, false, false);
      await watcher.once();
      nodes.push({ ...part, watcher });
    }
    return { clock, driverClock, nodes, engine, store, ledger, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
