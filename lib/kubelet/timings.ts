/**
 * The one home of the kubelet's (and its neighbours') periods. Everything else derives from
 * KUBELET_DEFAULTS: the rules' NodeTimings, the engine's periods (server/engine/timings.ts, hence
 * the configuration defaults), the driver's and the back-off's defaults. Upstream sources
 * (kubernetes/kubernetes, read at the commits listed in docs/kubelet-semantics.md):
 * - pkg/kubelet/pleg/generic.go, pkg/kubelet/kubelet.go: genericPlegRelistPeriod 1 s,
 *   genericPlegRelistThreshold 3 min; maxWaitForContainerRuntime 30 s ("container runtime is
 *   down"); backOffPeriod 10 s and MaxContainerBackOff 300 s (the container and image back-offs);
 * - pkg/kubelet/kubelet.go @ 000d95431f9f9ef4bb8298f8b78684eacbb18fa0 (NewMainKubelet): the
 *   container back-off is flowcontrol.NewBackOff(base, boMax) with
 *   `HasExpiredFunc = eventTime.Sub(lastUpdate) > 600*time.Second` — its entries reset (and are
 *   garbage-collected by HandlePodCleanups' backOff.GC()) 600 s after the last restart whatever
 *   the maximum; with the KubeletCrashLoopBackOffMax gate (beta, on since 1.35) boMax is the
 *   kubelet configuration's crashLoopBackOff.maxContainerRestartPeriod (default MaxContainerBackOff,
 *   pkg/kubelet/apis/config/v1beta1/defaults.go; validated to 1 s–300 s,
 *   pkg/kubelet/apis/config/validation/validation.go @ 001332b0422071acf4860769f18e34b5e9b7c1bc)
 *   and the first window is min(10 s, boMax). The image pull back-off keeps client-go's own rule:
 *   reset after 2 × max without an update (util/flowcontrol/backoff.go hasExpired);
 * - pkg/kubelet/apis/config/v1beta1/defaults.go: syncFrequency 1 min, nodeStatusUpdateFrequency
 *   10 s, nodeStatusReportFrequency 5 min, evictionPressureTransitionPeriod 5 min;
 * - pkg/controller/nodelifecycle/config/v1alpha1/defaults.go: node-monitor-grace-period 50 s
 *   (since v1.32, PR kubernetes#126287; 40 s before), node-startup-grace-period 60 s;
 * - plugin/pkg/admission/defaulttolerationseconds/admission.go: not-ready and unreachable
 *   NoExecute tolerations of 300 s.
 */
import { finite, isObj } from './util';

export const KUBELET_DEFAULTS = Object.freeze({
  /** genericPlegRelistPeriod: the PLEG lists the runtime this often. */
  plegRelistPeriodMs: 1_000,
  /** genericPlegRelistThreshold: PLEG unhealthy after this long without a relist. */
  plegRelistThresholdMs: 180_000,
  /** maxWaitForContainerRuntime: "container runtime is down" after this long without a Status. */
  runtimeSyncThresholdMs: 30_000,
  /** syncFrequency: a pod worker's periodic resync. */
  syncFrequencyMs: 60_000,
  /** nodeStatusUpdateFrequency: how often the kubelet reads the runtime's Status. */
  nodeStatusUpdateFrequencyMs: 10_000,
  /** nodeStatusReportFrequency: an unchanged node status is still posted this often. */
  nodeStatusReportFrequencyMs: 300_000,
  /** kube-controller-manager --node-monitor-grace-period. */
  nodeMonitorGracePeriodMs: 50_000,
  /** kube-controller-manager --node-startup-grace-period: a node never heard from has no conditions this long. */
  nodeStartupGracePeriodMs: 60_000,
  /** DefaultTolerationSeconds for the not-ready and unreachable NoExecute taints. */
  tolerationSeconds: 300,
  /** evictionPressureTransitionPeriod: a pressure condition stays this long after it clears. */
  evictionPressureTransitionPeriodMs: 300_000,
  /** backOffPeriod: the first container restart and image pull back-off, and a failed sync's retry. */
  backOffPeriodMs: 10_000,
  /** evictionMonitoringPeriod (kubelet.go): the eviction manager reads resource usage this often. */
  evictionMonitoringPeriodMs: 10_000,
  /** MaxContainerBackOff: the back-offs stop doubling here (the image back-off always). */
  maxContainerBackOffMs: 300_000,
  /** crashLoopBackOff.maxContainerRestartPeriod: the container back-off's maximum on a node. */
  maxContainerRestartPeriodMs: 300_000,
  /** The kubelet's HasExpiredFunc: a container back-off entry resets this long after its last restart. */
  containerBackOffResetMs: 600_000,
});

