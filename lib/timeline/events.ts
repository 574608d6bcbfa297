/**
 * The timeline's event model (ARCHITECTURE.md "The event model").
 *
 * - CRI events say what changed on the wire (a container exited, a sandbox went not-ready, a
 *   relist failed). They do not change the drawn state by themselves.
 * - Derived events say what it meant: a container state, a pod phase or condition, a node
 *   condition changed. Each carries `cause` (the seq of the CRI event that triggered it) and
 *   `why` (an Explanation from lib/kubelet). They are "set" operations, so folding them through
 *   the reducer is idempotent per event and order-sensitive only by seq.
 *
 * Every event has a server-wide, strictly increasing `seq` (the SSE id) and an observation time
 * `t` (epoch ms, server clock). Runtime timestamps, when the CRI gives one, ride in `runtimeTime`.
 */
import type { V1ContainerStatus, V1NodeCondition, V1PodCondition } from '@kubernetes/client-node';
import type { Explanation } from '../kubelet/explanation';
import type { RuntimeCondition, RuntimeInfo } from '../kubelet/runtime';
import type { NodeUsage } from '../kubelet/usage';
import type { KubeletVersion } from '../kubelet/version';
import type { Drift } from '../drift/types';
import type { NodeHealth, PodView } from './state';

interface EventBase {
  seq: number;
  t: number;
  node: string;
  /** seq of the CRI event that caused this derived event. */
  cause?: number;
}

export const CRI_EVENT_TYPES = [
  'ContainerCreated',
  'ContainerStarted',
  'ContainerExited',
  'ContainerRemoved',
  'SandboxReady',
  'SandboxNotReady',
  'SandboxRemoved',
  'RuntimeConditionChanged',
  'RelistFailed',
  'RelistRecovered',
] as const;
export type CriEventType = (typeof CRI_EVENT_TYPES)[number];

// Each vocabulary is declared once, here: the types below and the file schema's enums
// (file/schema.ts) both derive from these lists.
export const CRI_EVENT_SOURCES = ['relist', 'events'] as const;
export const CONTAINER_STATE_NAMES = ['waiting', 'running', 'terminated'] as const;
export const CONTAINER_LISTS = ['init', 'regular'] as const;
export const CONTAINER_EVENT_TYPES = [
  'ContainerStateChanged',
  'ContainerStatusChanged',
  'ContainerRemoved',
] as const;
export const POD_EVENT_TYPES = [
  'PodAdded',
  'PodPhaseChanged',
  'PodConditionChanged',
  'PodUpdated',
  'PodRemoved',
] as const;
export const NODE_EVENT_TYPES = [
  'NodeAdded',
  'NodeUpdated',
  'NodeConditionChanged',
  'NodeRemoved',
] as const;
export const K8S_EVENT_SEVERITIES = ['Normal', 'Warning'] as const;

export type CriFieldValue = string | number | boolean | null;

export interface CriEvent extends EventBase {
  kind: 'cri';
  type: CriEventType;
  /** How Podscope learned of it: a relist diff or the runtime's GetContainerEvents stream. */
  source: (typeof CRI_EVENT_SOURCES)[number];
  podUid?: string;
  /** Container name (kubelet label), for container events. */
  container?: string;
  /** CRI container or sandbox id. */
  id?: string;
  /** The runtime's own timestamp for the change, epoch ms, where the CRI gives one. */
  runtimeTime?: number;
  /** The raw CRI fields that changed (state, exit_code, reason, attempt, error …). */
  detail?: Readonly<Record<string, CriFieldValue>>;
}

export type ContainerStateName = (typeof CONTAINER_STATE_NAMES)[number];

export interface ContainerEvent extends EventBase {
  kind: 'container';
  /** StateChanged: waiting/running/terminated or its reason changed; StatusChanged: anything else (ready, started, restartCount). */
  type: (typeof CONTAINER_EVENT_TYPES)[number];
  podUid: string;
  list: (typeof CONTAINER_LISTS)[number];
  name: string;
  /** The complete new status (absent for ContainerRemoved). */
  status?: V1ContainerStatus;
  from?: ContainerStateName;
  to?: ContainerStateName;
  why?: Explanation;
}

