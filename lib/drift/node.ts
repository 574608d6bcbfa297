/**
 * One node, API server vs runtime: the node conditions both sides have, and whether the kubelet
 * is still reporting at all. The node lifecycle controller treats a node as heard from when its
 * Lease is renewed or its status heartbeat moves (pkg/controller/nodelifecycle
 * tryUpdateNodeHealth), so the last report is the later of the two; past the Lease duration
 * (40 s by default) the kubelet has missed several renewals (it renews every 10 s).
 */
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { explain } from '../kubelet/explanation';
import type { NodeView } from '../timeline/state';
import type { CompareContext, Finding } from './finding';
import { iso, latest, seconds, toMs } from './values';

export const COMPARED_NODE_CONDITIONS = [
  'Ready',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
  'NetworkUnavailable',
] as const;

/** The reason the node controller writes when it takes over a silent node's conditions. */
export const NODE_STATUS_UNKNOWN = 'NodeStatusUnknown';

export function compareNode(
  api: V1Node,
  lease: V1Lease | undefined,
  view: NodeView,
  ctx: CompareContext,
): Finding[] {
  const out = compareNodeConditions(api, view, ctx);
  if (ctx.options.apiConnected) {
    const silent = kubeletSilence(api, lease, view, ctx);
    if (silent) out.unshift(silent);
  }
  return out;
}

function compareNodeConditions(api: V1Node, view: NodeView, ctx: CompareContext): Finding[] {
  const apiConds = new Map((api.status?.conditions ?? []).map((c) => [c.type, c]));
  const viewConds = new Map(view.conditions.map((c) => [c.type, c]));
  const out: Finding[] = [];
  for (const type of COMPARED_NODE_CONDITIONS) {
    const a = apiConds.get(type);
    const r = viewConds.get(type);
    if (!a || !r || a.status === r.status) continue;
    const since = latest(toMs(a.lastTransitionTime), toMs(r.lastTransitionTime));
    const params = { type, api: a.status, runtime: r.status, node: view.name };
    out.push({
      node: view.name,
      kind: 'nodeConditionMismatch',
      field: `status.conditions[${type}]`,
      api: a.status,
      runtime: r.status,
      ...(since !== undefined ? { since } : {}),
      toleranceMs: ctx.options.nodeToleranceMs,
      why:
        a.status === 'Unknown' && a.reason === NODE_STATUS_UNKNOWN
          ? explain('drift.nodeCondition.controller', params)
          : explain('drift.nodeCondition.mismatch', params),
    });
  }
  return out;
}

function kubeletSilence(
  api: V1Node,
  lease: V1Lease | undefined,
  view: NodeView,
  ctx: CompareContext,
): Finding | undefined {
  const renewed = toMs(lease?.spec?.renewTime);
  const heartbeat = toMs(
    api.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime,
  );
  const last = Math.max(renewed ?? -Infinity, heartbeat ?? -Infinity);
  if (!Number.isFinite(last)) return undefined;
  const leaseSeconds = lease?.spec?.leaseDurationSeconds ?? ctx.options.leaseDurationSeconds;
  const age = ctx.now - last;
  if (age <= leaseSeconds * 1000) return undefined;
  const viaLease = renewed !== undefined && renewed >= (heartbeat ?? -Infinity);
  const params = { node: view.name, ageSeconds: seconds(age), leaseSeconds };
  const relist = view.health.lastRelistAt;
  const runtimeAlive = view.health.connected && relist !== undefined;
  return {
    node: view.name,
    kind: 'kubeletNotReporting',
    field: viaLease ? 'lease.spec.renewTime' : 'status.conditions[Ready].lastHeartbeatTime',
    api: iso(last),
    // Whether the runtime still answers Podscope: the contrast that says which half went quiet.
    runtime: view.health.connected,
    since: last,
    toleranceMs: leaseSeconds * 1000,
    why: runtimeAlive
      ? explain('drift.kubelet.silentRuntimeAlive', {
          ...params,
          relistSeconds: seconds(ctx.now - relist),
        })
      : explain('drift.kubelet.silent', params),
  };
}
