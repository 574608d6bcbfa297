/**
 * Drift: a place where the API server and the runtime (as Podscope derives it with the
 * kubelet's rules) disagree about the same pod or node. Each drift names the field, carries both
 * values and says why in an Explanation (messages/<locale>/why.json, `drift.*`).
 *
 * Drift is data on the timeline (PodView.drift, NodeView.drift), so it is plain JSON: numbers
 * for times (epoch ms), strings for values, no Dates.
 */
import type { Explanation } from '../kubelet/explanation';

export const DRIFT_KINDS = [
  /** The API status is older than what the runtime shows (the kubelet has not posted it yet). */
  'staleStatus',
  /** The node's kubelet stopped renewing its Lease / posting status. */
  'kubeletNotReporting',
  /** A sandbox on the node whose pod uid the API server does not have (or binds elsewhere). */
  'orphanSandbox',
  /** The API server has a pod bound to the node; the runtime has no sandbox for it. */
  'missingPod',
  'phaseMismatch',
  'conditionMismatch',
  'restartCountMismatch',
  'containerStateMismatch',
  'nodeConditionMismatch',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

export const isDriftKind = (v: unknown): v is DriftKind =>
  typeof v === 'string' && (DRIFT_KINDS as readonly string[]).includes(v);

/** A compared value as kubectl would print it; null = that side has nothing. */
export type DriftValue = string | number | boolean | null;

/**
 * `propagating`: the disagreement is younger than the normal status-propagation lag (the kubelet
 * posts status asynchronously), so it is expected to resolve by itself. `drift`: older than that.
 */
export const DRIFT_STATUSES = ['propagating', 'drift'] as const;
export type DriftStatus = (typeof DRIFT_STATUSES)[number];

export interface Drift {
  kind: DriftKind;
  /** The node the entity lives on (runtime side) or is bound to (API side). */
  node: string;
  /** Runtime pod uid (the sandbox's io.kubernetes.pod.uid) or, for missing pods, the API uid. */
  podUid?: string;
  /** `namespace/name`. */
  pod?: string;
  container?: string;
  /** What was compared, in API terms: `status.phase`, `status.conditions[Ready]`, `lease.spec.renewTime` … */
  field: string;
  /** What the API server says. */
  api: DriftValue;
  /** What Podscope derives from the runtime. */
  runtime: DriftValue;
  status: DriftStatus;
  /** Epoch ms the disagreement began, as far as known (runtime evidence, or first seen). */
  since?: number;
  why: Explanation;
}

/** Drift across the cluster: pods keyed by runtime pod uid, nodes by name. */
export interface ClusterDrift {
  pods: Record<string, Drift[]>;
  nodes: Record<string, Drift[]>;
}

/** A stable identity for one disagreement, used to remember when it was first seen. */
export function driftKey(
  d: Pick<Drift, 'kind' | 'node' | 'podUid' | 'container' | 'field'>,
): string {
  return [d.node, d.podUid ?? '', d.container ?? '', d.kind, d.field].join('|');
}
