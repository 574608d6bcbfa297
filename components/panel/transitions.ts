/**
 * The selected entity's place in its state machine at the cursor: its current state and the
 * last transition that brought it there, with the CRI event that caused it (the edge label).
 * A container's state is the panel's drawing of it (machines.ts): Running split by readiness,
 * so the prober's ready=false / ready=true is a transition like a start or an exit.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { ClusterState } from '@/lib/timeline/state';
import type { ContainerEvent, TimelineEvent } from '@/lib/timeline/events';
import {
  containerReadiness,
  containerState,
  resolveEntity,
  type Layer,
} from '@/components/data/entity';
import { UNREADY } from './machines';

export interface Transition {
  seq: number;
  t: number;
  from: string;
  to: string;
  /** CRI event type that caused it, or a kubelet-side reason when the wire carried none. */
  label: string;
}

/** A container's state in the panel's drawing: waiting, running (ready), unready, terminated. */
export function drawnContainerState(s: V1ContainerStatus | undefined): string {
  const state = containerState(s);
  return state === 'running' && containerReadiness(s) !== 'ready' ? UNREADY : state;
}

/**
 * The entity's current state in its machine's own terms (container states lower case, as
 * lib/kubelet/machines names them, running split by readiness), or undefined if it does not
 * exist at this moment.
 */
export function currentMachineState(state: ClusterState, id: string): string | undefined {
  const ref = resolveEntity(state, id);
  if (!ref) return undefined;
  switch (ref.layer) {
    case 'container':
      return drawnContainerState(ref.container.status);
    case 'pod':
      return ref.pod.status.phase ?? 'Pending';
    case 'node':
      return ref.node.conditions.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  }
}

function kubeletReason(s: V1ContainerStatus | undefined): string | undefined {
  return s?.state?.waiting?.reason ?? s?.state?.terminated?.reason;
}

/** What the prober changed between two statuses of a running container: its edge label. */
function readinessLabel(before: V1ContainerStatus | undefined, after: V1ContainerStatus): string {
  if ((before?.ready === true) !== (after.ready === true)) return `ready=${after.ready === true}`;
  return `started=${after.started !== false}`;
}

const isContainerEvent = (e: TimelineEvent | undefined, id: string): e is ContainerEvent =>
  e?.kind === 'container' &&
  (e.type === 'ContainerStateChanged' || e.type === 'ContainerStatusChanged') &&
  `${e.podUid}/${e.name}` === id;

/** The container's status as the pod was first seen (PodAdded carries the whole pod). */
function statusWhenAdded(e: TimelineEvent | undefined, id: string): V1ContainerStatus | undefined {
  if (e?.kind !== 'pod' || e.type !== 'PodAdded' || !e.pod || !id.startsWith(`${e.podUid}/`))
    return undefined;
  const name = id.slice(e.podUid.length + 1);
  const { containerStatuses = [], initContainerStatuses = [] } = e.pod.status;
  return [...initContainerStatuses, ...containerStatuses].find((c) => c.name === name);
}

/**
 * Scans back from the cursor for the entity's last state change. `events` ascending by seq;
 * `upTo` = how many of them happened by the cursor; `bySeq` finds a cause.
 */
export function lastTransition(
  events: readonly TimelineEvent[],
  upTo: number,
  id: string,
  layer: Layer,
  bySeq: (seq: number) => TimelineEvent | undefined,
): Transition | undefined {
  if (layer === 'container') return lastContainerTransition(events, upTo, id, bySeq);
  for (let i = Math.min(upTo, events.length) - 1; i >= 0; i--) {
    const e = events[i];
    if (!e) continue;
    let from: string | undefined;
    let to: string | undefined;
    let fallback: string | undefined;
    if (layer === 'pod' && e.kind === 'pod' && e.type === 'PodPhaseChanged' && e.podUid === id) {
      from = e.from;
      to = e.phase;
    } else if (
      layer === 'node' &&
      e.kind === 'node' &&
      e.type === 'NodeConditionChanged' &&
      e.node === id &&
      e.condition?.type === 'Ready'
    ) {
      from = e.from;
      to = e.condition.status;
      fallback = e.condition.reason;
    }
    if (!from || !to) continue;
    return { seq: e.seq, t: e.t, from, to, label: causeLabel(e, bySeq, fallback) };
  }
  return undefined;
}

function causeLabel(
  e: TimelineEvent,
  bySeq: (seq: number) => TimelineEvent | undefined,
  fallback: string | undefined,
): string {
  const cause = e.cause !== undefined ? bySeq(e.cause) : undefined;
  return cause?.kind === 'cri' ? cause.type : (fallback ?? e.type);
}

/**
 * A container's last move in the drawing: a state change (a start, an exit, a new reason …), or
 * a status change that crossed between ready and not ready. Each is compared with the
 * container's previous status before it, so a start is drawn into `running` or `unready` as
 * the new status says, and from where the container really was.
 */
function lastContainerTransition(
  events: readonly TimelineEvent[],
  upTo: number,
  id: string,
  bySeq: (seq: number) => TimelineEvent | undefined,
): Transition | undefined {
  let later: ContainerEvent | undefined;
  for (let i = Math.min(upTo, events.length) - 1; i >= 0; i--) {
    const e = events[i];
    const added = statusWhenAdded(e, id);
    if (!added && !isContainerEvent(e, id)) continue;
    const before = isContainerEvent(e, id) ? e.status : added;
    if (later) {
      const t = containerMove(later, before, bySeq);
      if (t) return t;
    }
    if (!isContainerEvent(e, id)) return undefined;
    later = e;
  }
  return later ? containerMove(later, undefined, bySeq) : undefined;
}

function containerMove(
  e: ContainerEvent,
  previous: V1ContainerStatus | undefined,
  bySeq: (seq: number) => TimelineEvent | undefined,
): Transition | undefined {
  const to = e.status ? drawnContainerState(e.status) : e.to;
  const from = previous !== undefined ? drawnContainerState(previous) : e.from;
  if (!from || !to) return undefined;
  const base = { seq: e.seq, t: e.t, from, to };
  if (e.type === 'ContainerStateChanged')
    return { ...base, label: causeLabel(e, bySeq, kubeletReason(e.status)) };
  // A status change is a move only when the prober moved it (the other fields — restartCount,
  // a why — leave the container where it is).
  const readinessMoved =
    from !== to ||
    (to === UNREADY && containerReadiness(previous) !== containerReadiness(e.status));
  if (!readinessMoved || !e.status) return undefined;
  return { ...base, label: readinessLabel(previous, e.status) };
}

/** Binary search by seq in an ascending-seq list. */
export function findBySeq(
  events: readonly TimelineEvent[],
  seq: number,
): TimelineEvent | undefined {
  let lo = 0;
  let hi = events.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const e = events[mid];
    if (!e) return undefined;
    if (e.seq === seq) return e;
    if (e.seq < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
