/**
 * The recording rig: one simulated node on a manual clock (a real gRPC server on a unix socket),
 * the driver syncing pods onto it, and the engine observing it — the same parts as a scenario
 * session (server/scenarios/session.ts), but nothing runs on timers of its own: the engine's
 * watcher is not started, and virtual time moves only when the pump (pump.ts) says so.
 */
import { scaledBackoff } from '@/lib/kubelet/backoff';
import { simProbeNetwork } from '@/server/sim/network';
import { CriClient } from '@/server/cri/client';
import { fromSimClock, type DriverClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { criRuntime } from '@/server/engine/cri-runtime';
import { Engine, type EngineTimings } from '@/server/engine/engine';
import type { NodeWatcher } from '@/server/engine/node-watcher';
import type { RuntimeClient } from '@/server/engine/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import type { SimControl } from '@/server/scenarios/runner';
import { createClock, startSimNode, type SimClock, type SimNode } from '@/server/sim';
import { openStore, type TimelineStore } from '@/server/store';
import { CallLedger, Redialable } from './calls';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

/** The kubelet's and the node controller's periods (current upstream defaults). */
export const RECORDING_TIMINGS: EngineTimings = DEFAULT_ENGINE_TIMINGS;

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
}

export interface Rig {
  readonly node: string;
  readonly clock: SimClock;
  readonly driverClock: DriverClock;
  readonly sim: SimNode;
  readonly driver: Driver;
  readonly engine: Engine;
  readonly watcher: NodeWatcher;
  readonly store: TimelineStore;
  readonly ledger: CallLedger;
  /** The simulator's fault controls, tracked, re-dialling the clients when the socket changes. */
  readonly simControl: SimControl;
  stop(): Promise<void>;
}

export async function startRig(options: RigOptions): Promise<Rig> {
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
    const sim = await startSimNode({
      name: options.node,
      clock,
      seed: options.seed,
      // Polling only: the event stream would wake the engine on real-time arrival.
      eventsMode: 'unimplemented',
    });
    cleanups.push(() => sim.stop());
    const ledger = new CallLedger();
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

    const driverClock = fromSimClock(clock);
    const driver = new Driver({
      client: driverCalls.client,
      node: options.node,
      clock: driverClock,
      backoffScale: options.backoffScale,
      network: simProbeNetwork(sim.runtime),
      uidSeed: options.seed,
      log: options.log,
    });
    cleanups.push(() => driver.stop());
    await ledger.track('ensureAllowed', driver.ensureAllowed());

    const store = openStore({ path: ':memory:' });
    cleanups.push(() => store.close());
    const engine = new Engine({
      store: engineStore(store),
      timings: RECORDING_TIMINGS,
      clock,
      providers: [driver.hints],
      backoff: () => scaledBackoff(options.backoffScale),
      dial: () => engineCalls.client,
      log: options.log,
    });
    cleanups.push(() => engine.stop());
    const watcher = engine.addNode(options.node, sim.endpoint, false, false);
    await watcher.once();

    const simControl: SimControl = {
      setCondition: (type, condition) => sim.setCondition(type, condition),
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

    return {
      node: options.node,
      clock,
      driverClock,
      sim,
      driver,
      engine,
      watcher,
      store,
      ledger,
      simControl,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
