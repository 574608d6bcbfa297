/**
 * The drift list's data, pure: every drift in the cluster as a row with the entity it belongs
 * to (in the console's data-id form: node name, pod uid, `<pod uid>/<container>`), filtered and
 * ordered for reading — real drift before what is still propagating, then by kind and object.
 */
import { DRIFT_KINDS, type Drift, type DriftKind } from '@/lib/drift/types';
import type { ExplanationParam } from '@/lib/kubelet/explanation';
import type { NodeView } from '@/lib/timeline/state';

export interface DriftRow {
  key: string;
  drift: Drift;
  /** Selection id: node name, pod uid or `<pod uid>/<container>`. */
  entityId: string;
  /** What a person reads: node name, `namespace/name`, `namespace/name/container`. */
  entityLabel: string;
}

export interface DriftFilter {
  kind: DriftKind | 'all';
  includePropagating: boolean;
}

export const DEFAULT_FILTER: DriftFilter = { kind: 'all', includePropagating: false };

const kindRank = new Map<DriftKind, number>(DRIFT_KINDS.map((k, i) => [k, i]));

function rowFor(d: Drift, index: number): DriftRow {
  const podLabel = d.pod ?? d.podUid;
  // A pod the runtime does not have is not drawn: its drift lives on (and selects) the node.
  const podUid = d.kind === 'missingPod' ? undefined : d.podUid;
  const entityId = podUid ? (d.container ? `${podUid}/${d.container}` : podUid) : d.node;
  const entityLabel = podLabel ? (d.container ? `${podLabel}/${d.container}` : podLabel) : d.node;
  return {
    key: `${d.node}|${d.podUid ?? ''}|${d.container ?? ''}|${d.kind}|${d.field}|${index}`,
    drift: d,
    entityId,
    entityLabel,
  };
}

export function allRows(nodes: Readonly<Record<string, NodeView>>): DriftRow[] {
  const out: DriftRow[] = [];
  let i = 0;
  for (const node of Object.values(nodes)) {
    for (const d of node.drift ?? []) out.push(rowFor(d, i++));
    for (const pod of Object.values(node.pods))
      for (const d of pod.drift ?? []) out.push(rowFor(d, i++));
  }
  return out;
}

/**
 * Whether the drift view has anything to say at this moment: some drift (even propagating), or
 * a pod whose spec came from the API server (the API-server view is joined, so "no drift" is
 * news). Stops at the first sign; nothing to show for a cluster read from runtimes alone.
 */
export function driftRelevant(nodes: Readonly<Record<string, NodeView>>): boolean {
  for (const node of Object.values(nodes)) {
    if (node.drift && node.drift.length > 0) return true;
    for (const pod of Object.values(node.pods))
      if (pod.specSource === 'apiserver' || (pod.drift && pod.drift.length > 0)) return true;
  }
  return false;
}

/** How many real drifts (not still propagating) there are across the cluster. */
export function driftTotal(nodes: Readonly<Record<string, NodeView>>): number {
  let n = 0;
  for (const node of Object.values(nodes)) {
    n += badgeCounts(node.drift).drift;
    for (const pod of Object.values(node.pods)) n += badgeCounts(pod.drift).drift;
  }
  return n;
}

export function driftRows(
  nodes: Readonly<Record<string, NodeView>>,
  filter: DriftFilter,
): DriftRow[] {
  return allRows(nodes)
    .filter(
      (r) =>
        (filter.kind === 'all' || r.drift.kind === filter.kind) &&
        (filter.includePropagating || r.drift.status === 'drift'),
    )
    .sort(
      (a, b) =>
        (a.drift.status === b.drift.status ? 0 : a.drift.status === 'drift' ? -1 : 1) ||
        (kindRank.get(a.drift.kind) ?? 0) - (kindRank.get(b.drift.kind) ?? 0) ||
        a.drift.node.localeCompare(b.drift.node) ||
        a.entityLabel.localeCompare(b.entityLabel) ||
        a.drift.field.localeCompare(b.drift.field),
    );
}

/** How many rows of each kind there are (under the propagating choice), for the kind filter. */
export function kindCounts(
  nodes: Readonly<Record<string, NodeView>>,
  includePropagating: boolean,
): Map<DriftKind, number> {
  const counts = new Map<DriftKind, number>();
  for (const r of allRows(nodes)) {
    if (!includePropagating && r.drift.status !== 'drift') continue;
    counts.set(r.drift.kind, (counts.get(r.drift.kind) ?? 0) + 1);
  }
  return new Map(DRIFT_KINDS.filter((k) => counts.has(k)).map((k) => [k, counts.get(k) ?? 0]));
}

/**
 * The explanation's parameters as of `now`: how long ago something happened was true when the
 * drift was recorded; recompute it from `since` so the sentence stays right as time moves on.
 */
export function paramsAt(d: Drift, now: number): Record<string, ExplanationParam> {
  const params: Record<string, ExplanationParam> = { ...(d.why.params ?? {}) };
  if (d.since === undefined) return params;
  const secs = Math.max(0, Math.round((now - d.since) / 1000));
  if ('lagSeconds' in params) params.lagSeconds = secs;
  if ('ageSeconds' in params) params.ageSeconds = secs;
  return params;
}

export interface BadgeCounts {
  drift: number;
  propagating: number;
}

export function badgeCounts(drift: readonly Drift[] | undefined): BadgeCounts {
  let n = 0;
  let p = 0;
  for (const d of drift ?? []) {
    if (d.status === 'drift') n++;
    else p++;
  }
  return { drift: n, propagating: p };
}
