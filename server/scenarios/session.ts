/**
 * Everything a headless scenario run needs, wired together: a CRI runtime (an embedded simulated
 * node, or a lab endpoint such as a private containerd), the driver on it, and the engine
 * observing it with the driver as its hint provider — the same derivation the console shows.
 *
 * Time: on the simulator everything runs on its virtual clock at `speed` (default 10: a minute
 * of kubelet time in six seconds); the engine's relist and status periods are divided by the
 * speed so it still relists once per virtual second, while grace periods and tolerations stay in
 * virtual time. On a lab runtime time is wall time.
 */
import { scaledBackoff } from '@/lib/kubelet/backoff';
import type { ClusterState } from '@/lib/timeline/state';
import { CriClient } from '@/server/cri/client';
import { fromSimClock, systemClock, type DriverClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { simProbeNetwork } from '@/server/sim/runtime/network';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { spedUpTimings } from '@/server/engine/timings';
import { engineStore } from '@/server/engine/store-adapter';
import { startSimNode, type SimNode } from '@/server/sim';
import { openStore } from '@/server/timeline-db';
import type { SimControl } from './runner';
import { ScenarioApiServer } from './apiserver';

export const DEFAULT_SPEED = 10;
/** Real-time floor of the engine's relist period on a fast clock (keeps a relist's own cost small). */
const MIN_RELIST_REAL_MS = 50;

export interface SessionOptions {
  /** A lab CRI endpoint (e.g. a private containerd); default: an embedded simulated node. */
  cri?: string;
  /** Simulator clock speed (virtual ms per real ms). Ignored with `cri`. */
  speed?: number;
  /** The driver's back-off scale (and the engine's, so both agree). Default 1. */
  backoffScale?: number;
  /** Node name; default `scenario-node` (simulator) or `lab`. */
  node?: string;
  /** Root of the pods' log directories on a lab runtime (see DriverOptions.logRoot). */
  logRoot?: string;
  /** Deadline of each CRI call, real ms (default 3 s: a hung runtime shows quickly). */
  criTimeoutMs?: number;
  /** Run an API server beside the node (apiserver.ts), for scenarios with `apiServer: true`. */
  apiServer?: boolean;
  log?: (line: string) => void;
}

export interface ScenarioSession {
  readonly node: string;
  readonly endpoint: string;
  readonly driver: Driver;
  readonly clock: DriverClock;
  readonly engine: Engine;
  /** Present on the simulator only. */
  readonly sim?: SimNode;
  readonly simControl?: SimControl;
  /** Present with `apiServer`: its writers run on the session's clock. */
  readonly api?: ScenarioApiServer;
  observe(): ClusterState;
  stop(): Promise<void>;
}

export async function startSession(options: SessionOptions = {}): Promise<ScenarioSession> {
  const log = options.log ?? (() => undefined);
  const scale = options.backoffScale ?? 1;
  const timeoutMs = options.criTimeoutMs ?? 3_000;
  const speed = options.cri ? 1 : (options.speed ?? DEFAULT_SPEED);
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new RangeError(`speed must be a positive number, got ${speed}`);
  const node = options.node ?? (options.cri ? 'lab' : 'scenario-node');
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (err) {
        log(
          `scenario session: cleanup failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  };
  try {
    let sim: SimNode | undefined;
    let endpoint: string;
    let clock: DriverClock;
    let now: () => number;
    if (options.cri) {
      endpoint = options.cri;
      clock = systemClock;
      now = () => Date.now();
    } else {
      sim = await startSimNode({
        name: node,
        clock: { mode: 'real', speed },
        seed: `scenario/${node}`,
      });
      const s = sim;
      cleanups.push(() => s.stop());
      endpoint = sim.endpoint;
      clock = fromSimClock(sim.clock);
      now = () => s.clock.now();
    }
    const client = new CriClient(endpoint, { timeoutMs });
    cleanups.push(() => client.close());
    const driver = new Driver({
      client,
      node,
      clock,
      backoffScale: scale,
      lab: options.cri !== undefined,
      ...(sim ? { network: simProbeNetwork(sim.runtime) } : {}),
      ...(options.logRoot ? { logRoot: options.logRoot } : {}),
      log,
    });
    cleanups.push(() => driver.stop());
    await driver.ensureAllowed();

    const store = openStore({ path: ':memory:' });
    cleanups.push(() => store.close());
    // With an API server, the engine judges the kubelet's silence by its Lease there.
    let api: ScenarioApiServer | undefined;
    const engine = new Engine({
      store: engineStore(store),
      timings: spedUpTimings(speed, MIN_RELIST_REAL_MS),
      clock: { now },
      providers: [
        options.apiServer
          ? { ...driver.hints, kubeletPostedAt: (n: string) => api?.postedAt(n) }
          : driver.hints,
      ],
      backoff: () => scaledBackoff(scale),
      dial: (ep) => criRuntime(ep, { timeoutMs }),
      log,
    });
    cleanups.push(() => engine.stop());
    engine.addNode(node, endpoint, options.cri !== undefined);
    engine.start();
    if (options.apiServer) {
      const server = new ScenarioApiServer({
        driver,
        clock,
        observe: () => engine.snapshot(),
        record: (events) => engine.record(events),
        log,
      });
      server.start();
      cleanups.push(() => server.stop());
      api = server;
    }

    const simNode = sim;
    return {
      node,
      endpoint,
      driver,
      clock,
      engine,
      ...(simNode ? { sim: simNode, simControl: simNode } : {}),
      ...(api ? { api } : {}),
      observe: () => engine.snapshot(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