/** validation.go: crashLoopBackOff.maxContainerRestartPeriod must be within 1 s–300 s. */
export const MAX_CONTAINER_RESTART_PERIOD_RANGE_MS = Object.freeze({ min: 1_000, max: 300_000 });

/**
 * newCrashLoopBackOff (kubelet.go): the container back-off's first window and maximum for a node's
 * crashLoopBackOff.maxContainerRestartPeriod — the maximum as configured, the first window 10 s
 * unless the maximum is shorter. Throws a RangeError outside 1 s–300 s, as the kubelet refuses
 * such a configuration.
 */
export function crashLoopBackOffPeriods(
  maxContainerRestartPeriodMs: number = KUBELET_DEFAULTS.maxContainerRestartPeriodMs,
): { initialMs: number; maxMs: number; resetMs: number } {
  const { min, max } = MAX_CONTAINER_RESTART_PERIOD_RANGE_MS;
  if (
    typeof maxContainerRestartPeriodMs !== 'number' ||
    !Number.isFinite(maxContainerRestartPeriodMs) ||
    maxContainerRestartPeriodMs < min ||
    maxContainerRestartPeriodMs > max
  ) {
    throw new RangeError(
      `crashLoopBackOff.maxContainerRestartPeriod must be between 1s and 300s, got ${String(maxContainerRestartPeriodMs)} ms`,
    );
  }
  return {
    initialMs: Math.min(KUBELET_DEFAULTS.backOffPeriodMs, maxContainerRestartPeriodMs),
    maxMs: maxContainerRestartPeriodMs,
    resetMs: KUBELET_DEFAULTS.containerBackOffResetMs,
  };
}

/** The periods the rules in lib/kubelet read (node conditions, eviction). */
export interface NodeTimings {
  plegRelistThresholdMs: number;
  runtimeSyncThresholdMs: number;
  nodeMonitorGracePeriodMs: number;
  /** kube-controller-manager --node-startup-grace-period: a node never heard from stays without conditions this long. */
  nodeStartupGracePeriodMs: number;
  notReadyTolerationMs: number;
  unreachableTolerationMs: number;
  evictionPressureTransitionPeriodMs: number;
  /** Optional: sets both tolerations at once, in seconds (the apiserver flags are in seconds). */
  tolerationSeconds?: number;
}

export const DEFAULT_NODE_TIMINGS: Readonly<NodeTimings> = Object.freeze({
  plegRelistThresholdMs: KUBELET_DEFAULTS.plegRelistThresholdMs,
  runtimeSyncThresholdMs: KUBELET_DEFAULTS.runtimeSyncThresholdMs,
  nodeMonitorGracePeriodMs: KUBELET_DEFAULTS.nodeMonitorGracePeriodMs,
  nodeStartupGracePeriodMs: KUBELET_DEFAULTS.nodeStartupGracePeriodMs,
  notReadyTolerationMs: KUBELET_DEFAULTS.tolerationSeconds * 1000,
  unreachableTolerationMs: KUBELET_DEFAULTS.tolerationSeconds * 1000,
  evictionPressureTransitionPeriodMs: KUBELET_DEFAULTS.evictionPressureTransitionPeriodMs,
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
