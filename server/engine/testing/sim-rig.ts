/**
 * The engine over real sockets for integration tests: a simulated node on a manual clock, the
 * driver putting pods on it, an in-memory store and the engine relisting the node. Tests move
 * the virtual clock with `run()` (advance, let the driver act, relist, tick) — nothing sleeps on
 * wall time except for socket round trips. Every rig is closed after each test.
 *
 *   const rig = simEngineRigs();                // at the top of the file (registers afterEach)
 *   const r = await rig({ engine: { detectedIPs: [] } });
 */
import { afterEach } from 'vitest';
import type { PodView } from '@/lib/timeline/state';
import { CriClient } from '@/server/cri/client';
import { fromSimClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import type { DriverOptions } from '@/server/driver/driver-options';
import { createClock, startSimNode, type SimClock, type SimNode } from '@/server/sim';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { criRuntime } from '../relist/cri-runtime';
import { Engine } from '../engine';
import type { EngineOptions } from '../engine-options';
import type { HintProvider } from '../hints';
import type { NodeWatcher } from '../relist/node-watcher';
import { engineStore } from '../store-adapter';
import { DEFAULT_ENGINE_TIMINGS } from '../timings';

export const RIG_NODE = 'node-a';

export interface SimEngineRig {
  clock: SimClock;
  sim: SimNode;
  driver: Driver;
  client: CriClient;
  store: TimelineStore;
  engine: Engine;
  watcher: NodeWatcher;
  /** Moves virtual time in steps, letting the driver act and the engine relist after each. */
  run(ms: number, step?: number): Promise<void>;
  /** The pod as the engine holds it now. */
  pod(uid: string): PodView | undefined;
  /** Closes this too after the test (before the rig). */
  defer(fn: () => Promise<void> | void): void;
}

export interface SimEngineRigOptions {
  /** Over the engine's options (default: the kubelet's periods, the driver's hints). */
  engine?: Partial<EngineOptions>;
  driver?: Partial<DriverOptions>;
  /** Where the engine learns pod specs and hints (default: the driver's hints). */
  providers?: (driver: Driver) => HintProvider[];
}

/** Registers the clean-up and returns the rig factory. */
export function simEngineRigs(): (options?: SimEngineRigOptions) => Promise<SimEngineRig> {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });
  return async (options = {}) => {
    const clock = createClock({ mode: 'manual' });
    const sim = await startSimNode({ name: RIG_NODE, clock, eventsMode: 'unimplemented' });
    const client = new CriClient(sim.endpoint);
    const driver = new Driver({
      client,
      node: RIG_NODE,
      clock: fromSimClock(clock),
      uidSeed: 'test',
      ...options.driver,
    });
    const store = openStore({ path: ':memory:' });
    const engine = new Engine({
      store: engineStore(store),
      timings: DEFAULT_ENGINE_TIMINGS,
      clock,
      providers: options.providers?.(driver) ?? [driver.hints],
      dial: (e) => criRuntime(e, { timeoutMs: 2000 }),
      log: () => undefined,
      ...options.engine,
    });
    const watcher = engine.addNode(RIG_NODE, sim.endpoint, true, false);
    await watcher.once();
    cleanups.push(async () => {
      await engine.stop();
      await driver.stop();
      client.close();
      store.close();
      await sim.stop();
    });
    const run = async (ms: number, step = 500) => {
      for (let done = 0; done < ms; done += step) {
        clock.advance(step);
        await driver.settle();
        await watcher.relist();
        engine.tick();
      }
    };
    const pod = (uid: string) => engine.snapshot().nodes[RIG_NODE]?.pods[uid];
    const defer = (fn: () => Promise<void> | void) => void cleanups.push(fn);
    return { clock, sim, driver, client, store, engine, watcher, run, pod, defer };
  };
}
