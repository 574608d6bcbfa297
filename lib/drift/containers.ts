/**
 * Container statuses, API server vs runtime: state (and its reason) and restartCount, per
 * container name, init and regular lists compared separately.
 *
 * Which side is behind is read from the states' own times: a runtime state that began after the
 * API's state began means the kubelet has not posted it yet (staleStatus, with the lag); an API
 * state newer than the runtime's means Podscope's view of the runtime is the older one.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { explain } from '../kubelet/explanation';
import type { CompareContext, Finding } from './finding';
import { describeState, isNewer, latest, seconds, summarize, type StateSummary } from './values';

export interface PodRef {
  node: string;
  podUid: string;
  pod: string;
}

type ListKey = 'initContainerStatuses' | 'containerStatuses';

export function compareContainerLists(
  ref: PodRef,
  list: ListKey,
  api: readonly V1ContainerStatus[] | undefined,
  runtime: readonly V1ContainerStatus[] | undefined,
  ctx: CompareContext,
): Finding[] {
  const byName = (xs: readonly V1ContainerStatus[] | undefined) =>
    new Map((xs ?? []).map((s) => [s.name, s]));
  const a = byName(api);
  const r = byName(runtime);
  const names = [...new Set([...a.keys(), ...r.keys()])].sort();
  const out: Finding[] = [];
  for (const name of names) {
    out.push(...compareContainer(ref, list, name, a.get(name), r.get(name), ctx));
  }
  return out;
}

function compareContainer(
  ref: PodRef,
  list: ListKey,
  name: string,
  api: V1ContainerStatus | undefined,
  runtime: V1ContainerStatus | undefined,
  ctx: CompareContext,
): Finding[] {
  const base = { ...ref, container: name, toleranceMs: ctx.options.podToleranceMs };
  const field = `status.${list}[${name}]`;
  if (!api && !runtime) return [];
  if (!api || !runtime) {
    const present = summarize((api ?? runtime) as V1ContainerStatus);
    return [
      {
        ...base,
        kind: 'containerStateMismatch',
        field: `${field}.state`,
        api: api ? describeState(present) : null,
        runtime: runtime ? describeState(present) : null,
        why: explain(
          api ? 'drift.containerState.missingInRuntime' : 'drift.containerState.missingInApi',
          {
            container: name,
          },
        ),
      },
    ];
  }
  const a = summarize(api);
  const r = summarize(runtime);
  const out: Finding[] = [];
  const state = compareState(base, field, a, r, ctx.now);
  if (state) out.push(state);
  if (a.restartCount !== r.restartCount) {
    const runtimeAhead = r.restartCount > a.restartCount;
    out.push({
      ...base,
      kind: 'restartCountMismatch',
      field: `${field}.restartCount`,
      api: a.restartCount,
      runtime: r.restartCount,
      ...(runtimeAhead && r.at !== undefined ? { since: r.at } : {}),
      why: explain(
        runtimeAhead ? 'drift.restartCount.runtimeAhead' : 'drift.restartCount.apiAhead',
        { container: name, api: a.restartCount, runtime: r.restartCount },
      ),
    });
  }
  return out;
}

function compareState(
  base: PodRef & { container: string; toleranceMs: number },
  field: string,
  a: StateSummary,
  r: StateSummary,
  now: number,
): Finding | undefined {
  const sameState = a.state === r.state && a.reason === r.reason;
  // Same state and reason can still be two different runs: a restart the API has not heard of.
  const restartedSince =
    sameState &&
    a.state === 'running' &&
    a.at !== undefined &&
    r.at !== undefined &&
    isNewer(r.at, a.at);
  if (sameState && !restartedSince) return undefined;
  const values = { field: `${field}.state`, api: describeState(a), runtime: describeState(r) };
  const params = { container: base.container, apiState: values.api, runtimeState: values.runtime };
  const runtimeNewer = r.at !== undefined && (a.at === undefined || isNewer(r.at, a.at));
  if (runtimeNewer && r.at !== undefined) {
    const lag = { lagSeconds: seconds(now - r.at) };
    const exited = r.state === 'terminated' && r.exitCode !== undefined;
    return {
      ...base,
      ...values,
      kind: 'staleStatus',
      since: r.at,
      why: exited
        ? explain('drift.stale.containerExited', { ...params, ...lag, exitCode: r.exitCode ?? 0 })
        : restartedSince
          ? explain('drift.stale.containerRestarted', { container: base.container, ...lag })
          : explain('drift.stale.container', { ...params, ...lag }),
    };
  }
  const apiNewer = a.at !== undefined && (r.at === undefined || isNewer(a.at, r.at));
  const since = latest(a.at, r.at);
  return {
    ...base,
    ...values,
    kind: 'containerStateMismatch',
    ...(since !== undefined ? { since } : {}),
    why: explain(
      apiNewer ? 'drift.containerState.apiNewer' : 'drift.containerState.mismatch',
      params,
    ),
  };
}
