/**
 * How long a disagreement may last before it counts as drift, and the node timings the checks
 * use. Defaults follow upstream (KUBELET-SEMANTICS.md §5):
 * - pods: the kubelet's status manager posts a changed status right away (and re-syncs every
 *   10 s), so a pod disagreement older than a few seconds is no longer propagation;
 * - nodes: the kubelet recomputes node status every nodeStatusUpdateFrequency (10 s), so allow
 *   that plus the pod margin;
 * - the Lease: nodeLeaseDurationSeconds (40 s), unless the Lease says otherwise;
 * - a dead sandbox whose pod is gone waits for the kubelet's container GC (every minute,
 *   pkg/kubelet/kubelet.go ContainerGCPeriod), so it is expected to linger that long.
 */
export interface DriftOptions {
  podToleranceMs: number;
  nodeToleranceMs: number;
  leaseDurationSeconds: number;
  orphanGcWindowMs: number;
  /**
   * False while Podscope's own API watch is disconnected: then an old Lease says more about
   * Podscope than about the kubelet, so the kubelet-reporting check is skipped.
   */
  apiConnected: boolean;
}

export const DEFAULT_DRIFT_OPTIONS: Readonly<DriftOptions> = {
  podToleranceMs: 5_000,
  nodeToleranceMs: 15_000,
  leaseDurationSeconds: 40,
  orphanGcWindowMs: 65_000,
  apiConnected: true,
};

export function driftOptions(partial?: Partial<DriftOptions>): DriftOptions {
  return { ...DEFAULT_DRIFT_OPTIONS, ...partial };
}
