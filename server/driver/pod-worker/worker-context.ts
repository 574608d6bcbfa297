/**
 * What the driver hands each pod worker (pod-worker.ts): the runtime, the clock, the kubelet's
 * shared back-offs and image manager, its timings, and the callbacks through which a worker tells
 * the driver that the pod's hints changed, that it is gone, or that something happened to it.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { BackoffState } from '@/lib/kubelet/backoff';
import type { DriverClock } from '../clock';
import type { ConfigStore } from '../spec/env';
import type { ImageManager } from './images';
import type { KillContext } from './kill';
import type { DriverEvent } from '../notes';
import type { ProbeNetwork } from '../probes/network';
import type { DriverRuntime } from '../runtime';

export interface WorkerTimings {
  /** The pod worker's retry after a failed sync (kubelet backOffPeriod, 10 s; scaled). */
  syncErrorRetryMs: number;
  /** A full resync even when nothing changed (kubelet syncFrequency, 1 min). */
  periodicSyncMs: number;
  /**
   * How long a deleted pod's stopped containers and sandbox stay before removal. The kubelet
   * leaves them to its garbage collector (a minute or more); a short pause keeps the final
   * states (exit codes, SIGKILL's 137) visible to an observer's relist.
   */
  removalDelayMs: number;
}

/** What every worker of one driver shares: the runtime, the clock, the kubelet's back-offs. */
export interface WorkerContext {
  runtime: DriverRuntime;
  clock: DriverClock;
  images: ImageManager;
  configs: ConfigStore;
  /** The container restart back-off (one per kubelet). */
  backoff: { get(): BackoffState; set(next: BackoffState): void };
  timings: WorkerTimings;
  /** Root of the per-pod log directories (see DriverOptions.logRoot). */
  logRoot?: string;
  log: (line: string) => void;
  /** The pod's hints (reason cache, deletion, terminal) changed. */
  hintsChanged: (uid: string) => void;
  /** The pod is gone from the runtime after a deletion. */
  removed: (uid: string) => void;
  /** Where httpGet / tcpSocket probes and httpGet hooks connect. */
  network: ProbeNetwork;
  /** The node's IP: the pod IP of host-network pods (the CRI reports none for them). */
  nodeIP: string;
  /** Kubelet-event-like happenings of this pod (kills, hooks, probes). */
  note?: (event: DriverEvent) => void;
  /** runtimeState.networkErrors(): undefined while the runtime's network is ready (runtime-state.ts). */
  networkError?: () => string | undefined;
}

export type WorkerPhase = 'syncing' | 'terminal' | 'terminating' | 'removed';

/** The kill.ts context of a worker's runtime, clock, log and notes. */
export function killContextOf(ctx: WorkerContext): KillContext {
  return {
    runtime: ctx.runtime,
    clock: ctx.clock,
    log: ctx.log,
    ...(ctx.note ? { note: ctx.note } : {}),
  };
}

/** The pod's container (regular or init) of this name. */
export function containerSpecOf(pod: V1Pod, name: string): V1Container | undefined {
  return (
    pod.spec?.containers.find((c) => c.name === name) ??
    pod.spec?.initContainers?.find((c) => c.name === name)
  );
}
