/**
 * Messages between the engine's façade (main thread, pool.ts) and a relist worker
 * (relist-worker.ts). Everything here crosses a worker_threads port by structured clone (Dates
 * survive it), so it is plain data: no functions, no class instances.
 */
import type { FeatureGates } from '@/lib/kubelet';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { NodeView } from '@/lib/timeline/state';
import type { LogLevel } from '@/server/log';
import type { EngineTimings } from '../timings';

/** What a worker needs to run its node engines (workerData). */
export interface WorkerConfig {
  timings: EngineTimings;
  gates?: FeatureGates;
  /** Deadline of each CRI call. */
  criTimeoutMs?: number;
  /** How long a worker gathers its nodes' batches before handing them over as one. */
  flushMs: number;
  /** How often the worker reports every node's status and its metrics (and ticks its engines). */
  reportMs: number;
}

export interface WorkerNodeSpec {
  name: string;
  endpoint: string;
  lab: boolean;
  /** The node as recorded, when continuing a timeline. */
  initial?: NodeView;
  /** When the observer started (node conditions allow a grace period from it). */
  startedAt: number;
  /** Configured node IPs for this node (PODSCOPE_NODE_IP). */
  nodeIPs: readonly string[];
  /** The server machine's IPs, the host IPs of last resort. */
  detectedIPs: readonly string[];
  /** This node's crashLoopBackOff.maxContainerRestartPeriod (ms). */
  maxContainerRestartPeriodMs?: number;
  /** The operator's kubelet version for this node (PODSCOPE_KUBELET_VERSION). */
  kubeletVersion?: string;
}

export type ToWorker =
  | { op: 'add'; node: WorkerNodeSpec }
  | { op: 'remove'; name: string }
  /** Events about these nodes recorded by someone else (drift); the worker folds them. */
  | { op: 'observe'; events: TimelineEvent[] }
  /** The recorder rebuilt this node's view (it shrank oversized events). */
  | { op: 'adopt'; name: string; view: NodeView | undefined }
  | { op: 'stop' };

/** What the façade shows of a node (nodes(), health()): the watcher's public fields. */
export interface NodeStatus {
  name: string;
  connected: boolean;
  mode: 'events' | 'polling';
  lastRelistAt?: number;
  lastError?: string;
  skipped: number;
  relists: number;
}

/** One call on an engine instrument, replayed on the real one in the main thread. */
export type MetricCall = [
  metric:
    | 'relistDuration'
    | 'relistErrors'
    | 'skippedTicks'
    | 'inspectErrors'
    | 'eventStreamFallbacks'
    | 'clockOffset'
    | 'workerHeap',
  op: 'inc' | 'observe' | 'set',
  labels: Record<string, string>,
  value?: number,
];

export type FromWorker =
  | { type: 'ready' }
  | {
      type: 'report';
      /**
       * Events in the order the worker's engines emitted them, numbered by the worker's own
       * counter (causes name earlier events of the same report); the façade renumbers them.
       */
      events: TimelineEvent[];
      statuses: NodeStatus[];
      metrics: MetricCall[];
      logs: [line: string, level?: LogLevel][];
    }
  | { type: 'stopped' };
