/**
 * The selected entity's place in its state machine at the cursor: its current state and the
 * last transition that brought it there, with the CRI event that caused it (the edge label).
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import { containerState, resolveEntity, type Layer } from '@/components/data/entity';

export interface Transition {
  seq: number;
  t: number;
  from: string;
  to: string;
  /** CRI event type that caused it, or a kubelet-side reason when the wire carried none. */
  label: string;
}

/**
 * The entity's current state in its machine's own terms (container states lower case, as
 * lib/kubelet/machines names them), or undefined if it does not exist at this moment.
 */
export function currentMachineState(state: ClusterState, id: string): string | undefined {
  const ref = resolveEntity(state, id);
  if (!ref) return undefined;
  switch (ref.layer) {
    case 'container':
      return containerState(ref.container.status);
    case 'pod':
      return ref.pod.status.phase ?? 'Pending';
    case 'node':
      return ref.node.conditions.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  }
}

function kubeletReason(s: V1ContainerStatus | undefined): string | undefined {
  return s?.state?.waiting?.reason ?? s?.state?.terminated?.reason;
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
  for (let i = Math.min(upTo, events.length) - 1; i >= 0; i--) {
    const e = events[i];
    if (!e) continue;
    let from: string | undefined;
    let to: string | undefined;
    let fallback: string | undefined;
    if (
      layer === 'container' &&
      e.kind === 'container' &&
      e.type === 'ContainerStateChanged' &&
      `${e.podUid}/${e.name}` === id
    ) {
      from = e.from;
      to = e.to;
      fallback = kubeletReason(e.status);
    } else if (
      layer === 'pod' &&
      e.kind === 'pod' &&
      e.type === 'PodPhaseChanged' &&
      e.podUid === id
    ) {
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
    const cause = e.cause !== undefined ? bySeq(e.cause) : undefined;
    const label = cause?.kind === 'cri' ? cause.type : (fallback ?? e.type);
    return { seq: e.seq, t: e.t, from, to, label };
  }
  return undefined;
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
