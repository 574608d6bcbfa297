/**
 * Who writes each value Podscope shows, upstream: every derived value carries an explanation
 * (why.ts), and its id says which component's rule decided it — the kubelet's status loops, the
 * node lifecycle controller, the taint-eviction controller, the scheduler, or the API server's
 * admission plugins. docs/kubelet-semantics.md has the table by field.
 *
 * Derived from the explanation id, so recordings made before writers were named show them too.
 */
import type { Explanation } from './explanation';
import type { WhyId } from './why';

export const WRITERS = [
  'kubelet',
  'nodeLifecycleController',
  'taintEvictionController',
  'scheduler',
  'apiServerAdmission',
] as const;
export type Writer = (typeof WRITERS)[number];

/** The explanations of values the node lifecycle controller writes over the kubelet's. */
const NODE_LIFECYCLE_CONTROLLER = new Set<WhyId>([
  // pod Ready=False (MarkPodsNotReady)
  'condition.ready.nodeNotReady',
  'condition.ready.markedOnBinding',
  // node conditions Unknown (tryUpdateNodeHealth), or none yet
  'node.ready.unknown',
  'node.ready.kubeletSilent',
  'node.ready.neverContacted',
  'node.ready.startupGrace',
  'node.pressure.nodeUnknown',
]);

/** The kubelet's own values: pod phase and conditions, container states, node conditions, host IPs. */
const KUBELET_PREFIXES = [
  'phase.',
  'condition.',
  'container.',
  'node.ready.',
  'node.pressure.',
  'pod.hostIPs.',
];

/** Which component writes the value this explanation explains; undefined for none of the five. */
export function writerOf(e: Pick<Explanation, 'id'> | undefined): Writer | undefined {
  const id = e?.id;
  if (typeof id !== 'string') return undefined;
  if (NODE_LIFECYCLE_CONTROLLER.has(id as WhyId)) return 'nodeLifecycleController';
  // The deletion when a NoExecute toleration runs out (the toleration's default seconds come from
  // the DefaultTolerationSeconds admission plugin, the taint from the node lifecycle controller).
  if (id === 'pod.eviction.due') return 'taintEvictionController';
  if (KUBELET_PREFIXES.some((p) => id.startsWith(p))) return 'kubelet';
  return undefined;
}

/** writerOf for each explanation of a record, leaving out those of no known writer. */
export function writersOf(
  whys: Readonly<Record<string, Pick<Explanation, 'id'>>>,
): Record<string, Writer> {
  const out: Record<string, Writer> = {};
  for (const [k, e] of Object.entries(whys)) {
    const w = writerOf(e);
    if (w) out[k] = w;
  }
  return out;
}
