/**
 * One pod's derived view: choose the spec (API server > driver annotation > inference), run the
 * kubelet's rules from lib/kubelet, and shape the result as the timeline's PodView.
 */
import type { V1Pod } from '@kubernetes/client-node';
import {
  generateAPIPodStatus,
  inferPodSpec,
  podFromSpecAnnotation,
  type BackoffState,
  type FeatureGates,
  type NodeReadiness,
  type NodeTimings,
} from '@/lib/kubelet';
import type { RuntimePodStatus, SpecSource } from '@/lib/kubelet/runtime';
import type { PodSpecSummary, PodView, RestartPolicy } from '@/lib/timeline/state';
import type { HintProvider, PodHints } from '../hints';
import type { HostIPs } from '../node/host-ips';

export interface PodDeriveInput {
  node: string;
  runtime: RuntimePodStatus;
  previous: PodView | undefined;
  providers: readonly HintProvider[];
  backoff: BackoffState;
  now: number;
  nodeReady?: NodeReadiness;
  gates?: FeatureGates;
  timings?: NodeTimings;
  /** The node's host IPs and where they came from (host-ips.ts). */
  hostIPs?: HostIPs;
}

export function choosePodSpec(
  runtime: RuntimePodStatus,
  providers: readonly HintProvider[],
): { pod: V1Pod; source: SpecSource; hints: PodHints } {
  const hints: PodHints = {};
  let chosen: { pod: V1Pod; source: SpecSource } | undefined;
  for (const p of providers) {
    const h = p.hintsFor(runtime.uid);
    if (h) {
      hints.syncErrors ??= h.syncErrors;
      hints.deletionTimestamp ??= h.deletionTimestamp;
      hints.podIsTerminal ??= h.podIsTerminal;
      hints.probes ??= h.probes;
      hints.unsupported ??= h.unsupported;
      hints.evicted ??= h.evicted;
    }
    if (!chosen && p.name === 'apiserver') {
      const pod = p.specFor?.(runtime.uid);
      if (pod) chosen = { pod, source: 'apiserver' };
    }
  }
  if (!chosen) {
    for (const s of runtime.sandboxes) {
      const pod = podFromSpecAnnotation(s);
      if (pod) {
        chosen = { pod, source: 'annotation' };
        break;
      }
    }
  }
  if (!chosen && runtime.sandboxes.length === 0) {
    // No sandbox yet: the kubelet stand-in's spec, the very JSON it writes as that annotation.
    for (const p of providers) {
      const pod = p.name === 'driver' ? p.specFor?.(runtime.uid) : undefined;
      if (pod) {
        chosen = { pod, source: 'annotation' };
        break;
      }
    }
  }
  chosen ??= { pod: inferPodSpec(runtime), source: 'inferred' };
  return { ...chosen, hints };
}

function probesOf(pod: V1Pod): PodSpecSummary['probes'] {
  const out: NonNullable<PodSpecSummary['probes']> = {};
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    const list = [
      ...(c.startupProbe ? (['startup'] as const) : []),
      ...(c.readinessProbe ? (['readiness'] as const) : []),
      ...(c.livenessProbe ? (['liveness'] as const) : []),
    ];
    if (list.length > 0) out[c.name] = list;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function summarizeSpec(pod: V1Pod, unsupported?: readonly string[]): PodSpecSummary {
  const spec = pod.spec;
  const probes = probesOf(pod);
  const policy = spec?.restartPolicy;
  const restartPolicy: RestartPolicy =
    policy === 'OnFailure' || policy === 'Never' ? policy : 'Always';
  return {
    restartPolicy,
    initContainers: (spec?.initContainers ?? []).map((c) => ({
      name: c.name,
      sidecar: c.restartPolicy === 'Always',
    })),
    containers: (spec?.containers ?? []).map((c) => c.name),
    hostNetwork: spec?.hostNetwork === true,
    ...(spec?.terminationGracePeriodSeconds !== undefined
      ? { terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds }
      : {}),
    ...(spec?.readinessGates?.length
      ? { readinessGates: spec.readinessGates.map((g) => g.conditionType) }
      : {}),
    ...(probes ? { probes } : {}),
    ...(unsupported && unsupported.length > 0 ? { unsupported: [...unsupported] } : {}),
  };
}

export function derivePodView(input: PodDeriveInput): PodView {
  const { runtime, previous, now } = input;
  const { pod, source, hints } = choosePodSpec(runtime, input.providers);
  const metadata = {
    ...pod.metadata,
    uid: runtime.uid,
    name: pod.metadata?.name ?? runtime.name,
    namespace: pod.metadata?.namespace ?? runtime.namespace,
    ...(hints.deletionTimestamp !== undefined
      ? { deletionTimestamp: new Date(hints.deletionTimestamp) }
      : {}),
  };
  const result = generateAPIPodStatus({
    pod: { ...pod, metadata },
    runtime,
    ...(previous ? { oldStatus: previous.status } : {}),
    ...(hints.syncErrors ? { syncErrors: hints.syncErrors } : {}),
    backoff: input.backoff,
    now,
    ...(hints.podIsTerminal !== undefined ? { podIsTerminal: hints.podIsTerminal } : {}),
    ...(hints.evicted ? { evicted: hints.evicted } : {}),
    ...(input.nodeReady ? { nodeReady: input.nodeReady } : {}),
    // New to the node lifecycle controller: first seen, or marked when it was (processPod).
    newlyBound:
      previous === undefined ||
      previous.why.conditions.Ready?.id === 'condition.ready.markedOnBinding',
    ...(input.gates ? { gates: input.gates } : {}),
    ...(input.timings ? { timings: input.timings } : {}),
    ...(hints.probes ? { probes: hints.probes } : {}),
    ...(input.hostIPs ? { hostIPs: input.hostIPs.ips, hostIPsSource: input.hostIPs.source } : {}),
  });
  const createdAt = runtime.sandboxes.reduce(
    (min, s) => Math.min(min, s.createdAt),
    previous?.createdAt ?? Infinity,
  );
  return {
    uid: runtime.uid,
    name: metadata.name,
    namespace: metadata.namespace,
    node: input.node,
    specSource: source,
    spec: summarizeSpec(pod, hints.unsupported),
    status: result.status,
    why: result.why,
    createdAt: Number.isFinite(createdAt) ? createdAt : now,
    ...(result.evictionDueAt !== undefined ? { evictionDueAt: result.evictionDueAt } : {}),
    ...(result.nextRestartAt && Object.keys(result.nextRestartAt).length > 0
      ? { nextRestartAt: result.nextRestartAt }
      : {}),
    ...(hints.deletionTimestamp !== undefined
      ? { deletionTimestamp: hints.deletionTimestamp }
      : {}),
  };
}
