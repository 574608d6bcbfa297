/**
 * Turns "what the pod looked like" and "what it looks like now" into derived timeline events.
 * Pure. The engine's state is only ever changed by folding these events through the shared
 * reducer, so whatever this function leaves out, the timeline (and every browser) never sees.
 */
import type { V1ContainerStatus, V1PodCondition } from '@kubernetes/client-node';
import type { ContainerStateName, PodPatch, UnsequencedEvent } from '@/lib/timeline/events';
import type { PodView } from '@/lib/timeline/state';
import { jsonEqual } from './json-equal';

export interface EventContext {
  t: number;
  node: string;
  /** seq of the pod's first CRI event in this relist (the default cause). */
  podCause?: number;
  /** Container name → seq of its CRI event in this relist. */
  containerCause?: ReadonlyMap<string, number>;
}

export function containerStateName(
  s: V1ContainerStatus | undefined,
): ContainerStateName | undefined {
  if (!s?.state) return undefined;
  if (s.state.running) return 'running';
  if (s.state.terminated) return 'terminated';
  if (s.state.waiting) return 'waiting';
  return undefined;
}

const stateReason = (s: V1ContainerStatus) =>
  s.state?.waiting?.reason ?? s.state?.terminated?.reason ?? '';
const stateKey = (s: V1ContainerStatus) =>
  `${containerStateName(s) ?? ''}|${stateReason(s)}|${s.state?.terminated?.exitCode ?? ''}|${s.containerID ?? ''}`;
/** Equal as encoded (what the timeline would record), compared without encoding. */
const same = (a: unknown, b: unknown) => jsonEqual(a, b);

export function podEvents(
  prev: PodView | undefined,
  next: PodView,
  ctx: EventContext,
): UnsequencedEvent[] {
  const base = { t: ctx.t, node: ctx.node, podUid: next.uid };
  const cause = (name?: string) => {
    const c = (name !== undefined ? ctx.containerCause?.get(name) : undefined) ?? ctx.podCause;
    return c === undefined ? {} : { cause: c };
  };
  if (!prev) return [{ ...base, kind: 'pod', type: 'PodAdded', pod: next, ...cause() }];

  const out: UnsequencedEvent[] = [];
  for (const list of ['init', 'regular'] as const) {
    const key = list === 'init' ? 'initContainerStatuses' : 'containerStatuses';
    const before = new Map((prev.status[key] ?? []).map((s) => [s.name, s]));
    for (const status of next.status[key] ?? []) {
      const old = before.get(status.name);
      before.delete(status.name);
      const why = next.why.containers[status.name];
      const changedWhy = !same(prev.why.containers[status.name], why);
      if (old && same(old, status) && !changedWhy) continue;
      const to = containerStateName(status);
      const from = containerStateName(old);
      const stateChanged = !old || stateKey(old) !== stateKey(status);
      out.push({
        ...base,
        kind: 'container',
        type: stateChanged ? 'ContainerStateChanged' : 'ContainerStatusChanged',
        list,
        name: status.name,
        status,
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(why ? { why } : {}),
        ...cause(status.name),
      });
    }
    for (const name of before.keys()) {
      out.push({
        ...base,
        kind: 'container',
        type: 'ContainerRemoved',
        list,
        name,
        ...cause(name),
      });
    }
  }

  if (prev.status.phase !== next.status.phase) {
    out.push({
      ...base,
      kind: 'pod',
      type: 'PodPhaseChanged',
      phase: next.status.phase ?? 'Pending',
      ...(prev.status.phase ? { from: prev.status.phase } : {}),
      why: next.why.phase,
      ...cause(),
    });
  }

  const oldConditions = new Map((prev.status.conditions ?? []).map((c) => [c.type, c]));
  for (const condition of next.status.conditions ?? []) {
    const old = oldConditions.get(condition.type);
    const why = next.why.conditions[condition.type];
    if (old && conditionSame(old, condition) && same(prev.why.conditions[condition.type], why))
      continue;
    out.push({
      ...base,
      kind: 'pod',
      type: 'PodConditionChanged',
      condition,
      ...(old ? { from: old.status } : {}),
      ...(why ? { why } : {}),
      ...cause(),
    });
  }

  const patch = podPatch(prev, next);
  if (patch) out.push({ ...base, kind: 'pod', type: 'PodUpdated', patch, ...cause() });
  return out;
}

/** A condition "changes" when what it says changes; probe and heartbeat times alone do not count. */
function conditionSame(a: V1PodCondition, b: V1PodCondition): boolean {
  return a.status === b.status && a.reason === b.reason && a.message === b.message;
}

const STATUS_SCALARS = [
  'podIP',
  'podIPs',
  'hostIP',
  'hostIPs',
  'startTime',
  'qosClass',
  'reason',
  'message',
] as const;

function podPatch(prev: PodView, next: PodView): PodPatch | undefined {
  const patch: PodPatch = {};
  if (prev.specSource !== next.specSource) patch.specSource = next.specSource;
  if (!same(prev.spec, next.spec)) patch.spec = next.spec;
  if (prev.evictionDueAt !== next.evictionDueAt) patch.evictionDueAt = next.evictionDueAt ?? null;
  if (prev.deletionTimestamp !== next.deletionTimestamp)
    patch.deletionTimestamp = next.deletionTimestamp ?? null;
  if (!same(prev.nextRestartAt, next.nextRestartAt))
    patch.nextRestartAt = next.nextRestartAt ?? null;
  if (prev.status.phase === next.status.phase && !same(prev.why.phase, next.why.phase))
    patch.whyPhase = next.why.phase;
  const status: Record<string, unknown> = {};
  for (const k of STATUS_SCALARS)
    if (!same(prev.status[k], next.status[k])) status[k] = next.status[k];
  if (Object.keys(status).length > 0) patch.status = status;
  return Object.keys(patch).length > 0 ? patch : undefined;
}
