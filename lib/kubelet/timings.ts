/**
 * Every period the rules depend on, with upstream defaults (KUBELET-SEMANTICS.md §4–5):
 * - pkg/kubelet/pleg/generic.go: relist every 1 s, unhealthy after 3 min without a relist;
 * - pkg/kubelet/kubelet.go: maxWaitForContainerRuntime 30 s ("container runtime is down"),
 *   containerBackOffPeriod 10 s, MaxContainerBackOff 300 s;
 * - kubelet config v1beta1 defaults: nodeStatusUpdateFrequency 10 s, nodeStatusReportFrequency
 *   5 min, nodeLeaseDurationSeconds 40 s, evictionPressureTransitionPeriod 5 min;
 * - kube-controller-manager nodelifecycle: node-monitor-grace-period 50 s (since v1.32,
 *   PR kubernetes#126287; 40 s before);
 * - kube-apiserver DefaultTolerationSeconds admission: not-ready and unreachable NoExecute
 *   tolerations of 300 s.
 */
import { finite, isObj } from './util';

export interface NodeTimings {
  plegRelistPeriodMs: number;
  plegRelistThresholdMs: number;
  runtimeSyncThresholdMs: number;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationMs: number;
  nodeMonitorGracePeriodMs: number;
  notReadyTolerationMs: number;
  unreachableTolerationMs: number;
  evictionPressureTransitionPeriodMs: number;
  containerBackOffInitialMs: number;
  containerBackOffMaxMs: number;
  /** Optional: sets both tolerations at once, in seconds (the apiserver flags are in seconds). */
  tolerationSeconds?: number;
}

export const DEFAULT_NODE_TIMINGS: Readonly<NodeTimings> = Object.freeze({
  plegRelistPeriodMs: 1_000,
  plegRelistThresholdMs: 180_000,
  runtimeSyncThresholdMs: 30_000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 300_000,
  nodeLeaseDurationMs: 40_000,
  nodeMonitorGracePeriodMs: 50_000,
  notReadyTolerationMs: 300_000,
  unreachableTolerationMs: 300_000,
  evictionPressureTransitionPeriodMs: 300_000,
  containerBackOffInitialMs: 10_000,
  containerBackOffMaxMs: 300_000,
});

/** Defaults overlaid with the given periods; non-finite or negative values fall back to the default. */
export function resolveTimings(partial?: Partial<NodeTimings>): NodeTimings {
  const out: NodeTimings = { ...DEFAULT_NODE_TIMINGS };
  if (!isObj(partial)) return out;
  const tol = finite(partial.tolerationSeconds, -1);
  if (tol >= 0) {
    out.notReadyTolerationMs = tol * 1000;
    out.unreachableTolerationMs = tol * 1000;
  }
  for (const key of Object.keys(DEFAULT_NODE_TIMINGS) as (keyof typeof DEFAULT_NODE_TIMINGS)[]) {
    if (key === 'notReadyTolerationMs' || key === 'unreachableTolerationMs') {
      if (tol >= 0 && partial[key] === DEFAULT_NODE_TIMINGS[key]) continue; // tolerationSeconds wins over a spread default
    }
    const v = finite(partial[key], -1);
    if (v >= 0) out[key] = v;
  }
  return out;
}
