/**
 * One pod, API server vs runtime: container statuses (containers.ts), then the phase and the
 * kubelet-owned conditions, whose explanations point at the likeliest cause — the kubelet not
 * having posted yet, a terminal phase the API will never leave, readiness probes the CRI cannot
 * show, or the node controller having marked the pod not ready.
 */
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { explain } from '../kubelet/explanation';
import type { PodView } from '../timeline/state';
import { compareContainerLists, type PodRef } from './containers';
import type { CompareContext, Finding } from './finding';
import { isTerminalPhase, latest, toMs } from './values';

/** Conditions the kubelet writes (pkg/kubelet/status/generate.go + PodScheduled). */
export const KUBELET_POD_CONDITIONS = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
] as const;

export function comparePod(api: V1Pod, view: PodView, ctx: CompareContext): Finding[] {
  const ref: PodRef = { node: view.node, podUid: view.uid, pod: `${view.namespace}/${view.name}` };
  const containers = [
    ...compareContainerLists(
      ref,
      'initContainerStatuses',
      api.status?.initContainerStatuses,
      view.status.initContainerStatuses,
      ctx,
    ),
    ...compareContainerLists(
      ref,
      'containerStatuses',
      api.status?.containerStatuses,
      view.status.containerStatuses,
      ctx,
    ),
  ];
  const stale = containers.find((f) => f.kind === 'staleStatus');
  const out: Finding[] = [];
  const phase = comparePhase(ref, api.status?.phase, view.status.phase, stale, ctx);
  if (phase) out.push(phase);
  out.push(...compareConditions(ref, api, view, ctx));
  out.push(...containers);
  return out;
}

function comparePhase(
  ref: PodRef,
  apiPhase: string | undefined,
  runtimePhase: string | undefined,
  stale: Finding | undefined,
  ctx: CompareContext,
): Finding | undefined {
  if (!apiPhase || !runtimePhase || apiPhase === runtimePhase) return undefined;
  const params = { api: apiPhase, runtime: runtimePhase };
  const why = isTerminalPhase(apiPhase)
    ? explain('drift.phase.apiTerminal', params)
    : stale?.container
      ? explain('drift.phase.behind', { ...params, container: stale.container })
      : explain('drift.phase.mismatch', params);
  return {
    ...ref,
    kind: 'phaseMismatch',
    field: 'status.phase',
    api: apiPhase,
    runtime: runtimePhase,
    ...(stale?.since !== undefined && !isTerminalPhase(apiPhase) ? { since: stale.since } : {}),
    toleranceMs: ctx.options.podToleranceMs,
    why,
  };
}

function compareConditions(ref: PodRef, api: V1Pod, view: PodView, ctx: CompareContext): Finding[] {
  const apiConds = new Map((api.status?.conditions ?? []).map((c) => [c.type, c]));
  const viewConds = new Map((view.status.conditions ?? []).map((c) => [c.type, c]));
  const out: Finding[] = [];
  for (const type of KUBELET_POD_CONDITIONS) {
    const a = apiConds.get(type);
    const r = viewConds.get(type);
    // A condition only one side has is a version or feature-gate difference, not a disagreement.
    if (!a || !r || a.status === r.status) continue;
    // The two sides have disagreed since the later of their last transitions.
    const since = latest(toMs(a.lastTransitionTime), toMs(r.lastTransitionTime));
    out.push({
      ...ref,
      kind: 'conditionMismatch',
      field: `status.conditions[${type}]`,
      api: a.status,
      runtime: r.status,
      ...(since !== undefined ? { since } : {}),
      toleranceMs: ctx.options.podToleranceMs,
      why: conditionWhy(type, a, r, api, ctx),
    });
  }
  return out;
}

function conditionWhy(
  type: string,
  a: V1PodCondition,
  r: V1PodCondition,
  api: V1Pod,
  ctx: CompareContext,
) {
  const params = { type, api: a.status, runtime: r.status };
  const apiSaysNotReady =
    (type === 'Ready' || type === 'ContainersReady') && a.status === 'False' && r.status === 'True';
  if (apiSaysNotReady) {
    const nodeName = api.spec?.nodeName ?? '';
    const node = ctx.index.nodeByName.get(nodeName);
    const nodeReady = node?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    // MarkPodsNotReady (node lifecycle controller) flips Ready only, and only a node it judged
    // Unknown keeps it so: a live kubelet (Ready=False) posts its own Ready over the mark.
    if (type === 'Ready' && nodeReady === 'Unknown') {
      return explain('drift.condition.nodeController', { ...params, node: nodeName });
    }
    const probed = [...(api.spec?.containers ?? []), ...(api.spec?.initContainers ?? [])].some(
      (c) => c.readinessProbe !== undefined,
    );
    if (probed) return explain('drift.condition.probe', params);
  }
  return explain('drift.condition.mismatch', params);
}
