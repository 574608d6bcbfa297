/**
 * What one SyncPod should do, decided from the pod spec and what the runtime reports — pure.
 *
 * Port of computePodActions (pkg/kubelet/kuberuntime/kuberuntime_manager.go) and
 * computeInitContainerActions, hasAnyRegularContainerCreated, isInitContainerFailed,
 * containerSucceeded (pkg/kubelet/kuberuntime/kuberuntime_container.go), kubernetes/kubernetes
 * 000f2605 / master as stored (the SidecarContainers era: every pod takes the
 * handleRestartableInitContainers path). Names and order follow upstream, including the
 * prober's part: a running container whose liveness or startup result is Failure is killed
 * (`Container app failed liveness probe, will be restarted`), and a sidecar with a startup probe
 * holds back the next init container until the probe succeeded. Left out, because the driver has
 * no in-place resize and no ephemeral containers: resize actions, ephemeral containers, and
 * container-definition changes (a pod's spec cannot change after apply()).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { findContainerStatusByName } from '@/lib/kubelet/records';
import { OOMExitReason } from '@/lib/kubelet/reasons';
import { isRestartableInitContainer, shouldContainerBeRestarted } from '@/lib/kubelet/restart';
import type { RuntimeContainer, RuntimePodStatus } from '@/lib/kubelet/runtime';
import { podSandboxChanged } from '@/lib/kubelet/sandbox';

export type KillReason = 'LivenessProbe' | 'StartupProbe';

export interface ContainerToKill {
  id: string;
  name: string;
  message: string;
  /** containerKillReason: set for probe kills (their grace period may come from the probe). */
  reason?: KillReason;
}

/** The prober's stored results, by container ID (the kubelet's liveness/startup managers). */
export interface ProbeLookup {
  get(
    type: 'liveness' | 'startup',
    containerId: string,
  ): 'success' | 'failure' | 'unknown' | undefined;
}

const NO_PROBES: ProbeLookup = { get: () => undefined };

/** podActions, upstream field names. Indexes point into spec.initContainers / spec.containers. */
export interface PodActions {
  killPod: boolean;
  createSandbox: boolean;
  /** The current sandbox, when one is kept. */
  sandboxId: string;
  /** Attempt number for a new sandbox. */
  attempt: number;
  initContainersToStart: number[];
  containersToStart: number[];
  containersToKill: ContainerToKill[];
}

/** shouldRestartOnFailure: the pod-level policy is not Never. */
export function shouldRestartOnFailure(pod: V1Pod): boolean {
  return pod.spec?.restartPolicy !== 'Never';
}

/** isInitContainerFailed: an OOM kill, a non-zero exit, or an unknown state. */
export function isInitContainerFailed(status: RuntimeContainer): boolean {
  if (status.reason === OOMExitReason) return true;
  if (status.state === 'exited' && (status.exitCode ?? 0) !== 0) return true;
  return status.state === 'unknown';
}

/** containerSucceeded: the newest record exited 0. */
export function containerSucceeded(container: V1Container, status: RuntimePodStatus): boolean {
  const s = findContainerStatusByName(status, container.name);
  return s !== undefined && s.state === 'exited' && (s.exitCode ?? 0) === 0;
}

export function hasAnyRegularContainerCreated(pod: V1Pod, status: RuntimePodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const s = findContainerStatusByName(status, c.name);
    return (
      s !== undefined && (s.state === 'created' || s.state === 'running' || s.state === 'exited')
    );
  });
}

/**
 * computeInitContainerActions: fills initContainersToStart / containersToKill / killPod and says
 * whether the pod has been initialized. Walks the init containers from the last one back, as
 * upstream does, because completed init containers may have been removed from the runtime.
 */
