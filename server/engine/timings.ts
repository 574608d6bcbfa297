/**
 * The engine's periods. The defaults are the kubelet's and the node controller's current upstream
 * values; `server/config.ts` lets each be overridden.
 */
import { DEFAULT_NODE_TIMINGS, type NodeTimings } from '@/lib/kubelet/timings';

export interface EngineTimings {
  /** Generic PLEG relist period (pkg/kubelet/kubelet.go genericPlegRelistPeriod). */
  relistMs: number;
  /** kubelet nodeStatusUpdateFrequency. */
  nodeStatusMs: number;
  /** A slow full relist that keeps the event-stream path honest. */
  fullRelistMs: number;
  /** kube-controller-manager --node-monitor-grace-period (50 s since v1.32). */
  nodeMonitorGraceMs: number;
  /** genericPlegRelistThreshold. */
  plegThresholdMs: number;
  /** DefaultTolerationSeconds for not-ready/unreachable NoExecute taints. */
  tolerationSeconds: number;
}

export const DEFAULT_ENGINE_TIMINGS: Readonly<EngineTimings> = Object.freeze({
  relistMs: 1000,
  nodeStatusMs: 10_000,
  fullRelistMs: 60_000,
  nodeMonitorGraceMs: 50_000,
  plegThresholdMs: 180_000,
  tolerationSeconds: 300,
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
