/**
 * Checking a scenario's expectations against the derived state (the engine's ClusterState: node
 * conditions, pod phases and conditions, V1ContainerStatus) — pure, so the walkthroughs in the
 * browser can use the same checks on their replayed state. Each check also says, in kubectl's
 * words, what it saw, for the runner's report.
 */
import type { V1ContainerStatus, V1PodCondition } from '@kubernetes/client-node';
import type { Drift } from '@/lib/drift/types';
import type { ClusterState, PodView } from '@/lib/timeline/state';
import type { ContainerExpectation, Expectation, NodeExpectation, PodExpectation } from './schema';

export interface EvalContext {
  state: ClusterState;
  /** The node the scenario runs on. */
  node: string;
  /** Scenario time now (for eviction: due). */
  now: number;
  /** Namespace and name of a pod key. */
  podName(ref: string): { namespace: string; name: string } | undefined;
}

export interface Check {
  ok: boolean;
  /** The expectation in words, e.g. `crasher/app: waiting CrashLoopBackOff, restarts ≥ 2`. */
  expected: string;
  /** What the state showed, e.g. `Running, restarts 1`. */
  observed: string;
}

/** The newest view of the pod with that namespace/name on the node. */
export function findPod(ctx: EvalContext, ref: string): PodView | undefined {
  const id = ctx.podName(ref);
  if (!id) return undefined;
  const pods = Object.values(ctx.state.nodes[ctx.node]?.pods ?? {}).filter(
    (p) => p.namespace === id.namespace && p.name === id.name,
  );
  return pods.sort((a, b) => b.createdAt - a.createdAt)[0];
}

export function describeContainerState(s: V1ContainerStatus | undefined): string {
  if (!s) return 'no status';
  const st = s.state;
  let current = 'unknown state';
  if (st?.running) current = 'running';
  else if (st?.terminated)
    current = `terminated ${st.terminated.reason ?? ''} (exit ${st.terminated.exitCode})`.replace(
      '  ',
      ' ',
    );
  else if (st?.waiting) current = `waiting ${st.waiting.reason ?? '(no reason)'}`;
  const last = s.lastState?.terminated
    ? `, last ${s.lastState.terminated.reason ?? ''} (exit ${s.lastState.terminated.exitCode})`.replace(
        '  ',
        ' ',
      )
    : '';
  return `${current}, restarts ${s.restartCount}${last}${s.ready ? ', ready' : ''}`;
}

function describeCondition(c: V1PodCondition | undefined, type: string): string {
  if (!c) return `${type} absent`;
  return `${type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`;
}

function containerStatus(pod: PodView, name: string): V1ContainerStatus | undefined {
  return [
    ...(pod.status.initContainerStatuses ?? []),
    ...(pod.status.containerStatuses ?? []),
  ].find((c) => c.name === name);
}

function stateOf(s: V1ContainerStatus): 'waiting' | 'running' | 'terminated' | undefined {
  if (s.state?.running) return 'running';
  if (s.state?.terminated) return 'terminated';
  if (s.state?.waiting) return 'waiting';
  return undefined;
}

function expectedContainer(e: ContainerExpectation): string {
  const parts: string[] = [];
  if (e.state) parts.push(e.state);
  if (e.reason !== undefined) parts.push(e.reason);
  if (e.exitCode !== undefined) parts.push(`exit ${e.exitCode}`);
  if (e.restartCount !== undefined) {
    parts.push(
      typeof e.restartCount === 'number'
        ? `restarts ${e.restartCount}`
        : `restarts ≥ ${e.restartCount.atLeast}`,
    );
  }
  if (e.lastState) {
    const l = [
      e.lastState.reason,
      e.lastState.exitCode !== undefined ? `exit ${e.lastState.exitCode}` : undefined,
    ];
    parts.push(`last ${l.filter(Boolean).join(' ')}`);
  }
  if (e.ready !== undefined) parts.push(e.ready ? 'ready' : 'not ready');
  if (e.started !== undefined) parts.push(e.started ? 'started' : 'not started');
  return `${e.pod}/${e.container}: ${parts.join(', ')}`;
}

function checkContainer(ctx: EvalContext, e: ContainerExpectation): Check {
  const expected = expectedContainer(e);
  const pod = findPod(ctx, e.pod);
  if (!pod) return { ok: false, expected, observed: 'pod not on the node' };
  const s = containerStatus(pod, e.container);
  const observed = describeContainerState(s);
  if (!s) return { ok: false, expected, observed };
  const current = s.state?.terminated ?? s.state?.waiting;
  const terminated = s.state?.terminated;
  let ok = true;
  if (e.state && stateOf(s) !== e.state) ok = false;
  if (e.reason !== undefined && current?.reason !== e.reason) ok = false;
  if (e.exitCode !== undefined && terminated?.exitCode !== e.exitCode) ok = false;
  if (e.restartCount !== undefined) {
    if (
      typeof e.restartCount === 'number'
        ? s.restartCount !== e.restartCount
        : s.restartCount < e.restartCount.atLeast
    )
      ok = false;
  }
  if (e.lastState) {
    const last = s.lastState?.terminated;
    if (!last) ok = false;
    else {
      if (e.lastState.reason !== undefined && last.reason !== e.lastState.reason) ok = false;
      if (e.lastState.exitCode !== undefined && last.exitCode !== e.lastState.exitCode) ok = false;
    }
  }
  if (e.ready !== undefined && s.ready !== e.ready) ok = false;
  if (e.started !== undefined && (s.started ?? false) !== e.started) ok = false;
  return { ok, expected, observed };
}

