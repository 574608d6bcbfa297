/**
 * The state Podscope shows: nodes → pods → containers, each in the Kubernetes API's own shape
 * (V1NodeCondition, V1PodStatus, V1ContainerStatus) plus the "why" behind every derived value.
 *
 * This state is only ever produced by folding timeline events through `reduce` (reducer.ts):
 * the engine records that way, the browser replays that way, so live and replay cannot disagree.
 */
import type { V1NodeCondition, V1PodStatus } from '@kubernetes/client-node';
import type { Explanation } from '../kubelet/explanation';
import type { RuntimeCondition, RuntimeInfo, SpecSource } from '../kubelet/runtime';
import type { NodeUsage } from '../kubelet/usage';
import type { KubeletVersion } from '../kubelet/version';
import type { Drift } from '../drift/types';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'] as const;
export type RestartPolicy = (typeof RESTART_POLICIES)[number];
export const PROBE_KINDS = ['startup', 'readiness', 'liveness'] as const;

/** The parts of a pod spec the diagram needs to draw a pod (init divider, sidecars, policy). */
export interface PodSpecSummary {
  restartPolicy: RestartPolicy;
  initContainers: { name: string; sidecar: boolean }[];
  containers: string[];
  hostNetwork: boolean;
  terminationGracePeriodSeconds?: number;
  readinessGates?: string[];
  /** Container name → the probes it declares (only containers with probes). */
  probes?: Record<string, (typeof PROBE_KINDS)[number][]>;
  /** Spec fields the kubelet stand-in does not implement (a warning on the pod). */
  unsupported?: string[];
}

export interface PodWhy {
  phase: Explanation;
  /** Keyed by condition type (Ready, ContainersReady, Initialized, PodReadyToStartContainers …). */
  conditions: Record<string, Explanation>;
  /** Keyed by container name (init and regular share one namespace in a pod). */
  containers: Record<string, Explanation>;
  /** Where hostIP(s) came from (API server, configured, detected). */
  hostIPs?: Explanation;
}

export interface PodView {
  uid: string;
  name: string;
  namespace: string;
  node: string;
  /** Which source the spec came from; inferred facts are marked in the UI. */
  specSource: SpecSource;
  /** The pod's labels (the sandbox's, without the runtime's io.kubernetes.* keys). */
  labels?: Record<string, string>;
  spec: PodSpecSummary;
  /** phase, conditions, initContainerStatuses, containerStatuses, podIP(s), startTime, qosClass. */
  status: V1PodStatus;
  why: PodWhy;
  /** Epoch ms when the first sandbox was created. */
  createdAt: number;
  /** Set while the pod's node is not Ready: when the default NoExecute toleration runs out. */
  evictionDueAt?: number;
  /** Container name → epoch ms at which the kubelet's back-off allows the next restart. */
  nextRestartAt?: Record<string, number>;
  /** Set when the pod is being deleted (graceful termination under way). */
  deletionTimestamp?: number;
  /** Where the API server disagrees with the runtime (lib/drift); absent when none or no API server. */
  drift?: Drift[];
}

export interface NodeHealth {
  /** Whether Podscope currently has a working connection to the node's runtime. */
  connected: boolean;
  /** Epoch ms of the last successful relist (the PLEG heartbeat). */
  lastRelistAt?: number;
  lastError?: string;
  lastErrorAt?: number;
}

export interface NodeView {
  name: string;
  endpoint: string;
  runtime?: RuntimeInfo;
  runtimeConditions: RuntimeCondition[];
  conditions: V1NodeCondition[];
  /** Keyed by condition type. */
  why: Record<string, Explanation>;
  health: NodeHealth;
  pods: Record<string, PodView>;
  /** Node-level disagreements with the API server (conditions, Lease, pods the runtime lacks). */
  drift?: Drift[];
  /** CPU and memory of its pods and containers, from the runtime's ListContainerStats. */
  usage?: NodeUsage;
  /** The node's labels: the API server's when joined, else the agent's `--node-labels`. */
  labels?: Record<string, string>;
  /** The kubelet version whose rules Podscope applies to this node, and where it came from. */
  kubelet?: KubeletVersion;
}

export interface ClusterState {
  /** seq of the last event folded in (0 for the empty state). */
  seq: number;
  /** Observation time of the last event folded in (epoch ms). */
  t: number;
  nodes: Record<string, NodeView>;
}

export const emptyState = (): ClusterState => ({ seq: 0, t: 0, nodes: {} });

/**
 * Reads a node, pod or other keyed entry by an untrusted key: only the record's own entries
 * count, so a node or pod named `constructor`, `toString` or `__proto__` (a runtime may send any
 * string) is looked up like any other name instead of reaching Object.prototype.
 */
export function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * Writes an entry by an untrusted key as JSON.parse and a spread would: its own field even for
 * `__proto__`, whose assignment would otherwise set the record's prototype.
 */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else record[key] = value;
}
