/**
 * A node as one overview cell, and a pod as one flat row: the values the overview colours, counts
 * and searches, computed from the state's NodeView/PodView (lib/timeline/state.ts). Pure.
 *
 * A pod's health follows POD_HEALTH's definition (wire.ts); a cell's health is the worst among
 * its pods. "Restarts in the last window" depends on the time, so a row says until when its
 * health holds (`until`): the index re-evaluates a node once that time has passed.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { SYNC_ERROR_REASONS } from '../kubelet/reasons';
import type { NodeView, PodView } from '../timeline/state';
import {
  GROUP_LABELS,
  POD_HEALTH,
  PRESSURE_BITS,
  READY_VALUES,
  type PodHealth,
  type ReadyValue,
} from './wire';

/** How long a container restart keeps its pod at `warning`. */
export const RESTART_WINDOW_MS = 10 * 60_000;

export const HEALTH = {
  empty: 0,
  ok: 1,
  pending: 2,
  warning: 3,
  failing: 4,
} as const satisfies Record<PodHealth, number>;

/** Container state bits of a row (`state:` in a search). */
export const STATE_BITS = { waiting: 1, running: 2, terminated: 4 } as const;

/** One pod, flat: what search, counts and attention read. */
export interface PodRow {
  uid: string;
  name: string;
  /** `name` lower-cased, for substring search. */
  lname: string;
  namespace: string;
  node: string;
  phase: string;
  /** The pod's Ready condition is True. */
  ready: boolean;
  /** POD_HEALTH index. */
  health: number;
  /** The reason shown ('' when none): a failing container's, the pod's own, the not-ready one … */
  reason: string;
  /** Every reason on the pod and its containers (`reason:` matches any). */
  reasons: string[];
  /** OR of STATE_BITS over its containers. */
  states: number;
  containers: number;
  labels?: Readonly<Record<string, string>>;
  /** Since when its problem stands (ms epoch), when known. */
  since?: number;
  /** Its health may change at this time with no event (a restart leaving the window). */
  until?: number;
}

/** A node's own values (its pods' come from their rows). */
export interface NodeFacts {
  name: string;
  ready: ReadyValue;
  /** OR of PRESSURE_BITS. */
  pressure: number;
  /** The Ready condition's reason, or the first pressure condition's type. */
  reason: string;
  since?: number;
  /** GROUP_LABELS values the node carries. */
  groups: Record<string, string>;
  labels?: Readonly<Record<string, string>>;
}

/** The values of one cell (OverviewCells' columns for one node). */
export interface Cell {
  ready: ReadyValue;
  health: number;
  pressure: number;
  pods: number;
  notReady: number;
}

