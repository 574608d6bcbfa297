/**
 * The engine's periods. The defaults derive from lib/kubelet/timings.ts (the kubelet's and the
 * node controller's upstream values, with citations there); `server/config.ts` lets each be
 * overridden.
 */
import { DEFAULT_NODE_TIMINGS, KUBELET_DEFAULTS, type NodeTimings } from '@/lib/kubelet/timings';

export interface EngineTimings {
  /** Generic PLEG relist period (pkg/kubelet/kubelet.go genericPlegRelistPeriod). */
  relistMs: number;
  /** kubelet nodeStatusUpdateFrequency. */
  nodeStatusMs: number;
  /**
   * A slow full relist that keeps the event-stream path honest (Podscope's own: upstream's evented
   * PLEG relists every 5 min; a minute bounds what a stalled stream can hide).
   */
  fullRelistMs: number;
  /** kube-controller-manager --node-monitor-grace-period (50 s since v1.32). */
  nodeMonitorGraceMs: number;
  /** genericPlegRelistThreshold. */
  plegThresholdMs: number;
  /** DefaultTolerationSeconds for not-ready/unreachable NoExecute taints. */
  tolerationSeconds: number;
  /** ListContainerStats period (kubelet evictionMonitoringPeriod, 10 s); default that. */
  statsMs?: number;
}

export const DEFAULT_ENGINE_TIMINGS: Readonly<Required<EngineTimings>> = Object.freeze({
  relistMs: KUBELET_DEFAULTS.plegRelistPeriodMs,
  nodeStatusMs: KUBELET_DEFAULTS.nodeStatusUpdateFrequencyMs,
  fullRelistMs: 60_000,
  nodeMonitorGraceMs: KUBELET_DEFAULTS.nodeMonitorGracePeriodMs,
  plegThresholdMs: KUBELET_DEFAULTS.plegRelistThresholdMs,
  tolerationSeconds: KUBELET_DEFAULTS.tolerationSeconds,
  statsMs: KUBELET_DEFAULTS.evictionMonitoringPeriodMs,
});

/** The periods the kubelet rules (lib/kubelet) read, with the engine's overrides applied. */
export function nodeTimings(t: EngineTimings): NodeTimings {
  return {
    ...DEFAULT_NODE_TIMINGS,
    nodeMonitorGracePeriodMs: t.nodeMonitorGraceMs,
    plegRelistThresholdMs: t.plegThresholdMs,
    tolerationSeconds: t.tolerationSeconds,
  };
}

/** The engine's periods with every relist and Status period divided by `speed` (a fast clock), at least `minMs`. */
export function spedUpTimings(speed: number, minMs: number): EngineTimings {
  const d = DEFAULT_ENGINE_TIMINGS;
  return {
    ...d,
    relistMs: Math.max(minMs, d.relistMs / speed),
    nodeStatusMs: Math.max(minMs, d.nodeStatusMs / speed),
    fullRelistMs: Math.max(minMs, d.fullRelistMs / speed),
  };
}
