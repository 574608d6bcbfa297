/**
 * The one reducer: folds timeline events into ClusterState. The engine records with it, the
 * store checkpoints with it, the browser replays with it.
 *
 * Rules that make replay exact:
 * - An event whose seq is not above state.seq is ignored (duplicates and re-deliveries are no-ops).
 * - Every derived event is a "set": it carries the new value, never a delta to accumulate.
 * - CRI events advance seq/t only; what they meant arrives as derived events.
 * - Updates are immutable with structural sharing, so a React view can compare by reference.
 *
 * `reduceAll` folds a batch with the same result as `reduce` event by event, but copies each
 * node map and pod map it changes once per batch, not once per event: maps and node views it
 * created itself during the batch (`Fresh`) are unseen by anyone else until it returns, so it
 * updates those in place. A relist's ~100 events on a 110-pod node copied the pod map ~100 times.
 */
import type { V1ContainerStatus, V1NodeCondition, V1PodCondition } from '@kubernetes/client-node';
import type { ContainerEvent, NodeEvent, PodEvent, TimelineEvent } from './events';
import { own, setOwn, type ClusterState, type NodeView, type PodView } from './state';
import type { Drift } from '../drift/types';

export function reduce(state: ClusterState, event: TimelineEvent): ClusterState {
  return fold(state, event, undefined);
}

/** Folds a batch in order: the same state as `reduce` event by event (see the header). */
export function reduceAll(state: ClusterState, events: Iterable<TimelineEvent>): ClusterState {
  const fresh: Fresh = new WeakSet();
  let s = state;
  for (const e of events) s = fold(s, e, fresh);
  return s;
}

/**
 * Objects this fold created (node and pod maps, node and pod views, a pod's status and why and
 * their maps), which it may still change in place; undefined: copy on every change. Weak, so a
 * long fold (a whole file in the browser) does not keep what it replaced alive.
 */
type Fresh = WeakSet<object> | undefined;

/** `{ ...record, [key]: value }`, in place when the record is fresh. */
function put<V>(record: Record<string, V>, key: string, value: V, fresh: Fresh): Record<string, V> {
  if (fresh?.has(record)) {
    // As the spread below would: an own property even for "__proto__", never the setter.
    setOwn(record, key, value);
    return record;
  }
  const copy = { ...record, [key]: value };
  fresh?.add(copy);
  return copy;
}

/** A shallow copy of `o` (a pod view, its status or why, or a map in them); `o` itself when fresh. */
function copied<T extends object>(o: T, fresh: Fresh): T {
  if (fresh?.has(o)) return o;
  const copy = { ...o };
  fresh?.add(copy);
  return copy;
}

/** The record without `key` (whose presence the caller checked), in place when fresh. */
function drop<V>(record: Record<string, V>, key: string, fresh: Fresh): Record<string, V> {
  if (fresh?.has(record)) {
    delete record[key];
    return record;
  }
  const { [key]: _gone, ...rest } = record;
  fresh?.add(rest);
  return rest;
}

function fold(state: ClusterState, event: TimelineEvent, fresh: Fresh): ClusterState {
  if (event.seq <= state.seq) return state;
  const advanced = { seq: event.seq, t: Math.max(state.t, event.t) };
  switch (event.kind) {
    case 'cri':
    case 'k8s':
      // API-server Events, like CRI events, are facts on the wire: they advance seq/t only.
      return { ...state, ...advanced };
    case 'node':
      return { ...advanced, nodes: applyNode(state.nodes, event, fresh) };
    case 'pod':
      return {
        ...advanced,
        nodes: withNode(state.nodes, event.node, fresh, (n) => applyPod(n, event, fresh)),
      };
    case 'container':
      return {
        ...advanced,
        nodes: withNode(state.nodes, event.node, fresh, (n) =>
          withPod(n, event.podUid, fresh, (p) => applyContainer(p, event, fresh)),
        ),
      };
  }
}

