/**
 * When a pod on a not-ready node is due for eviction.
 *
 * The node lifecycle controller taints a node whose Ready condition is False
 * (`node.kubernetes.io/not-ready:NoExecute`) or Unknown (`node.kubernetes.io/unreachable:NoExecute`);
 * the taint-eviction controller deletes each pod when its matching NoExecute toleration runs out
 * (the smallest tolerationSeconds; a matching toleration without seconds tolerates forever). The
 * DefaultTolerationSeconds admission plugin gives every pod 300 s for both taints unless it already
 * tolerates them (plugin/pkg/admission/defaulttolerationseconds/admission.go), so a pod without a
 * matching toleration — e.g. an inferred spec — gets that default.
 */
import type { V1Pod, V1Toleration } from '@kubernetes/client-node';
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../controller/nodelifecycle';
import type { Explanation } from './explanation';
import type { NodeTimings } from './timings';
import { asArray, finite, isObj, specOf, str } from './util';
import { why } from './why';

export { TAINT_NOT_READY, TAINT_UNREACHABLE };

/** Why the kubelet posts Ready=False: the first of its errors (lib/kubelet/node.ts readyCauses). */
export type NodeNotReadyCause =
  | 'runtimeStatusPending'
  | 'runtimeDown'
  | 'plegNeverSucceeded'
  | 'plegUnhealthy'
  | 'runtimeNotReady'
  | 'networkNotReady'
  | 'networkUnknown';

export interface NodeReadiness {
  status: 'True' | 'False' | 'Unknown';
  /** Epoch ms since which Ready has had this status. */
  since: number;
  /**
   * Unknown only: whether the node lifecycle controller marked the node's pods not ready
   * (MarkPodsNotReady) — it does when it turns Ready from True to Unknown itself
   * (lib/controller/nodelifecycle.ts markPodsNotReadyDecision), not when the kubelet had posted
   * Ready=False before it fell silent. Absent: marked, the usual case.
   */
  podsMarked?: boolean;
  /** False only: why the kubelet reports the node not ready. */
  cause?: NodeNotReadyCause;
}

function matches(t: V1Toleration, key: string): boolean {
  if (!isObj(t)) return false;
  const effectOk = !t.effect || t.effect === 'NoExecute';
  if (!effectOk) return false;
  if (t.operator === 'Exists') return !t.key || t.key === key;
  return str(t.key) === key;
}

/** The toleration in ms the pod has for the taint, or undefined when it tolerates it forever. */
export function tolerationFor(pod: V1Pod, taintKey: string, defaultMs: number): number | undefined {
  const matching = asArray(specOf(pod).spec.tolerations).filter((t) => matches(t, taintKey));
  if (matching.length === 0) return defaultMs;
  let min = Infinity;
  for (const t of matching) {
    if (typeof t.tolerationSeconds !== 'number' || !Number.isFinite(t.tolerationSeconds))
      return undefined;
    min = Math.min(min, Math.max(0, t.tolerationSeconds) * 1000);
  }
  return min;
}

/** Epoch ms at which the pod is due for eviction from a not-ready node, or undefined. */
export function evictionDueAt(
  pod: V1Pod,
  nodeReady: NodeReadiness | undefined,
  timings: NodeTimings,
): number | undefined {
  if (!isObj(nodeReady) || nodeReady.status === 'True') return undefined;
  const unknown = nodeReady.status === 'Unknown';
  const key = unknown ? TAINT_UNREACHABLE : TAINT_NOT_READY;
  const ms = tolerationFor(
    pod,
    key,
    unknown ? timings.unreachableTolerationMs : timings.notReadyTolerationMs,
  );
  if (ms === undefined) return undefined;
  return finite(nodeReady.since, 0) + ms;
}

/** Why and when the pod is due for eviction, or undefined while the node is Ready or the pod tolerates it forever. */
export function explainEviction(
  pod: V1Pod,
  nodeReady: NodeReadiness | undefined,
  timings: NodeTimings,
): Explanation | undefined {
  const due = evictionDueAt(pod, nodeReady, timings);
  if (due === undefined || !nodeReady) return undefined;
  const taint = nodeReady.status === 'Unknown' ? TAINT_UNREACHABLE : TAINT_NOT_READY;
  return why(
    'pod.eviction.due',
    { seconds: Math.round((due - finite(nodeReady.since, 0)) / 1000), taint },
    'pkg/controller/tainteviction (NoExecute taint, tolerationSeconds)',
    { nodeReady: nodeReady.status, dueAt: due },
  );
}
