/**
 * Inferring the kubelet's CrashLoopBackOff from the CRI and the back-off state.
 *
 * The kubelet writes CrashLoopBackOff into its reason cache in doBackOff
 * (pkg/kubelet/kuberuntime/kuberuntime_manager.go): for an exited container it should restart, if
 * IsInBackOffSince(key, finishedAt) it skips the start and records
 * `back-off <window> restarting failed container=<name> pod=<name_ns(uid)>`; otherwise it calls
 * Next and restarts. Podscope cannot read that cache, so it recomputes the same decision here.
 *
 * When the back-off state has no entry for the container (an engine that only observes), the
 * entry is reconstructed from the restart count annotation: after n restarts the kubelet has called
 * Next n times, so the window is initial·2^(n−1) (capped), last moved when this attempt was created.
 * A container whose run ended more than the reset period (600 s; 2 × max for a state without one)
 * after the back-off last moved gets a fresh back-off, as the kubelet's HasExpiredFunc says.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import {
  backoffEntry,
  backoffKey,
  backoffKeyFor,
  containerBackoff,
  formatPod,
  hasExpired,
  type BackoffEntry,
  type BackoffState,
} from './backoff';
import type { FeatureGates } from './gates';
import { findContainerStatusByName } from './records';
import { isRestartableInitContainer, shouldContainerBeRestarted } from './restart';
import { ANNOTATIONS, type RuntimePodStatus, type SyncError } from './runtime';
import { ErrCrashLoopBackOff } from './reasons';
import { finite, goDuration, int32, isObj, specOf, str } from './util';

export interface CrashLoop extends SyncError {
  reason: typeof ErrCrashLoopBackOff;
  /** Epoch ms when the window ends and the kubelet restarts the container. */
  nextRestartAt: number;
  backoffMs: number;
  /** Whether the window came from the supplied state or was reconstructed from the restart count. */
  source: 'state' | 'restartCount';
}

export interface CrashLoopInput {
  pod: V1Pod;
  runtime: RuntimePodStatus;
  backoff?: BackoffState;
  now: number;
  podIsTerminal?: boolean;
  gates?: FeatureGates;
}

/** The pod identity the kubelet's keys and messages use. */
export function podIdentity(
  pod: V1Pod,
  runtime: RuntimePodStatus,
): { name: string; namespace: string; uid: string } {
  const meta = isObj(pod) && isObj(pod.metadata) ? pod.metadata : {};
  return {
    name: str(meta.name) || str(runtime?.name),
    namespace: str(meta.namespace) || str(runtime?.namespace),
    uid: str(meta.uid) || str(runtime?.uid),
  };
}

/** The window the kubelet would be in for a container restarted `restartCount` times, last moved at `lastUpdateMs`. */
export function reconstructBackoffEntry(
  state: BackoffState,
  restartCount: number,
  lastUpdateMs: number,
): BackoffEntry | undefined {
  if (restartCount < 1) return undefined;
  const doublings = Math.min(restartCount - 1, 60);
  return { backoffMs: Math.min(state.initialMs * 2 ** doublings, state.maxMs), lastUpdateMs };
}

/** Containers (by name) that the kubelet is holding in CrashLoopBackOff at `now`. */
export function inferCrashLoops(input: CrashLoopInput): Record<string, CrashLoop> {
  const out: Record<string, CrashLoop> = {};
  if (input.podIsTerminal) return out;
  const view = specOf(input.pod);
  const defaults = containerBackoff();
  const state = isObj(input.backoff) ? input.backoff : defaults;
  const initialMs = finite(state.initialMs, defaults.initialMs);
  const maxMs = finite(state.maxMs, defaults.maxMs);
  const resetMs = isObj(input.backoff) ? state.resetMs : defaults.resetMs;
  const id = podIdentity(input.pod, input.runtime);
  const consider = (container: V1Container, isInit: boolean) => {
    const record = findContainerStatusByName(input.runtime, container.name);
    if (!record || record.state !== 'exited') return;
    const finishedAt = record.finishedAt;
    if (typeof finishedAt !== 'number' || !Number.isFinite(finishedAt)) return;
    // a regular init container that exited 0 is done, never restarted
    if (isInit && !isRestartableInitContainer(container) && int32(record.exitCode) === 0) return;
    if (!shouldContainerBeRestarted(container, input.pod, input.runtime, input.gates)) return;
    const key = backoffKey(
      id,
      container.name,
      str(record.annotations?.[ANNOTATIONS.containerHash]),
    );
    // The kubelet's stable key first; then the uid-only key an observer without the hash records.
    let entry =
      backoffEntry(state, key) ??
      backoffEntry(state, backoffKeyFor({ podUid: id.uid, container: container.name }));
    let source: CrashLoop['source'] = 'state';
    if (!entry) {
      entry = reconstructBackoffEntry(
        { initialMs, maxMs, entries: {} },
        Math.max(0, int32(record.restartCount)),
        finite(record.startedAt, finite(record.createdAt, finishedAt)),
      );
      source = 'restartCount';
    }
    if (!entry) return;
    if (hasExpired(finishedAt, entry.lastUpdateMs, maxMs, resetMs)) return;
    if (!(input.now - finishedAt < entry.backoffMs)) return;
    out[container.name] = {
      reason: ErrCrashLoopBackOff,
      message: `back-off ${goDuration(entry.backoffMs)} restarting failed container=${container.name} pod=${formatPod(id)}`,
      nextRestartAt: finishedAt + entry.backoffMs,
      backoffMs: entry.backoffMs,
      source,
    };
  };
  for (const c of view.initContainers) consider(c, true);
  for (const c of view.containers) consider(c, false);
  return out;
}
