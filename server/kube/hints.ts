/**
 * What the kubelet knows that the CRI does not, read back from the status it posted:
 * - the waiting reasons its last SyncPod recorded for containers it could not start (its reason
 *   cache, pkg/kubelet/kuberuntime/kuberuntime_container.go and images/types.go error names);
 * - the pod's deletionTimestamp (graceful termination under way);
 * - a terminal phase (Succeeded/Failed never change back, generateAPIPodStatus).
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { ProbeResult, ProbeResults } from '@/lib/kubelet/prober';
import { SYNC_ERROR_REASONS } from '@/lib/kubelet/reasons';
import type { SyncError } from '@/lib/kubelet/runtime';
import type { PodHints } from '@/server/engine/hints';

/** API strings are untrusted: cap what is carried into the engine and the timeline. */
const MAX_MESSAGE = 2048;
const clip = (s: string | undefined): string =>
  s && s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : (s ?? '');

export function syncErrorsOf(pod: V1Pod): Record<string, SyncError> | undefined {
  const out: Record<string, SyncError> = {};
  const lists: (V1ContainerStatus[] | undefined)[] = [
    pod.status?.initContainerStatuses,
    pod.status?.containerStatuses,
    pod.status?.ephemeralContainerStatuses,
  ];
  for (const list of lists) {
    for (const s of list ?? []) {
      const reason = s.state?.waiting?.reason;
      if (reason && SYNC_ERROR_REASONS.has(reason))
        out[s.name] = { reason, message: clip(s.state?.waiting?.message) };
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The prober's results as the kubelet posted them: `started` / `ready` of each container, tied
 * to the container ID they were posted for (a status older than the running container does not
 * count). Only the kubelet can know them — the CRI does not carry probe results.
 */
export function probesOf(pod: V1Pod): ProbeResults | undefined {
  const out: Record<string, ProbeResult> = {};
  for (const s of [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ]) {
    if (!s.state?.running || !s.containerID) continue;
    const id = s.containerID.includes('://')
      ? s.containerID.slice(s.containerID.indexOf('://') + 3)
      : s.containerID;
    out[s.name] = {
      containerId: id,
      ...(typeof s.started === 'boolean' ? { startup: s.started } : {}),
      ...(typeof s.ready === 'boolean' ? { readiness: s.ready } : {}),
    };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function podHints(pod: V1Pod): PodHints {
  const hints: PodHints = {};
  const syncErrors = syncErrorsOf(pod);
  if (syncErrors) hints.syncErrors = syncErrors;
  const deletion = pod.metadata?.deletionTimestamp;
  if (deletion) {
    const ms = new Date(deletion).getTime();
    if (!Number.isNaN(ms)) hints.deletionTimestamp = ms;
  }
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') hints.podIsTerminal = true;
  const probes = probesOf(pod);
  if (probes) hints.probes = probes;
  return hints;
}