export function toMs(v: Date | string | number | undefined | null): number | undefined {
  if (v === undefined || v === null) return undefined;
  const ms = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

export function nodeFacts(node: NodeView): NodeFacts {
  let ready: ReadyValue = '';
  let pressure = 0;
  let reason = '';
  let since: number | undefined;
  let pressureReason = '';
  for (const c of node.conditions) {
    if (c.type === 'Ready') {
      ready = (READY_VALUES as readonly string[]).includes(c.status)
        ? (c.status as ReadyValue)
        : 'Unknown';
      if (ready !== 'True') {
        reason = c.reason ?? `Ready=${ready}`;
        since = toMs(c.lastTransitionTime);
      }
    } else if (c.status === 'True' && Object.hasOwn(PRESSURE_BITS, c.type)) {
      pressure |= PRESSURE_BITS[c.type as keyof typeof PRESSURE_BITS];
      if (!pressureReason) {
        pressureReason = c.type;
        since ??= toMs(c.lastTransitionTime);
      }
    }
  }
  const groups: Record<string, string> = {};
  const labels = node.labels;
  if (labels)
    for (const key of GROUP_LABELS) {
      const v = Object.hasOwn(labels, key) ? labels[key] : undefined;
      if (typeof v === 'string') groups[key] = v;
    }
  return {
    name: node.name,
    ready,
    pressure,
    reason: reason || pressureReason,
    ...(since !== undefined ? { since } : {}),
    groups,
    ...(labels ? { labels } : {}),
  };
}

const containersOf = (pod: PodView): V1ContainerStatus[] => [
  ...(pod.status.initContainerStatuses ?? []),
  ...(pod.status.containerStatuses ?? []),
];

/** The pod as a row, judged at `now` (the restart window). */
export function podRow(pod: PodView, now: number): PodRow {
  const phase = pod.status.phase ?? '';
  const readyCondition = pod.status.conditions?.find((c) => c.type === 'Ready');
  const ready = readyCondition?.status === 'True';
  const reasons: string[] = [];
  const add = (r: string | undefined) => {
    if (r && !reasons.includes(r)) reasons.push(r);
  };
  let states = 0;
  let failingReason = '';
  let waitingReason = '';
  let terminatedReason = '';
  let lastRestartAt: number | undefined;
  let lastRestartReason = '';
  const statuses = containersOf(pod);
  for (const s of statuses) {
    const st = s.state;
    if (st?.waiting) {
      states |= STATE_BITS.waiting;
      const r = st.waiting.reason ?? '';
      add(r);
      if (SYNC_ERROR_REASONS.has(r)) failingReason ||= r;
      else waitingReason ||= r;
    }
    if (st?.running) states |= STATE_BITS.running;
    if (st?.terminated) {
      states |= STATE_BITS.terminated;
      const r = st.terminated.reason ?? '';
      add(r);
      if (r && r !== 'Completed') terminatedReason ||= r;
    }
    const last = s.lastState?.terminated;
    if (s.restartCount > 0 && last) {
      const at = toMs(last.finishedAt);
      if (at !== undefined && (lastRestartAt === undefined || at > lastRestartAt)) {
        lastRestartAt = at;
        lastRestartReason = last.reason ?? '';
      }
    }
  }
  add(pod.status.reason);
  if (!ready && readyCondition?.reason) add(readyCondition.reason);

  const evicted = pod.status.reason === 'Evicted';
  const recentRestart = lastRestartAt !== undefined && now - lastRestartAt < RESTART_WINDOW_MS;
  let health: number;
  let reason: string;
  let since: number | undefined;
  if (failingReason || phase === 'Failed' || evicted) {
    health = HEALTH.failing;
    reason = failingReason || pod.status.reason || terminatedReason || 'Failed';
    since = failingReason ? (lastRestartAt ?? toMs(readyCondition?.lastTransitionTime)) : undefined;
    since ??= toMs(readyCondition?.lastTransitionTime);
  } else if (phase === 'Pending') {
    health = HEALTH.pending;
    reason = waitingReason || pod.status.reason || 'Pending';
    since = pod.createdAt;
  } else if (phase === 'Succeeded') {
    health = recentRestart ? HEALTH.warning : HEALTH.ok;
    reason = recentRestart ? lastRestartReason || 'Restarted' : '';
  } else if (phase !== 'Running' || !ready || recentRestart) {
    health = HEALTH.warning;
    reason =
      (!ready ? readyCondition?.reason : undefined) ||
      (recentRestart ? lastRestartReason || 'Restarted' : '') ||
      waitingReason ||
      (phase === 'Running' ? 'NotReady' : phase || 'Unknown');
    since = !ready ? toMs(readyCondition?.lastTransitionTime) : lastRestartAt;
  } else {
    health = HEALTH.ok;
    reason = '';
  }
  const row: PodRow = {
    uid: pod.uid,
    name: pod.name,
    lname: pod.name.toLowerCase(),
    namespace: pod.namespace,
    node: pod.node,
    phase,
    ready,
    health,
    reason,
    reasons,
    states,
    containers: statuses.length,
  };
  if (pod.labels) row.labels = pod.labels;
  if (since !== undefined) row.since = since;
  // Only a restart that decides the health expires it.
  if (recentRestart && health === HEALTH.warning && lastRestartAt !== undefined)
    row.until = lastRestartAt + RESTART_WINDOW_MS;
  return row;
}

/** Whether a row counts in a cell's `notReady` (wire.ts: pods not Ready, Running or Pending). */
export const countsNotReady = (r: PodRow) =>
  !r.ready && (r.phase === 'Running' || r.phase === 'Pending');

/** The cell of a node with these (visible) rows. */
export function cellOf(facts: NodeFacts, rows: readonly PodRow[]): Cell {
  let health: number = HEALTH.empty;
  let notReady = 0;
  for (const r of rows) {
    if (r.health > health) health = r.health;
    if (countsNotReady(r)) notReady++;
  }
  return { ready: facts.ready, health, pressure: facts.pressure, pods: rows.length, notReady };
}

export const healthName = (h: number): PodHealth => POD_HEALTH[h] ?? 'empty';

/**
 * Dictionary encoding of node label values per key (OverviewCells.labels): a value keeps its
 * index for the life of the dictionary; `takeAdded` hands over what was appended since the last
 * call (CellChanges.labels' `added`).
 */
export class LabelDictionary {
  private readonly keys = new Map<string, { values: string[]; index: Map<string, number> }>();
  private added = new Map<string, string[]>();

  /** The value's index under `key`, appended when new. */
  encode(key: string, value: string): number {
    let d = this.keys.get(key);
    if (!d) {
      d = { values: [], index: new Map() };
      this.keys.set(key, d);
    }
    const at = d.index.get(value);
    if (at !== undefined) return at;
    d.values.push(value);
    d.index.set(value, d.values.length - 1);
    const list = this.added.get(key);
    if (list) list.push(value);
    else this.added.set(key, [value]);
    return d.values.length - 1;
  }

  /** Keys in first-seen order. */
  keyList(): string[] {
    return [...this.keys.keys()];
  }

  values(key: string): readonly string[] {
    return this.keys.get(key)?.values ?? [];
  }

  /** The values appended since the last call, per key. */
  takeAdded(): Map<string, string[]> {
    const out = this.added;
    this.added = new Map();
    return out;
  }
}
