/**
 * The embedded mode's workload: one kubelet stand-in (server/driver) per simulated node, and the
 * built-in mixed demo workload on top, so `npm start` shows a living cluster.
 */
import { CriClient } from '@/server/cri/client';
import { Driver } from '@/server/driver/driver';
import { fromSimClock } from '@/server/driver/clock';
import { DEMO_BACKOFF_SCALE, startDemoWorkload } from '@/server/demo/workload';
import type { ProbeNetwork } from '@/server/driver/probes/network';
import type { HintProvider } from '@/server/engine/hints';
import type { SimClock, SimCluster } from '@/server/sim';
import { simProbeNetwork } from '@/server/sim/runtime/network';

export interface EmbeddedWorkload {
  drivers: Driver[];
  hints: HintProvider[];
  stop(): Promise<void>;
}

export async function startEmbeddedWorkload(options: {
  nodes: {
    name: string;
    client: CriClient;
    network?: ProbeNetwork;
    /** The node's crashLoopBackOff.maxContainerRestartPeriod (ms). */
    maxContainerRestartPeriodMs?: number;
  }[];
  clock: SimClock;
  backoffScale: number;
  seed: number;
  /**
   * The timeline's last seq when this run began (0: a new timeline). The simulated nodes are new
   * on every start, but a kept timeline still holds the pods of earlier runs; a uid names one pod
   * forever, so a run on a kept timeline draws its uids from a seed of its own.
   */
  runAfterSeq?: number;
  demo?: boolean;
  log: (line: string) => void;
}): Promise<EmbeddedWorkload> {
  const clock = fromSimClock(options.clock);
  const drivers = options.nodes.map(
    (n) =>
      new Driver({
        client: n.client,
        node: n.name,
        ...(options.runAfterSeq ? { uidSeed: `${n.name}@${options.runAfterSeq}` } : {}),
        clock,
        backoffScale: options.backoffScale,
        ...(n.maxContainerRestartPeriodMs !== undefined
          ? { maxContainerRestartPeriodMs: n.maxContainerRestartPeriodMs }
          : {}),
        ...(n.network ? { network: n.network } : {}),
        log: options.log,
      }),
  );
  const demo =
    options.demo === false
      ? undefined
      : await startDemoWorkload({ drivers, clock, seed: options.seed });
  return {
    drivers,
    hints: drivers.map((d) => d.hints),
    async stop() {
      await demo?.stop();
      await Promise.all(drivers.map((d) => d.stop()));
      for (const n of options.nodes) n.client.close();
    },
  };
}

/**
 * The demo workload of `npm start` on a simulated cluster's nodes: a CRI client and the simulated
 * probe network per node, the demo's back-off scale. The embedded runtime and `podscope sim
 * --demo` both start it this way.
 */
export function startSimWorkload(
  sim: SimCluster,
  options: {
    seed: number;
    /** See startEmbeddedWorkload. */
    runAfterSeq?: number;
    log: (line: string) => void;
    /** Each node's crashLoopBackOff.maxContainerRestartPeriod (ms; default the kubelet's). */
    maxContainerRestartPeriodMs?: (node: string) => number | undefined;
  },
): Promise<EmbeddedWorkload> {
  return startEmbeddedWorkload({
    nodes: sim.nodes.map((n) => {
      const max = options.maxContainerRestartPeriodMs?.(n.name);
      return {
        name: n.name,
        client: new CriClient(n.endpoint),
        network: simProbeNetwork(n.runtime),
        ...(max !== undefined ? { maxContainerRestartPeriodMs: max } : {}),
      };
    }),
    clock: sim.clock,
    backoffScale: DEMO_BACKOFF_SCALE,
    seed: options.seed,
    ...(options.runAfterSeq !== undefined ? { runAfterSeq: options.runAfterSeq } : {}),
    log: options.log,
  });
}
