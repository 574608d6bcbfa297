/**
 * Drift reaches the timeline as "set" events: PodUpdated { patch.drift } and NodeUpdated { drift },
 * emitted only where the list changed. Parameters that only say how old a drift is (lagSeconds,
 * ageSeconds, relistSeconds) do not count as a change, or every comparison would write events.
 */
import type { NodeEvent, PodEvent } from '../timeline/events';
import type { NodeView } from '../timeline/state';
import type { ClusterDrift, Drift } from './types';

type NewNodeEvent = Omit<NodeEvent, 'seq'>;
type NewPodEvent = Omit<PodEvent, 'seq'>;

const VOLATILE_PARAMS = new Set(['lagSeconds', 'ageSeconds', 'relistSeconds']);

function signature(list: readonly Drift[] | undefined): string {
  return JSON.stringify(
    (list ?? []).map((d) => [
      d.kind,
      d.podUid,
      d.container,
      d.field,
      d.api,
      d.runtime,
      d.status,
      d.since,
      d.why.id,
      Object.entries(d.why.params ?? {}).filter(([k]) => !VOLATILE_PARAMS.has(k)),
    ]),
  );
}

export const sameDrift = (
  a: readonly Drift[] | undefined,
  b: readonly Drift[] | undefined,
): boolean => signature(a) === signature(b);

export function driftEvents(
  nodes: Readonly<Record<string, NodeView>>,
  drift: ClusterDrift,
  t: number,
): (NewNodeEvent | NewPodEvent)[] {
  const out: (NewNodeEvent | NewPodEvent)[] = [];
  for (const [name, node] of Object.entries(nodes)) {
    const want = drift.nodes[name] ?? [];
    if (!sameDrift(node.drift, want)) {
      out.push({
        kind: 'node',
        type: 'NodeUpdated',
        node: name,
        t,
        drift: want.length > 0 ? want : null,
      });
    }
    for (const [uid, pod] of Object.entries(node.pods)) {
      const wantPod = drift.pods[uid] ?? [];
      if (!sameDrift(pod.drift, wantPod)) {
        out.push({
          kind: 'pod',
          type: 'PodUpdated',
          node: name,
          podUid: uid,
          t,
          patch: { drift: wantPod.length > 0 ? wantPod : null },
        });
      }
    }
  }
  return out;
}

/** Every drift in the cluster, nodes first then their pods, for lists and counts. */
export function allDrift(nodes: Readonly<Record<string, NodeView>>): Drift[] {
  const out: Drift[] = [];
  for (const node of Object.values(nodes)) {
    out.push(...(node.drift ?? []));
    for (const pod of Object.values(node.pods)) out.push(...(pod.drift ?? []));
  }
  return out;
}
