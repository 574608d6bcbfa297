/**
 * Pure helpers of the per-node engine (node-engine.ts): numbering a relist's CRI events so that
 * derived events can name them as their cause, and rebuilding a pod's runtime view from the
 * records a watcher holds.
 */
import type { RuntimeCondition, RuntimePodStatus } from '@/lib/kubelet/runtime';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import type { CriEvent, UnsequencedEvent } from '@/lib/timeline/events';
import type { NodeView, PodView } from '@/lib/timeline/state';
import type { Transition } from './diff';
import type { RelistOutcome } from './node-watcher';

export function withSeq<E extends UnsequencedEvent>(e: E, seq: number): E & { seq: number } {
  return { ...e, seq };
}

export const causeOf = (seq: number | undefined) => (seq === undefined ? {} : { cause: seq });

/**
 * A relist's transitions as numbered CRI events, with each pod's first CRI event (the default
 * cause of what is derived for it) and each container's: its first event, except that the removal
 * of an earlier instance (the kubelet's garbage collection of the run before last) gives way to
 * what happened to the current one — a container that exited while its predecessor was removed
 * changed state because it exited.
 */
export function numberTransitions(
  o: RelistOutcome,
  seq: () => number,
): {
  events: CriEvent[];
  podCause: Map<string, number>;
  containerCause: Map<string, Map<string, number>>;
} {
  const events: CriEvent[] = [];
  const podCause = new Map<string, number>();
  const containerCause = new Map<string, Map<string, number>>();
  const removed = new Set<number>();
  for (const tr of o.transitions) {
    const e = withSeq(criEvent(o, tr, o.finishedAt), seq());
    events.push(e);
    if (!podCause.has(tr.podUid)) podCause.set(tr.podUid, e.seq);
    if (tr.container) {
      let m = containerCause.get(tr.podUid);
      if (!m) containerCause.set(tr.podUid, (m = new Map<string, number>()));
      const first = m.get(tr.container);
      if (first === undefined || (removed.has(first) && tr.type !== 'ContainerRemoved'))
        m.set(tr.container, e.seq);
      if (tr.type === 'ContainerRemoved') removed.add(e.seq);
    }
  }
  return { events, podCause, containerCause };
}

function criEvent(o: RelistOutcome, tr: Transition, t: number): Omit<CriEvent, 'seq'> {
  return {
    kind: 'cri',
    type: tr.type,
    source: o.source,
    node: o.node,
    t,
    podUid: tr.podUid,
    id: tr.id,
    ...(tr.container ? { container: tr.container } : {}),
    ...(tr.runtimeTime !== undefined ? { runtimeTime: tr.runtimeTime } : {}),
    detail: tr.detail,
  };
}

/** A runtime Status's conditions as a RuntimeConditionChanged event's detail. */
export function conditionDetail(conditions: RuntimeCondition[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const c of conditions) {
    out[c.type] = c.status;
    if (!c.status && c.reason) out[`${c.type}.reason`] = c.reason;
  }
  return out;
}

/** The runtime view of a recorded pod, from the records a watcher holds (newest sandbox first). */
export function runtimePodOf(
  records: { sandboxes: RuntimeSandbox[]; containers: RuntimeContainer[] },
  uid: string,
  previous: Pick<PodView, 'name' | 'namespace'>,
): RuntimePodStatus {
  return {
    uid,
    name: previous.name,
    namespace: previous.namespace,
    sandboxes: records.sandboxes
      .filter((s) => s.uid === uid)
      .sort((a, b) => b.createdAt - a.createdAt),
    containers: records.containers.filter((c) => {
      const owner =
        c.labels['io.kubernetes.pod.uid'] ??
        records.sandboxes.find((s) => s.id === c.sandboxId)?.uid;
      return owner === uid;
    }),
  };
}

/**
 * A failed relist as events: RelistFailed on the first failure of a run of them, and the node's
 * health turning disconnected (once, or again on a first failure) with the error.
 */
export function relistFailedEvents(
  view: NodeView | undefined,
  node: string,
  at: number,
  error: Error,
  first: boolean,
): UnsequencedEvent[] {
  const events: UnsequencedEvent[] = [];
  const message = error.message.slice(0, 500);
  if (first)
    events.push({
      kind: 'cri',
      type: 'RelistFailed',
      source: 'relist',
      node,
      t: at,
      detail: { error: message },
    });
  if (view && (view.health.connected || first))
    events.push({
      kind: 'node',
      type: 'NodeUpdated',
      node,
      t: at,
      health: { ...view.health, connected: false, lastError: message, lastErrorAt: at },
    });
  return events;
}