export function computeInitContainerActions(
  pod: V1Pod,
  status: RuntimePodStatus,
  changes: PodActions,
  probes: ProbeLookup = NO_PROBES,
): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;

  // A regular container created or running means initialization happened at some point.
  let podHasInitialized = (pod.spec?.containers ?? []).some((c) => {
    const s = findContainerStatusByName(status, c.name);
    return s !== undefined && (s.state === 'created' || s.state === 'running');
  });
  let isPreviouslyInitialized = podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  const toStart: number[] = [];

  for (let i = inits.length - 1; i >= 0; i--) {
    const container = inits[i];
    if (!container) continue;
    const s = findContainerStatusByName(status, container.name);
    const restartable = isRestartableInitContainer(container);
    if (!s) {
      if (isPreviouslyInitialized && restartable) toStart.push(i);
      continue;
    }
    if (isPreviouslyInitialized && !restartable) continue;

    switch (s.state) {
      case 'created':
        // Created but never started: the runtime likely failed to start it. Start it again.
        toStart.push(i);
        break;
      case 'running': {
        if (!restartable) break; // a regular init container: wait for it to finish
        if (container.startupProbe) {
          const startup = probes.get('startup', s.id);
          if (startup === undefined) break; // not probed yet: wait for it
          if (startup !== 'success') {
            if (startup === 'failure') {
              changes.containersToKill.push({
                id: s.id,
                name: container.name,
                message: `Init container ${container.name} failed startup probe`,
                reason: 'StartupProbe',
              });
              toStart.push(i);
            }
            break;
          }
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!isPreviouslyInitialized) toStart.push(i + 1); // started: the next one may go
        if (probes.get('liveness', s.id) === 'failure') {
          changes.containersToKill.push({
            id: s.id,
            name: container.name,
            message: `Init container ${container.name} failed liveness probe`,
            reason: 'LivenessProbe',
          });
          toStart.push(i);
        }
        break;
      }
      case 'exited':
        if (restartable) {
          toStart.push(i);
        } else if (isInitContainerFailed(s)) {
          if (!restartOnFailure) {
            changes.killPod = true;
            changes.initContainersToStart = [];
            return false;
          }
          toStart.push(i);
        } else if (i === inits.length - 1) {
          podHasInitialized = true;
        } else {
          toStart.push(i + 1);
        }
        break;
      case 'unknown':
        if (!restartable && !restartOnFailure) {
          changes.killPod = true;
          changes.initContainersToStart = [];
          return false;
        }
        changes.containersToKill.push({
          id: s.id,
          name: container.name,
          message: `Init container is in "${s.state}" state, try killing it before restart`,
        });
        toStart.push(i);
        break;
    }
    if (!isPreviouslyInitialized) isPreviouslyInitialized = true;
  }
  if (!isPreviouslyInitialized) toStart.push(0);
  changes.initContainersToStart = toStart.reverse();
  return podHasInitialized;
}

export function computePodActions(
  pod: V1Pod,
  status: RuntimePodStatus,
  probes: ProbeLookup = NO_PROBES,
): PodActions {
  const sandbox = podSandboxChanged(pod, status.sandboxes);
  const changes: PodActions = {
    killPod: sandbox.changed,
    createSandbox: sandbox.changed,
    sandboxId: sandbox.sandbox?.id ?? '',
    attempt: sandbox.attempt,
    initContainersToStart: [],
    containersToStart: [],
    containersToKill: [],
  };
  const containers = pod.spec?.containers ?? [];

  if (sandbox.changed) {
    if (!shouldRestartOnFailure(pod) && sandbox.attempt !== 0 && status.containers.length !== 0) {
      // Never restart: the pod is done; do not create a sandbox only to terminate it.
      changes.createSandbox = false;
      return changes;
    }
    const containersToStart: number[] = [];
    containers.forEach((c, idx) => {
      if (pod.spec?.restartPolicy === 'OnFailure' && containerSucceeded(c, status)) return;
      containersToStart.push(idx);
    });
    if (containersToStart.length === 0 && hasAnyRegularContainerCreated(pod, status)) {
      changes.createSandbox = false;
      return changes;
    }
    if ((pod.spec?.initContainers ?? []).length !== 0) {
      changes.initContainersToStart = [0];
      return changes;
    }
    changes.containersToStart = containersToStart;
    return changes;
  }

  const hasInitialized = computeInitContainerActions(pod, status, changes, probes);
  if (changes.killPod || !hasInitialized) return changes;

  let keepCount = 0;
  containers.forEach((container, idx) => {
    const s = findContainerStatusByName(status, container.name);
    if (!s || s.state !== 'running') {
      if (shouldContainerBeRestarted(container, pod, status)) {
        changes.containersToStart.push(idx);
        if (s && s.state === 'unknown') {
          changes.containersToKill.push({
            id: s.id,
            name: container.name,
            message: `Container is in "${s.state}" state, try killing it before restart`,
          });
        }
      }
      return;
    }
    // Running: kill it when its liveness or startup probe failed.
    let message: string;
    let reason: KillReason;
    if (probes.get('liveness', s.id) === 'failure') {
      message = `Container ${container.name} failed liveness probe`;
      reason = 'LivenessProbe';
    } else if (probes.get('startup', s.id) === 'failure') {
      message = `Container ${container.name} failed startup probe`;
      reason = 'StartupProbe';
    } else {
      keepCount++;
      return;
    }
    if (shouldRestartOnFailure(pod)) {
      message = `${message}, will be restarted`;
      changes.containersToStart.push(idx);
    }
    changes.containersToKill.push({ id: s.id, name: container.name, message, reason });
  });

  if (keepCount === 0 && changes.containersToStart.length === 0) {
    changes.killPod = true;
    // Sidecars must not keep a finished pod alive.
    changes.initContainersToStart = [];
  }
  return changes;
}

/** True when this plan ends the pod: it is killed and nothing will be started again. */
export function isTerminalPlan(actions: PodActions): boolean {
  return actions.killPod && !actions.createSandbox;
}
