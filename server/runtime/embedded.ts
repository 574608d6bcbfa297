/**
 * The embedded mode's workload: one kubelet stand-in (server/driver) per simulated node, and the
 * built-in mixed demo workload on top, so `npm start` shows a living cluster.
 */
import type { CriClient } from '@/server/cri/client';
import { Driver } from '@/server/driver/driver';
import { fromSimClock } from '@/server/driver/clock';
import { startDemoWorkload } from '@/server/driver/demo';
import type { ProbeNetwork } from '@/server/driver/probes/network';
import type { HintProvider } from '@/server/engine/hints';
import type { SimClock } from '@/server/sim';

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
  demo?: boolean;
  log: (line: string) => void;
}): Promise<EmbeddedWorkload> {
  const clock = fromSimClock(options.clock);
  const drivers = options.nodes.map(
    (n) =>
      new Driver({
        client: n.client,
        node: n.name,
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
