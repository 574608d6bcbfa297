/**
 * The overview's wire: what the console sends a browser about a cluster of any size before (and
 * instead of) the detail of every pod. The first message is bounded by the node count alone —
 * a few dozen bytes per node, columnar — and never carries a pod; pods, containers, conditions
 * and whys travel only for the nodes a view shows (the detail part of the same stream).
 *
 * Contract between the server (server/overview, routers/overview.ts) and the browser
 * (components/overview). Pure types and constants; no I/O.
 */

/** A node's Ready condition status as the overview shows it ('' when the node has none yet). */
export const READY_VALUES = ['True', 'False', 'Unknown', ''] as const;
export type ReadyValue = (typeof READY_VALUES)[number];

/**
 * The worst state among a node's pods, ordered: a cell is coloured by the highest. `failing`:
 * a container in CrashLoopBackOff, ImagePullBackOff/ErrImagePull, CreateContainerError, or a
 * pod Failed/evicted; `warning`: a running pod not Ready, or restarts in the last window;
 * `pending`: a pod Pending (ContainerCreating, PodInitializing, no sandbox yet); `ok`: every pod
 * Running and Ready or Succeeded; `empty`: no pods.
 */
export const POD_HEALTH = ['empty', 'ok', 'pending', 'warning', 'failing'] as const;
export type PodHealth = (typeof POD_HEALTH)[number];

/** Node pressure and network bits (a cell's `pressure` is their OR). */
export const PRESSURE_BITS = {
  MemoryPressure: 1,
  DiskPressure: 2,
  PIDPressure: 4,
  NetworkUnavailable: 8,
} as const;

/**
 * Node labels the overview groups by when a node carries them (the API server's node labels,
 * or an agent's `--node-labels`). Values are dictionary-encoded per key in `OverviewCells`.
 */
export const GROUP_LABELS = [
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'node.kubernetes.io/instance-type',
  'cloud.google.com/gke-nodepool',
  'eks.amazonaws.com/nodegroup',
  'kubernetes.azure.com/agentpool',
  'karpenter.sh/nodepool',
  'podscope.dev/pool',
] as const;

/**
 * Every node as one cell, columnar: index i of each array is node i. A node keeps its index for
 * the life of the stream (new nodes are appended; a removed node's index is reused by none and
 * its `ready` becomes '' with `gone` set), so a search can answer with indices.
 */
export interface OverviewCells {
  names: string[];
  ready: ReadyValue[];
  /** POD_HEALTH index of the worst pod state. */
  health: number[];
  /** OR of PRESSURE_BITS. */
  pressure: number[];
  pods: number[];
  /** Pods not Ready (phase Running or Pending). */
  notReady: number[];
  /** 1 where the node is gone (removed from the cluster); absent when none are. */
  gone?: number[];
  /** Per GROUP_LABELS key present on any node: the distinct values, and per node its value's index (-1: none). */
  labels: Record<string, { values: string[]; of: number[] }>;
}

/** Changed cells since the previous message: index → the new values (same columns). */
export interface CellChanges {
  /** Indices; names[i] is given for indices past the end of what the reader holds (new nodes). */
  index: number[];
  names?: string[];
  ready: ReadyValue[];
  health: number[];
  pressure: number[];
  pods: number[];
  notReady: number[];
  gone?: number[];
  /** New label values: per key, the values appended to its dictionary, then per changed cell its index. */
  labels?: Record<string, { added: string[]; of: number[] }>;
}

/** Counts, bounded whatever the cluster's size. */
export interface Aggregates {
  nodes: number;
  pods: number;
  containers: number;
  nodesByReady: Record<ReadyValue, number>;
  podsByHealth: Record<PodHealth, number>;
  podsByPhase: Record<string, number>;
  /** The reasons shown on pods and containers (CrashLoopBackOff, ImagePullBackOff, Evicted, NodeNotReady…), most pods first, at most TOP_REASONS. */
  reasons: { reason: string; pods: number; nodes: number; namespaces: number }[];
  /** Namespaces with problems first (failing, then warning, then pending), at most TOP_NAMESPACES. */
  namespaces: {
    namespace: string;
    pods: number;
    failing: number;
    warning: number;
    pending: number;
  }[];
  /** Per node group of the chosen key (see `OverviewInput.group`): counts of nodes by Ready and pods by health. */
  groups: {
    key: string;
    value: string;
    nodes: number;
    nodesByReady: Record<ReadyValue, number>;
    podsByHealth: Record<PodHealth, number>;
  }[];
}

/**
 * What needs attention, at cluster scale: problems ranked (failing nodes and pods first, the
 * oldest first within a rank), at most TOP_ATTENTION, with the total behind them.
 */
