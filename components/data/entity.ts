/**
 * The drawn entities and their states, as the test contract names them: `data-layer`
 * node|pod|container, `data-id` node name | pod uid | `<pod uid>/<container>`, `data-state`
 * (container waiting|running|terminated, pod phase in lower case, node ready|notready|unknown)
 * and `data-reason`. Also the tone each state takes in the one palette.
 */
import type { V1ContainerStatus, V1NodeCondition } from '@kubernetes/client-node';
import type { ContainerStateName } from '@/lib/timeline/events';
import type { ClusterState, NodeView, PodView } from '@/lib/timeline/state';
import { backoffFromMessage } from '@/lib/kubelet/explain-container';
import { SYNC_ERROR_REASONS } from '@/lib/kubelet/reasons';
import type { Tone } from '@/components/visual/palette';

export type Layer = 'node' | 'pod' | 'container';

/** Waiting reasons that mean something went wrong (kubelet error names and back-offs). */
export const FAILING_WAITING_REASONS: ReadonlySet<string> = SYNC_ERROR_REASONS;

/** A time from the API shapes: a Date (revived by the codec) or an RFC 3339 string. */
export function timeOf(v: Date | string | number | undefined | null): number | undefined {
  if (v === undefined || v === null) return undefined;
  const t = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * When a crash-looping container may restart: the pod's nextRestartAt when the engine recorded
 * it, else the last exit plus the back-off the kubelet's message names ("back-off 40s …").
 */
export function nextRestartOf(
  pod: PodView,
  name: string,
  s: V1ContainerStatus | undefined,
): number | undefined {
  const recorded = pod.nextRestartAt?.[name];
  if (recorded !== undefined) return recorded;
  const waiting = s?.state?.waiting;
  if (waiting?.reason !== 'CrashLoopBackOff' || !waiting.message) return undefined;
  const finished = timeOf(s?.lastState?.terminated?.finishedAt);
  const backoff = backoffFromMessage(waiting.message);
  return finished !== undefined && backoff !== undefined ? finished + backoff : undefined;
}

export const containerDataId = (podUid: string, name: string): string => `${podUid}/${name}`;

export function containerState(s: V1ContainerStatus | undefined): ContainerStateName {
  if (s?.state?.running) return 'running';
  if (s?.state?.terminated) return 'terminated';
  return 'waiting';
}

/**
 * A running container's readiness as the prober decided it: `notstarted` (its startup probe has
 * not succeeded), `notready` (started, readiness not passed), `ready`; undefined when not running.
 * Drawn as `data-ready` and a dashed outline: "running, not ready".
 */
export type ContainerReadiness = 'ready' | 'notready' | 'notstarted';

export function containerReadiness(
  s: V1ContainerStatus | undefined,
): ContainerReadiness | undefined {
  if (!s?.state?.running) return undefined;
  if (s.started === false) return 'notstarted';
  return s.ready === true ? 'ready' : 'notready';
}

export function containerReason(s: V1ContainerStatus | undefined): string | undefined {
  const reason = s?.state?.waiting?.reason ?? s?.state?.terminated?.reason;
  return reason ? reason : undefined;
}

export function containerTone(s: V1ContainerStatus | undefined): Tone {
  if (!s) return 'unknown';
  if (s.state?.running) return 'ok';
  const term = s.state?.terminated;
  if (term) return term.exitCode === 0 ? 'done' : 'failed';
  const reason = s.state?.waiting?.reason;
  return reason && FAILING_WAITING_REASONS.has(reason) ? 'failed' : 'pending';
}

export function podState(p: PodView): string {
  return (p.status.phase ?? 'Unknown').toLowerCase();
}

const PHASE_TONE: Readonly<Record<string, Tone>> = {
  Pending: 'pending',
  Running: 'ok',
  Succeeded: 'done',
  Failed: 'failed',
};

export function phaseTone(phase: string | undefined): Tone {
  return (phase !== undefined ? PHASE_TONE[phase] : undefined) ?? 'unknown';
}

export function podTone(p: PodView): Tone {
  return phaseTone(p.status.phase);
}

export type NodeState = 'ready' | 'notready' | 'unknown';

export function nodeState(n: NodeView): NodeState {
  const ready = n.conditions.find((c) => c.type === 'Ready')?.status;
  if (ready === 'True') return 'ready';
  if (ready === 'False') return 'notready';
  return 'unknown';
}

export function nodeTone(n: NodeView): Tone {
  const s = nodeState(n);
  return s === 'ready' ? 'ok' : s === 'notready' ? 'failed' : 'unknown';
}

/** Ready is good when True; the pressure conditions and NetworkUnavailable are good when False. */
export function conditionTone(c: Pick<V1NodeCondition, 'type' | 'status'>): Tone {
  if (c.status === 'Unknown') return 'unknown';
  const good = c.type === 'Ready' ? c.status === 'True' : c.status === 'False';
  return good ? 'ok' : 'failed';
}

export interface ContainerEntry {
  name: string;
  list: 'init' | 'regular';
  sidecar: boolean;
  status: V1ContainerStatus | undefined;
}

/** A pod's containers in the order they are drawn: init containers (spec order), then the rest. */
export function podContainers(p: PodView): ContainerEntry[] {
  const init = p.status.initContainerStatuses ?? [];
  const regular = p.status.containerStatuses ?? [];
  const find = (list: V1ContainerStatus[], name: string) => list.find((s) => s.name === name);
  const seen = new Set<string>();
  const out: ContainerEntry[] = [];
  for (const c of p.spec.initContainers) {
    seen.add(c.name);
    out.push({ name: c.name, list: 'init', sidecar: c.sidecar, status: find(init, c.name) });
  }
  for (const name of p.spec.containers) {
    seen.add(name);
    out.push({ name, list: 'regular', sidecar: false, status: find(regular, name) });
  }
  // Statuses the spec does not list (an inferred spec can miss some): still draw them.
  for (const s of init)
    if (!seen.has(s.name)) out.push({ name: s.name, list: 'init', sidecar: false, status: s });
  for (const s of regular)
    if (!seen.has(s.name)) out.push({ name: s.name, list: 'regular', sidecar: false, status: s });
  return out;
}

/** Whether a pod deserves a look: a failing container, or Ready=False while not finished. */
export function podNeedsAttention(p: PodView): boolean {
  if (podContainers(p).some((c) => containerTone(c.status) === 'failed')) return true;
  if (p.status.phase === 'Failed') return true;
  const ready = p.status.conditions?.find((c) => c.type === 'Ready');
  return p.status.phase === 'Running' && ready?.status === 'False';
}

export type EntityRef =
  | { layer: 'node'; id: string; node: NodeView }
  | { layer: 'pod'; id: string; node: NodeView; pod: PodView }
  | { layer: 'container'; id: string; node: NodeView; pod: PodView; container: ContainerEntry };

/** Finds the entity a data-id names in a state (undefined when it does not exist at that moment). */
export function resolveEntity(state: ClusterState, id: string): EntityRef | undefined {
  const node = state.nodes[id];
  if (node) return { layer: 'node', id, node };
  const slash = id.indexOf('/');
  const podUid = slash < 0 ? id : id.slice(0, slash);
  for (const n of Object.values(state.nodes)) {
    const pod = n.pods[podUid];
    if (!pod) continue;
    if (slash < 0) return { layer: 'pod', id, node: n, pod };
    const name = id.slice(slash + 1);
    const container = podContainers(pod).find((c) => c.name === name);
    return container ? { layer: 'container', id, node: n, pod, container } : undefined;
  }
  return undefined;
}

/** The layer a data-id names, from its form alone (for selections of things that are gone). */
export function layerOfId(state: ClusterState, id: string): Layer {
  if (id.includes('/')) return 'container';
  return state.nodes[id] ? 'node' : 'pod';
}
