/**
 * A pod the kubelet has stopped, as the CRI alone shows it.
 *
 * When the kubelet kills a pod (deletion, eviction, a deadline — pkg/kubelet/kuberuntime
 * killPodWithSyncResult) it stops every container (SIGTERM, SIGKILL after the grace period: exit
 * 143 or 137, or whatever the program returns on SIGTERM) and then stops the sandbox. A container
 * that merely crashes leaves its sandbox READY, and the kubelet restarts containers only inside a
 * ready sandbox. So "the newest sandbox is NOTREADY and every container has exited" means the
 * kubelet stopped the pod — and would not restart anything in that sandbox (no CrashLoopBackOff).
 * Whether it was deleted (phase goes terminal) or is about to get a new sandbox the runtime cannot
 * say; the API server's deletionTimestamp can.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { sandboxesOf } from './records';
import { ANNOTATIONS, type RuntimePodStatus } from './runtime';
import { isObj } from './util';

export interface StoppedPod {
  /** Exit codes of each container's newest run, by name. */
  exitCodes: Record<string, number>;
  /** Every newest run ended by a signal the kubelet sends (143 SIGTERM, 137 SIGKILL). */
  bySignal: boolean;
  /** The kubelet's deletion annotation on a container (io.kubernetes.pod.deletionGracePeriod). */
  deletionAnnotation: boolean;
  /** The API server says the pod is being deleted. */
  deletionTimestamp: boolean;
}

/** The cues, or undefined when the runtime shows a pod the kubelet has not stopped. */
export function inferStoppedPod(pod: V1Pod, runtime: RuntimePodStatus): StoppedPod | undefined {
  const newest = sandboxesOf(runtime)[0];
  if (!newest || newest.state === 'ready') return undefined;
  const containers = Array.isArray(runtime.containers) ? runtime.containers : [];
  const inSandbox = containers.filter((c) => isObj(c) && c.sandboxId === newest.id);
  if (inSandbox.length === 0) return undefined;
  if (inSandbox.some((c) => c.state !== 'exited')) return undefined;
  const exitCodes: Record<string, number> = {};
  const newestByName = new Map<string, (typeof inSandbox)[number]>();
  for (const c of inSandbox) {
    const seen = newestByName.get(c.name);
    if (!seen || c.createdAt > seen.createdAt) newestByName.set(c.name, c);
  }
  for (const [name, c] of newestByName) exitCodes[name] = c.exitCode ?? 0;
  const codes = Object.values(exitCodes);
  return {
    exitCodes,
    bySignal: codes.length > 0 && codes.every((code) => code === 137 || code === 143),
    deletionAnnotation: inSandbox.some(
      (c) => isObj(c.annotations) && ANNOTATIONS.podDeletionGracePeriod in c.annotations,
    ),
    deletionTimestamp: isObj(pod.metadata) && pod.metadata.deletionTimestamp != null,
  };
}
