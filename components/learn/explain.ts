/**
 * What the walkthrough shows after a question is settled: the kubelet's own explanations for the
 * right answer at the step's moment — the `why`s lib/kubelet derived and the replayed state
 * carries (a container's state, a pod's phase or condition, a node's Ready), lib/kubelet's
 * explanation of a container's previous run, or the eviction its node's taint scheduled — as
 * data, rendered later in the reader's language.
 */
import { explainContainerState } from '@/lib/kubelet/explain-container';
import type { Explanation } from '@/lib/kubelet/explanation';
import type { Drift } from '@/lib/drift/types';
import type { ClusterState, NodeView, PodView } from '@/lib/timeline/state';
import { paramsAt } from '@/components/drift/rows';
import type { Focus, Question } from './types';

export interface Because {
  /** data-id of the entity explained. */
  entity: string;
  /** Its name as the diagram labels it. */
  name: string;
  focus: Focus;
  why: Explanation;
}

/** How many right answers get their explanation (a question rarely has more than one). */
const MAX_ENTITIES = 2;

function locate(
  state: ClusterState,
  id: string,
): { node?: NodeView; pod?: PodView; container?: string } {
  const node = state.nodes[id];
  if (node) return { node };
  const slash = id.indexOf('/');
  const uid = slash < 0 ? id : id.slice(0, slash);
  for (const n of Object.values(state.nodes)) {
    const pod = n.pods[uid];
    if (pod) return slash < 0 ? { node: n, pod } : { node: n, pod, container: id.slice(slash + 1) };
  }
  return {};
}

/**
 * Why the container's previous run ended as it did: the kubelet's explanation of that terminated
 * state (lastState.terminated), as it gave it while the run was the current one.
 */
export function lastRunWhy(pod: PodView, name: string): Explanation | undefined {
  const status = [
    ...(pod.status.initContainerStatuses ?? []),
    ...(pod.status.containerStatuses ?? []),
  ].find((c) => c.name === name);
  const last = status?.lastState?.terminated;
  if (!status || !last) return undefined;
  return explainContainerState({ ...status, state: { terminated: last }, lastState: {} });
}

/** The node's NoExecute taint, as the eviction explanation names it. */
function evictionWhy(node: NodeView, pod: PodView): Explanation | undefined {
  if (pod.evictionDueAt === undefined) return undefined;
  const ready = node.conditions.find((c) => c.type === 'Ready');
  if (!ready || ready.status === 'True') return undefined;
  const since = ready.lastTransitionTime
    ? new Date(ready.lastTransitionTime).getTime()
    : Number.NaN;
  const taint =
    ready.status === 'Unknown' ? 'node.kubernetes.io/unreachable' : 'node.kubernetes.io/not-ready';
  const params = Number.isFinite(since)
    ? { seconds: Math.round((pod.evictionDueAt - since) / 1000), taint }
    : undefined;
  return params
    ? {
        id: 'pod.eviction.due',
        params,
        rule: 'pkg/controller/tainteviction (NoExecute taint, tolerationSeconds)',
      }
    : undefined;
}

/**
 * Where the API server disagrees with the runtime about the entity, past propagation: the first
 * such drift's explanation, its ages as of the step's moment.
 */
function driftWhy(list: readonly Drift[] | undefined, now: number): Explanation | undefined {
  const d = (list ?? []).find((x) => x.status === 'drift');
  return d ? { ...d.why, params: paramsAt(d, now) } : undefined;
}

function whyOf(state: ClusterState, id: string, focus: Focus): Explanation | undefined {
  const { node, pod, container } = locate(state, id);
  if (!node) return undefined;
  if (focus === 'drift') return driftWhy(pod ? pod.drift : node.drift, state.t);
  if (!pod)
    return focus.startsWith('condition:') ? node.why[focus.slice('condition:'.length)] : undefined;
  if (container !== undefined) {
    if (focus === 'state') return pod.why.containers[container];
    if (focus === 'lastRun') return lastRunWhy(pod, container);
    return undefined;
  }
  if (focus === 'phase') return pod.why.phase;
  if (focus === 'eviction') return evictionWhy(node, pod);
  if (focus.startsWith('condition:')) return pod.why.conditions[focus.slice('condition:'.length)];
  return undefined;
}

function nameOf(state: ClusterState, id: string): string {
  const { node, pod, container } = locate(state, id);
  if (container !== undefined) return container;
  if (pod) return `${pod.namespace}/${pod.name}`;
  return node?.name ?? id;
}

/** The explanations for a settled question, drawn from the replayed state at the step's moment. */
export function explanations(q: Question, state: ClusterState): Because[] {
  const ids = q.kind === 'entity' ? q.answers.slice(0, MAX_ENTITIES) : [q.entity];
  const out: Because[] = [];
  for (const entity of ids) {
    for (const focus of q.focus) {
      const why = whyOf(state, entity, focus);
      if (why) out.push({ entity, name: nameOf(state, entity), focus, why });
    }
  }
  return out;
}
