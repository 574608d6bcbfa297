/**
 * What an Engine is built from (EngineOptions), and the two decisions about a node the options
 * alone settle: its crashLoopBackOff.maxContainerRestartPeriod, and whether a newly watched node
 * goes to a relist worker thread (workers/pool.ts) and how many workers there are.
 */
import { availableParallelism } from 'node:os';
import {
  crashLoopBackOffPeriods,
  KUBELET_DEFAULTS,
  configuredKubeletVersion,
  type BackoffState,
  type FeatureGates,
  type KubeletVersionSettings,
} from '@/lib/kubelet';
import type { ClusterState } from '@/lib/timeline/state';
import type { LogFn } from '@/server/log';
import type { HintProvider } from './hints';
import type { Clock } from './relist/node-watcher';
import type { EngineStore } from './recorder';
import type { RuntimeClient } from './relist/runtime-client';
import type { EngineTimings } from './timings';

export interface EngineOptions {
  store: EngineStore;
  timings: EngineTimings;
  clock?: Clock;
  providers?: HintProvider[];
  /** Gates set explicitly for every node, over the defaults of each node's kubelet version. */
  gates?: FeatureGates;
  /**
   * The operator's kubelet version, for every node and per node (`--kubelet-version`,
   * PODSCOPE_KUBELET_VERSION); the API server's report of a node wins over it.
   */
  kubeletVersions?: KubeletVersionSettings;
  /** Builds a runtime client for an endpoint (server/cri in production, fakes in tests). */
  dial: (endpoint: string) => RuntimeClient;
  /** Extra endpoints browsers may connect to. */
  allowEndpoints?: readonly string[];
  /** The kubelet's container back-off for each node, given its maximum (default containerBackoff). */
  backoff?: (maxContainerRestartPeriodMs: number) => BackoffState;
  /**
   * crashLoopBackOff.maxContainerRestartPeriod (ms): for every node, and per node (default 300 s).
   * Values outside 1 s–300 s make adding that node fail, as the kubelet refuses them.
   */
  maxContainerRestartPeriodMs?: { all?: number; byNode?: Readonly<Record<string, number>> };
  /** Configured node IPs (PODSCOPE_NODE_IP): for every node, and per node. */
  nodeIPs?: { all: string[]; byNode: Record<string, string[]> };
  /** This machine's IPs, the host IPs of last resort (default: detected from its interfaces). */
  detectedIPs?: string[];
  /** Initial state when restarting on an existing timeline (the store's latest state). */
  initialState?: ClusterState;
  /**
   * Relist loops in worker threads (workers/pool.ts) for nodes added with `watch()`: a number of
   * workers (0: none), or 'auto' — once `fromNodes` nodes are watched, max(cores − 1, one per
   * AUTO_NODES_PER_RELIST_WORKER nodes) workers, at most MAX_AUTO_RELIST_WORKERS, the pool
   * growing as nodes are added (nodes added before stay where they are). Nodes need the default
   * clock and back-off and no hint providers to go to a worker; others stay in-thread.
   */
  relistWorkers?: {
    count: number | 'auto';
    fromNodes?: number;
    /** 'auto': one worker per this many nodes (default AUTO_NODES_PER_RELIST_WORKER). */
    nodesPerWorker?: number;
    criTimeoutMs?: number;
  };
  log?: LogFn;
}

/** 'auto' relist workers start when this many nodes are watched. */
export const AUTO_RELIST_WORKERS_FROM_NODES = 32;

/**
 * 'auto': one relist worker for this many nodes. A worker's garbage collection costs about the
 * square of its nodes (each relist's gRPC buffers drive a major GC that marks the worker's whole
 * heap, itself proportional to its nodes), so nodes spread over more heaps cost less in total —
 * until each worker's fixed cost wins. Measured on 2 cores, 150 nodes of 110 pods at 1 s
 * (2026-12-03, server CPU): 1 worker 114–119 %, 2 workers 94–96 %, 3 workers 82 %, 6 workers
 * 101–106 %; V8's concurrent-marking and sweeper threads were over half of the 1-worker figure.
 */
export const AUTO_NODES_PER_RELIST_WORKER = 50;

/** 'auto' never runs more relist workers than this (each costs ~100 MiB of resident memory). */
export const MAX_AUTO_RELIST_WORKERS = 8;

/** The node's crashLoopBackOff.maxContainerRestartPeriod: its own, else every node's, else 300 s. */
export function restartPeriodOf(options: EngineOptions, name: string): number {
  const c = options.maxContainerRestartPeriodMs;
  const own =
    c?.byNode && Object.prototype.hasOwnProperty.call(c.byNode, name) ? c.byNode[name] : undefined;
  const ms = own ?? c?.all ?? KUBELET_DEFAULTS.maxContainerRestartPeriodMs;
  crashLoopBackOffPeriods(ms); // a RangeError now rather than inside the node's loop
  return ms;
}

/** The operator's kubelet version for the node: its own, else every node's; undefined for none. */
export function kubeletVersionOf(options: EngineOptions, name: string): string | undefined {
  return configuredKubeletVersion(options.kubeletVersions, name);
}

/** The node's configured IPs: its own, else every node's. */
export function nodeIPsOf(options: EngineOptions, name: string): string[] {
  return options.nodeIPs?.byNode[name] ?? options.nodeIPs?.all ?? [];
}

/**
 * How many relist workers the engine should run once a node is added to `watched` others
 * (0: the node stays in this thread). Nodes need the default clock and back-off and no hint
 * providers to go to a worker.
 */
export function relistWorkerCount(options: EngineOptions, watched: number): number {
  const w = options.relistWorkers;
  if (!w) return 0;
  if (options.clock || options.backoff || (options.providers?.length ?? 0) > 0) return 0;
  if (w.count !== 'auto') return w.count;
  const nodes = watched + 1;
  if (nodes < (w.fromNodes ?? AUTO_RELIST_WORKERS_FROM_NODES)) return 0;
  return Math.min(
    MAX_AUTO_RELIST_WORKERS,
    Math.max(
      1,
      availableParallelism() - 1,
      Math.ceil(nodes / (w.nodesPerWorker ?? AUTO_NODES_PER_RELIST_WORKER)),
    ),
  );
}
