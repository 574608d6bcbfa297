/**
 * The one reducer: folds timeline events into ClusterState. The engine records with it, the
 * store checkpoints with it, the browser replays with it.
 *
 * Rules that make replay exact:
 * - An event whose seq is not above state.seq is ignored (duplicates and re-deliveries are no-ops).
 * - Every derived event is a "set": it carries the new value, never a delta to accumulate.
 * - CRI events advance seq/t only; what they meant arrives as derived events.
 * - Updates are immutable with structural sharing, so a React view can compare by reference.
 */
import type { V1ContainerStatus, V1NodeCondition, V1PodCondition } from '@kubernetes/client-node';
import type { ContainerEvent, NodeEvent, PodEvent, TimelineEvent } from './events';
import { own, type ClusterState, type NodeView, type PodView } from './state';
import type { Drift } from '../drift/types';

export function reduce(state: ClusterState, event: TimelineEvent): ClusterState {
  if (event.seq <= state.seq) return state;
  const advanced = { seq: event.seq, t: Math.max(state.t, event.t) };
  switch (event.kind) {
    case 'cri':
    case 'k8s':
      // API-server Events, like CRI events, are facts on the wire: they advance seq/t only.
      return { ...state, ...advanced };
    case 'node':
      return { ...advanced, nodes: applyNode(state.nodes, event) };
    case 'pod':
      return { ...advanced, nodes: withNode(state.nodes, event.node, (n) => applyPod(n, event)) };
    case 'container':
      return {
        ...advanced,
        nodes: withNode(state.nodes, event.node, (n) =>
          withPod(n, event.podUid, (p) => applyContainer(p, event)),
        ),
      };
  }
}

/** Folds a batch in order; a convenience for replay and checkpoints. */
export function reduceAll(state: ClusterState, events: Iterable<TimelineEvent>): ClusterState {
  let s = state;
  for (const e of events) s = reduce(s, e);
  return s;
}

function applyNode(nodes: ClusterState['nodes'], e: NodeEvent): ClusterState['nodes'] {
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
      };
      return { ...nodes, [e.node]: node };
    }
    case 'NodeRemoved': {
      if (!existing) return nodes;
      const { [e.node]: _gone, ...rest } = nodes;
      return rest;
    }
    case 'NodeUpdated': {
      if (!existing) return nodes;
      const updated: NodeView = {
        ...existing,
        ...(e.endpoint !== undefined ? { endpoint: e.endpoint } : {}),
        ...(e.runtime ? { runtime: e.runtime } : {}),
        ...(e.runtimeConditions ? { runtimeConditions: e.runtimeConditions } : {}),
        ...(e.health ? { health: e.health } : {}),
      };
      setDrift(updated, e.drift);
      if (e.usage === null) delete updated.usage;
      else if (e.usage) updated.usage = e.usage;
      return { ...nodes, [e.node]: updated };
    }
    case 'NodeConditionChanged': {
      if (!existing || !e.condition) return nodes;
      return {
        ...nodes,
        [e.node]: {
          ...existing,
          conditions: upsertCondition(existing.conditions, e.condition),
          why: e.why ? { ...existing.why, [e.condition.type]: e.why } : existing.why,
        },
      };
    }
  }
}

function applyPod(node: NodeView, e: PodEvent): NodeView {
  const existing = own(node.pods, e.podUid);
  switch (e.type) {
    case 'PodAdded':
      if (!e.pod) return node;
      return { ...node, pods: { ...node.pods, [e.podUid]: e.pod } };
    case 'PodRemoved': {
      if (!existing) return node;
      const { [e.podUid]: _gone, ...rest } = node.pods;
      return { ...node, pods: rest };
    }
    case 'PodPhaseChanged':
      if (!existing || e.phase === undefined) return node;
      return withPod(node, e.podUid, (p) => ({
        ...p,
        status: { ...p.status, phase: e.phase },
        why: e.why ? { ...p.why, phase: e.why } : p.why,
      }));
    case 'PodConditionChanged': {
      const condition = e.condition;
      if (!existing || !condition) return node;
      return withPod(node, e.podUid, (p) => ({
        ...p,
        status: { ...p.status, conditions: upsertCondition(p.status.conditions ?? [], condition) },
        why: e.why
          ? { ...p.why, conditions: { ...p.why.conditions, [condition.type]: e.why } }
          : p.why,
      }));
    }
    case 'PodUpdated':
      if (!existing || !e.patch) return node;
      return withPod(node, e.podUid, (p) => applyPodPatch(p, e.patch ?? {}));
  }
}

function applyPodPatch(p: PodView, patch: NonNullable<PodEvent['patch']>): PodView {
  const next: PodView = { ...p };
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

function applyContainer(pod: PodView, e: ContainerEvent): PodView {
  const listKey = e.list === 'init' ? 'initContainerStatuses' : 'containerStatuses';
  const current = pod.status[listKey] ?? [];
  let next: V1ContainerStatus[];
  if (e.type === 'ContainerRemoved') {
    next = current.filter((s) => s.name !== e.name);
  } else {
    if (!e.status) return pod;
    next = orderStatuses(upsertByName(current, e.status), e.list, pod);
  }
  const why = { ...pod.why.containers };
  if (e.type === 'ContainerRemoved') delete why[e.name];
  else if (e.why) why[e.name] = e.why;
  return {
    ...pod,
    status: { ...pod.status, [listKey]: next },
    why: { ...pod.why, containers: why },
  };
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
  update: (n: NodeView) => NodeView,
): ClusterState['nodes'] {
  const node = own(nodes, name);
  if (!node) return nodes;
  const next = update(node);
  return next === node ? nodes : { ...nodes, [name]: next };
}

function withPod(node: NodeView, uid: string, update: (p: PodView) => PodView): NodeView {
  const pod = own(node.pods, uid);
  if (!pod) return node;
  const next = update(pod);
  return next === pod ? node : { ...node, pods: { ...node.pods, [uid]: next } };
}