function applyNode(
  nodes: ClusterState['nodes'],
  e: NodeEvent,
  fresh: Fresh,
): ClusterState['nodes'] {
  const existing = own(nodes, e.node);
  switch (e.type) {
    case 'NodeAdded': {
      const node: NodeView = {
        name: e.node,
        endpoint: e.endpoint ?? existing?.endpoint ?? '',
        runtimeConditions: e.runtimeConditions ?? existing?.runtimeConditions ?? [],
        conditions: existing?.conditions ?? [],
        why: existing?.why ?? {},
        health: e.health ?? existing?.health ?? { connected: false },
        pods: existing?.pods ?? {},
        ...(e.runtime
          ? { runtime: e.runtime }
          : existing?.runtime
            ? { runtime: existing.runtime }
            : {}),
        ...(e.kubelet
          ? { kubelet: e.kubelet }
          : existing?.kubelet
            ? { kubelet: existing.kubelet }
            : {}),
      };
      return put(nodes, e.node, node, fresh);
    }
    case 'NodeRemoved': {
      if (!existing) return nodes;
      return drop(nodes, e.node, fresh);
    }
    case 'NodeUpdated': {
      if (!existing) return nodes;
      const updated: NodeView = {
        ...existing,
        ...(e.endpoint !== undefined ? { endpoint: e.endpoint } : {}),
        ...(e.runtime ? { runtime: e.runtime } : {}),
        ...(e.runtimeConditions ? { runtimeConditions: e.runtimeConditions } : {}),
        ...(e.health ? { health: e.health } : {}),
        ...(e.kubelet ? { kubelet: e.kubelet } : {}),
      };
      setDrift(updated, e.drift);
      if (e.usage === null) delete updated.usage;
      else if (e.usage) updated.usage = e.usage;
      return put(nodes, e.node, updated, fresh);
    }
    case 'NodeConditionChanged': {
      if (!existing || !e.condition) return nodes;
      return put(
        nodes,
        e.node,
        {
          ...existing,
          conditions: upsertCondition(existing.conditions, e.condition),
          why: e.why ? { ...existing.why, [e.condition.type]: e.why } : existing.why,
        },
        fresh,
      );
    }
  }
}

function applyPod(node: NodeView, e: PodEvent, fresh: Fresh): NodeView {
  const existing = own(node.pods, e.podUid);
  switch (e.type) {
    case 'PodAdded':
      if (!e.pod) return node;
      return withPods(node, put(node.pods, e.podUid, e.pod, fresh), fresh);
    case 'PodRemoved': {
      if (!existing) return node;
      return withPods(node, drop(node.pods, e.podUid, fresh), fresh);
    }
    case 'PodPhaseChanged': {
      const phase = e.phase;
      if (!existing || phase === undefined) return node;
      return withPod(node, e.podUid, fresh, (p) => {
        const next = copied(p, fresh);
        next.status = copied(p.status, fresh);
        next.status.phase = phase;
        if (e.why) {
          next.why = copied(p.why, fresh);
          next.why.phase = e.why;
        }
        return next;
      });
    }
    case 'PodConditionChanged': {
      const condition = e.condition;
      if (!existing || !condition) return node;
      return withPod(node, e.podUid, fresh, (p) => {
        const next = copied(p, fresh);
        next.status = copied(p.status, fresh);
        next.status.conditions = upsertCondition(p.status.conditions ?? [], condition);
        if (e.why) {
          next.why = copied(p.why, fresh);
          next.why.conditions = put(p.why.conditions, condition.type, e.why, fresh);
        }
        return next;
      });
    }
    case 'PodUpdated':
      if (!existing || !e.patch) return node;
      return withPod(node, e.podUid, fresh, (p) => applyPodPatch(p, e.patch ?? {}, fresh));
  }
}

function applyPodPatch(p: PodView, patch: NonNullable<PodEvent['patch']>, fresh: Fresh): PodView {
  const next = copied(p, fresh);
  if (patch.specSource) next.specSource = patch.specSource;
  if (patch.spec) next.spec = patch.spec;
  if (patch.status) next.status = { ...p.status, ...patch.status };
  if (patch.whyPhase) next.why = { ...p.why, phase: patch.whyPhase };
  setOrClear(next, 'evictionDueAt', patch.evictionDueAt);
  setOrClear(next, 'nextRestartAt', patch.nextRestartAt);
  setOrClear(next, 'deletionTimestamp', patch.deletionTimestamp);
  setDrift(next, patch.drift);
  return next;
}

