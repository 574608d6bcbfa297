/**
 * The Driver's options, the pods it reports (`driver.pods()`) and its error type.
 */
import type { SyncError } from '@/lib/kubelet/runtime';
import type { DriverClock } from './clock';
import type { ConfigData } from './spec/env';
import type { ProbeNetwork } from './probes/network';
import type { DriverRuntime } from './runtime';
import type { WorkerPhase } from './pod-worker/worker-context';

/** Podscope's own: stopped containers of a deleted pod stay this long before removal (see pod-worker.ts). */
export const REMOVAL_DELAY_MS = 2_000;

export interface DriverOptions {
  client: DriverRuntime;
  /** The node name (spec.nodeName of applied pods; also the default seed of generated uids). */
  node: string;
  clock?: DriverClock;
  /** Multiplies every back-off period; 1 = the kubelet's own. */
  backoffScale?: number;
  /**
   * The node's crashLoopBackOff.maxContainerRestartPeriod (KubeletCrashLoopBackOffMax): the container
   * back-off's maximum, 1 s–300 s (default 300 s), before `backoffScale`.
   */
  maxContainerRestartPeriodMs?: number;
  /** The endpoint is a disposable lab runtime the driver may change even though it is not the simulator. */
  lab?: boolean;
  /** Run pods that do not say otherwise in the node's network namespace (default true: no CNI needed). */
  hostNetwork?: boolean;
  /** ConfigMaps / Secrets that "exist", by "namespace/name". */
  configMaps?: Readonly<Record<string, ConfigData>>;
  secrets?: Readonly<Record<string, ConfigData>>;
  relistMs?: number;
  periodicSyncMs?: number;
  /** Stopped containers of a deleted pod stay this long (clock ms) before removal; default 2 s. */
  removalDelayMs?: number;
  /**
   * Where container logs go: each sandbox gets `<logRoot>/<namespace>_<name>_<uid>` as its
   * log_directory (the kubelet's /var/log/pods layout). Default none: the runtime keeps no logs.
   */
  logRoot?: string;
  /** Seed for generated pod uids (default: the node name), for deterministic runs. */
  uidSeed?: string;
  /**
   * How httpGet / tcpSocket probes and httpGet hooks reach pods. Default: real sockets from this
   * process (a lab containerd on this machine). The simulator's model: server/sim/runtime/network.ts.
   */
  network?: ProbeNetwork;
  /** The node's IP, which host-network pods use as theirs (default 127.0.0.1). */
  nodeIP?: string;
  log?: (line: string) => void;
}

export interface DriverPod {
  uid: string;
  namespace: string;
  name: string;
  node: string;
  phase: WorkerPhase;
  syncErrors: Record<string, SyncError>;
  deletionTimestamp?: number;
  lastError?: string;
  /** Spec fields the stand-in does not implement (empty when it implements all it was given). */
  unsupported: string[];
}

export class DriverError extends Error {
  override name = 'DriverError';
}