export interface PodEvent extends EventBase {
  kind: 'pod';
  type: (typeof POD_EVENT_TYPES)[number];
  podUid: string;
  /** PodAdded: the whole pod as first seen. */
  pod?: PodView;
  /** PodPhaseChanged. */
  phase?: string;
  /** PodConditionChanged: the new condition (replaces the one of the same type). */
  condition?: V1PodCondition;
  /** Previous phase or condition status. */
  from?: string;
  why?: Explanation;
  /** PodUpdated: top-level fields replaced (specSource, spec, evictionDueAt, nextRestartAt, status fields …). */
  patch?: PodPatch;
}

export interface PodPatch {
  specSource?: PodView['specSource'];
  spec?: PodView['spec'];
  /** null clears. */
  evictionDueAt?: number | null;
  nextRestartAt?: Record<string, number> | null;
  deletionTimestamp?: number | null;
  /** Shallow-merged into status (podIP, podIPs, startTime, qosClass, hostIP …). */
  status?: Partial<PodView['status']>;
  /** The phase's explanation changed while the phase did not. */
  whyPhase?: Explanation;
  /** Where the API server disagrees with the runtime (lib/drift); [] or null clears. */
  drift?: Drift[] | null;
}

export interface NodeEvent extends EventBase {
  kind: 'node';
  type: (typeof NODE_EVENT_TYPES)[number];
  endpoint?: string;
  runtime?: RuntimeInfo;
  runtimeConditions?: RuntimeCondition[];
  health?: NodeHealth;
  /** NodeConditionChanged: the new condition (replaces the one of the same type). */
  condition?: V1NodeCondition;
  from?: string;
  why?: Explanation;
  /** NodeUpdated: where the API server disagrees with the runtime (lib/drift); [] or null clears. */
  drift?: Drift[] | null;
  /** NodeUpdated: container and pod CPU/memory from ListContainerStats (replaces); null clears. */
  usage?: NodeUsage | null;
  /** NodeAdded / NodeUpdated: the kubelet version whose rules apply to the node (replaces). */
  kubelet?: KubeletVersion;
}

/**
 * An Event from the API server (core/v1 Event, as `kubectl get events` shows it), recorded beside
 * the CRI events. Like a CRI event it does not change the drawn state by itself. Times are epoch
 * ms; `t` is when Podscope observed it, `lastTimestamp` when the reporter last saw it happen.
 */
export interface K8sEvent extends EventBase {
  kind: 'k8s';
  type: 'Event';
  reason: string;
  message: string;
  eventType: (typeof K8S_EVENT_SEVERITIES)[number];
  involvedObject: {
    kind: string;
    name: string;
    namespace?: string;
    uid?: string;
    fieldPath?: string;
  };
  /** How many times the reporter has seen it (deduplicated by the event recorder). */
  count: number;
  firstTimestamp?: number;
  lastTimestamp?: number;
  /** The reporting component (kubelet, default-scheduler, node-controller …). */
  source?: string;
  /** The runtime pod uid when the event is about a pod (for a static pod: its config hash). */
  podUid?: string;
  /** Container name, when the event's fieldPath names one (`spec.containers{app}`). */
  container?: string;
}

export type DerivedEvent = ContainerEvent | PodEvent | NodeEvent;
export type TimelineEvent = CriEvent | DerivedEvent | K8sEvent;

/** An event before the store has given it a seq. */
export type UnsequencedEvent = TimelineEvent extends infer E
  ? E extends TimelineEvent
    ? Omit<E, 'seq'>
    : never
  : never;

export const isDerived = (e: TimelineEvent): e is DerivedEvent =>
  e.kind === 'container' || e.kind === 'pod' || e.kind === 'node';

/** The entity an event is about, in the UI's data-id form: node name, pod uid, or `<pod uid>/<container>`. */
export function entityId(e: TimelineEvent): string {
  switch (e.kind) {
    case 'node':
      return e.node;
    case 'pod':
      return e.podUid;
    case 'container':
      return `${e.podUid}/${e.name}`;
    case 'cri':
    case 'k8s':
      if (e.podUid && e.container) return `${e.podUid}/${e.container}`;
      return e.podUid ?? e.node;
  }
}