/** Drift is a "set" like every patch field: a list replaces, [] or null removes the field. */
function setDrift(target: PodView | NodeView, drift: Drift[] | null | undefined): void {
  if (drift === undefined) return;
  if (drift === null || drift.length === 0) delete target.drift;
  else target.drift = drift;
}

function setOrClear<K extends 'evictionDueAt' | 'nextRestartAt' | 'deletionTimestamp'>(
  target: PodView,
  key: K,
  value: PodView[K] | null | undefined,
): void {
  if (value === undefined) return;
  if (value === null) delete target[key];
  else target[key] = value;
}

function applyContainer(pod: PodView, e: ContainerEvent, fresh: Fresh): PodView {
  const listKey = e.list === 'init' ? 'initContainerStatuses' : 'containerStatuses';
  const current = pod.status[listKey] ?? [];
  let list: V1ContainerStatus[];
  if (e.type === 'ContainerRemoved') {
    list = current.filter((s) => s.name !== e.name);
  } else {
    if (!e.status) return pod;
    list = orderStatuses(upsertByName(current, e.status), e.list, pod);
  }
  const next = copied(pod, fresh);
  next.status = copied(pod.status, fresh);
  next.status[listKey] = list;
  const why = copied(pod.why.containers, fresh);
  if (e.type === 'ContainerRemoved') delete why[e.name];
  else if (e.why) why[e.name] = e.why;
  next.why = copied(pod.why, fresh);
  next.why.containers = why;
  return next;
}

/** Upstream orders init statuses like spec.initContainers and sorts the others by name. */
function orderStatuses(
  list: V1ContainerStatus[],
  which: 'init' | 'regular',
  pod: PodView,
): V1ContainerStatus[] {
  if (which === 'regular')
    return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const order = new Map(pod.spec.initContainers.map((c, i) => [c.name, i]));
  const rank = (name: string) => order.get(name) ?? Number.MAX_SAFE_INTEGER;
  return list.sort((a, b) => rank(a.name) - rank(b.name));
}

function upsertByName(list: V1ContainerStatus[], status: V1ContainerStatus): V1ContainerStatus[] {
  const i = list.findIndex((s) => s.name === status.name);
  if (i < 0) return [...list, status];
  const copy = list.slice();
  copy[i] = status;
  return copy;
}

function upsertCondition<C extends V1PodCondition | V1NodeCondition>(list: C[], condition: C): C[] {
  const i = list.findIndex((c) => c.type === condition.type);
  if (i < 0) return [...list, condition];
  const copy = list.slice();
  copy[i] = condition;
  return copy;
}

function withNode(
  nodes: ClusterState['nodes'],
  name: string,
  fresh: Fresh,
  update: (n: NodeView) => NodeView,
): ClusterState['nodes'] {
  const node = own(nodes, name);
  if (!node) return nodes;
  const next = update(node);
  return next === node ? nodes : put(nodes, name, next, fresh);
}

function withPod(
  node: NodeView,
  uid: string,
  fresh: Fresh,
  update: (p: PodView) => PodView,
): NodeView {
  const pod = own(node.pods, uid);
  if (!pod) return node;
  const next = update(pod);
  return next === pod ? node : withPods(node, put(node.pods, uid, next, fresh), fresh);
}

/**
 * The node with this pod map. A fresh node changes in place and comes back as itself, which
 * withNode reads as "unchanged" — right, as the node map already holds it.
 */
function withPods(node: NodeView, pods: NodeView['pods'], fresh: Fresh): NodeView {
  if (fresh?.has(node)) {
    node.pods = pods;
    return node;
  }
  const copy = { ...node, pods };
  fresh?.add(copy);
  return copy;
}