export interface AttentionItem {
  kind: 'node' | 'pod';
  node: string;
  namespace?: string;
  pod?: string;
  uid?: string;
  /** The reason shown (e.g. CrashLoopBackOff, NodeNotReady, MemoryPressure). */
  reason: string;
  health: PodHealth;
  /** Since when (ms epoch), when known. */
  since?: number;
}

/**
 * Changes that happened together, as one row: the same transition (e.g. node Ready → Unknown,
 * pod reason → CrashLoopBackOff) in the same node group within CHANGE_WINDOW_MS.
 * `members` is the first MEMBERS_SHOWN node names (or pod keys "ns/name"); `query` is a search
 * query that selects all of them (what "open" does).
 */
export interface ChangeGroup {
  id: string;
  /** e.g. 'node.ready', 'pod.reason', 'pod.phase'. */
  what: string;
  to: string;
  /** The node group (e.g. "topology.kubernetes.io/zone=b"), when all members share one. */
  group?: string;
  count: number;
  from: number;
  until: number;
  members: string[];
  query: string;
}

/** One search hit: a pod (or a node, for node-only queries). */
export interface SearchHit {
  kind: 'pod' | 'node';
  node: string;
  /** The node's index in OverviewCells. */
  cell: number;
  namespace?: string;
  pod?: string;
  uid?: string;
  phase?: string;
  reason?: string;
  health: PodHealth;
}

export interface SearchResult {
  query: string;
  /** A query that does not parse: the message to show under the box (nothing else is set). */
  error?: { message: string; at: number };
  total: number;
  /** Hits of this page, ranked (worst health first, then node, namespace, name). */
  hits: SearchHit[];
  /** Opaque cursor of the next page, absent on the last. */
  next?: string;
  /** Cell indices of every node with at least one hit (the overview highlights them). */
  cells: number[];
}

/** The first message of `overview.watch`, and again after a gap. */
export interface OverviewMessage {
  type: 'overview';
  /** The seq of the last event folded in. */
  seq: number;
  t: number;
  cells: OverviewCells;
  aggregates: Aggregates;
  attention: { total: number; items: AttentionItem[] };
  changes: ChangeGroup[];
}

/** Later overview messages (at most one per OVERVIEW_TICK_MS). */
export interface OverviewDelta {
  type: 'overview-delta';
  seq: number;
  t: number;
  cells: CellChanges;
  aggregates?: Aggregates;
  attention?: { total: number; items: AttentionItem[] };
  changes?: ChangeGroup[];
}

/**
 * `overview.watch`'s input. One subscription per tab carries, in order: an OverviewMessage, then
 * OverviewDeltas (at most one per OVERVIEW_TICK_MS) interleaved with the detail of `nodes` —
 * exactly `cluster.watch`'s messages (`snapshot` | `events` | wire frames, as `wire` asks),
 * restricted to those nodes: a `snapshot` holds exactly the requested nodes (the reader replaces
 * the detail it holds with it) and events are about them alone.
 *
 * Ids (`tracked`) are the seq of the last event of the detail accounted for, as in cluster.watch
 * ("0" until the first detail message; without `nodes`, the overview's own seq): resuming with
 * `lastEventId` (on any replica) re-sends the OverviewMessage and backfills the detail of `nodes`
 * after that id; a reader too far behind gets a fresh detail `snapshot` of `nodes` instead of
 * the backlog. A reader that changes its node set (pan, zoom, selection)
 * starts a new subscription with the new set and no `lastEventId` (or, to keep the detail of the
 * nodes it held, `lastEventId` and `held`: see there).
 */
export interface OverviewWatchInput {
  /** The nodes whose detail to send (viewport and selection), at most MAX_DETAIL_NODES. */
  nodes?: string[];
  /** A GROUP_LABELS key or GROUP_BY_READY: what Aggregates.groups counts by (none when absent). */
  group?: string;
  lastEventId?: string | null;
  wire?: 1 | 2;
  /**
   * With `lastEventId`: the nodes of `nodes` whose detail the reader holds as of that id. When
   * it holds them all their events are backfilled; otherwise a detail `snapshot` of all of
   * `nodes` comes instead. Absent: all of `nodes` (what an automatic reconnect means).
   */
  held?: string[];
}

/** Aggregates.groups by the node's Ready state (the other group keys are GROUP_LABELS). */
export const GROUP_BY_READY = 'ready';

export const OVERVIEW_TICK_MS = 500;
export const CHANGE_WINDOW_MS = 60_000;
export const MEMBERS_SHOWN = 20;
export const TOP_REASONS = 20;
export const TOP_NAMESPACES = 20;
export const TOP_ATTENTION = 50;
export const SEARCH_PAGE = 50;
/** The most nodes one view may ask the detail of (the viewport's and the selection's). */
export const MAX_DETAIL_NODES = 200;
/** Up to this many nodes a console opens at the three-layer diagram of every node, as before. */
export const SMALL_CLUSTER_NODES = 24;