/** Drift of that kind past its propagation tolerance, in words for the report. */
function driftCheck(
  list: readonly Drift[] | undefined,
  kind: string,
): { ok: boolean; seen: string } {
  const real = (list ?? []).filter((d) => d.status === 'drift').map((d) => d.kind);
  return {
    ok: real.includes(kind as Drift['kind']),
    seen: real.length > 0 ? `drift ${[...new Set(real)].join(', ')}` : 'no drift',
  };
}

function checkNode(ctx: EvalContext, e: NodeExpectation): Check {
  const saying = e.messageContains !== undefined ? ` saying "${e.messageContains}"` : '';
  const drifting = e.drift !== undefined ? `, drift ${e.drift}` : '';
  const expected = `node ${ctx.node}: ${e.node}=${e.status}${e.reason ? ` (${e.reason})` : ''}${saying}${drifting}`;
  const view = ctx.state.nodes[ctx.node];
  const c = view?.conditions.find((x) => x.type === e.node);
  const drift = e.drift !== undefined ? driftCheck(view?.drift, e.drift) : undefined;
  const observed = `${
    c
      ? `${e.node}=${c.status}${c.reason ? ` (${c.reason})` : ''}${e.messageContains !== undefined ? `: ${c.message ?? ''}` : ''}`
      : `${e.node} absent`
  }${drift ? `, ${drift.seen}` : ''}`;
  const ok =
    c !== undefined &&
    c.status === e.status &&
    (e.reason === undefined || c.reason === e.reason) &&
    (e.messageContains === undefined || (c.message ?? '').includes(e.messageContains)) &&
    (drift?.ok ?? true);
  return { ok, expected, observed };
}

function checkPod(ctx: EvalContext, e: PodExpectation): Check {
  const parts: string[] = [];
  if (e.phase) parts.push(e.phase);
  if (e.statusReason) parts.push(`reason ${e.statusReason}`);
  if (e.condition)
    parts.push(`${e.condition}=${e.status ?? 'True'}${e.reason ? ` (${e.reason})` : ''}`);
  if (e.deleting !== undefined) parts.push(e.deleting ? 'being deleted' : 'not being deleted');
  if (e.gone) parts.push('gone');
  if (e.eviction) parts.push(`eviction ${e.eviction}`);
  if (e.drift) parts.push(`drift ${e.drift}`);
  if (e.synced) parts.push('in sync with the API server');
  const expected = `${e.pod}: ${parts.join(', ')}`;
  const pod = findPod(ctx, e.pod);
  if (!pod) return { ok: e.gone === true, expected, observed: 'not on the node' };
  const observedParts = [pod.status.phase ?? 'no phase'];
  let ok = e.gone !== true;
  if (e.phase && pod.status.phase !== e.phase) ok = false;
  if (e.statusReason) {
    observedParts.push(pod.status.reason ? `reason ${pod.status.reason}` : 'no reason');
    if (pod.status.reason !== e.statusReason) ok = false;
  }
  if (e.condition) {
    const c = pod.status.conditions?.find((x) => x.type === e.condition);
    observedParts.push(describeCondition(c, e.condition));
    if (
      !c ||
      c.status !== (e.status ?? 'True') ||
      (e.reason !== undefined && c.reason !== e.reason)
    )
      ok = false;
  }
  if (e.deleting !== undefined) {
    const deleting = pod.deletionTimestamp !== undefined;
    observedParts.push(deleting ? 'being deleted' : 'not being deleted');
    if (deleting !== e.deleting) ok = false;
  }
  if (e.eviction) {
    const due = pod.evictionDueAt;
    observedParts.push(
      due === undefined
        ? 'no eviction scheduled'
        : due <= ctx.now
          ? 'eviction due'
          : 'eviction scheduled',
    );
    if (due === undefined || (e.eviction === 'due' && due > ctx.now)) ok = false;
  }
  if (e.drift) {
    const drift = driftCheck(pod.drift, e.drift);
    observedParts.push(drift.seen);
    if (!drift.ok) ok = false;
  }
  if (e.synced) {
    const differing = [...new Set((pod.drift ?? []).map((d) => d.kind))];
    observedParts.push(
      differing.length === 0 ? 'in sync with the API server' : `differs: ${differing.join(', ')}`,
    );
    if (differing.length > 0) ok = false;
  }
  return { ok, expected, observed: observedParts.join(', ') };
}

export function check(ctx: EvalContext, e: Expectation): Check {
  if ('container' in e) return checkContainer(ctx, e);
  if ('node' in e) return checkNode(ctx, e);
  return checkPod(ctx, e);
}
