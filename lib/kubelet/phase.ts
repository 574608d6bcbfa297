/**
 * The pod phase, as the kubelet computes it.
 *
 * Port of getPhase from pkg/kubelet/kubelet_pods.go, kubernetes/kubernetes
 * 001a80e975bb880d0fe60b304d30950fe661f278 (master, v1.36/1.37 window). Names and order of the
 * counters are upstream's; computePhase also returns the counters and the deciding rule so the
 * explanation can say which rule decided.
 *
 * getPhase never yields Unknown.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { enabled, type FeatureGates } from './gates';
import { containerShouldRestart, isRestartableInitContainer } from './restart';
import type { PodPhase } from './types';
import { getContainerStatus, int32, isObj, specOf, str } from './util';

export const RESTARTING_ALL_CONTAINERS = 'RestartingAllContainers';

/** Which branch of getPhase decided. */
export type PhaseRule =
  | 'initFailedNotRestartable'
  | 'initFailedRestartNever'
  | 'initPending'
  | 'sidecarNotStarted'
  | 'waiting'
  | 'running'
  | 'terminalSucceeded'
  | 'terminalFailed'
  | 'someRestartable'
  | 'allSucceeded'
  | 'notRestartableFailed'
  | 'restartAlways'
  | 'restartNeverFailed'
  | 'restartOnFailure'
  | 'notStarted';

export interface PhaseCounts {
  pendingRestartableInitContainers: number;
  pendingRegularInitContainers: number;
  failedInitialization: number;
  failedInitializationNotRestartable: number;
  unknown: number;
  running: number;
  waiting: number;
  stopped: number;
  stoppedNotRestartable: number;
  succeeded: number;
}

/** Container names behind the counters, for explanations. */
export interface PhaseNames {
  pendingInit: string[];
  pendingSidecar: string[];
  waiting: string[];
  unknown: string[];
  restartable: string[];
  failed: string[];
}

export interface PhaseDecision {
  phase: PodPhase;
  rule: PhaseRule;
  counts: PhaseCounts;
  names: PhaseNames;
  /** The first regular init container that failed and will not be restarted, if any. */
  failedInit?: { name: string; exitCode: number };
}

/** kubetypes.IsStaticPod: the config-source annotation names a source other than the API server. */
export function isStaticPod(pod: V1Pod | undefined): boolean {
  const source =
    isObj(pod) && isObj(pod.metadata)
      ? pod.metadata.annotations?.['kubernetes.io/config.source']
      : undefined;
  return typeof source === 'string' && source !== 'api';
}

type Kind = 'running' | 'terminated' | 'waiting' | 'none';
function stateKind(s: V1ContainerStatus): Kind {
  const st = isObj(s.state) ? s.state : undefined;
  if (isObj(st?.running)) return 'running';
  if (isObj(st?.terminated)) return 'terminated';
  if (isObj(st?.waiting)) return 'waiting';
  return 'none';
}
const lastTerminated = (s: V1ContainerStatus) =>
  isObj(s.lastState) && isObj(s.lastState.terminated) ? s.lastState.terminated : undefined;
const terminated = (s: V1ContainerStatus) =>
  isObj(s.state) && isObj(s.state.terminated) ? s.state.terminated : undefined;

export function computePhase(
  pod: V1Pod,
  info: readonly V1ContainerStatus[],
  podIsTerminal: boolean,
  podHasInitialized: boolean,
  gates?: FeatureGates,
): PhaseDecision {
  const view = specOf(pod);
  const crr = enabled(gates, 'ContainerRestartRules');
  const rac = enabled(gates, 'RestartAllContainersOnContainerExits');
  const c: PhaseCounts = {
    pendingRestartableInitContainers: 0,
    pendingRegularInitContainers: 0,
    failedInitialization: 0,
    failedInitializationNotRestartable: 0,
    unknown: 0,
    running: 0,
    waiting: 0,
    stopped: 0,
    stoppedNotRestartable: 0,
    succeeded: 0,
  };
  const names: PhaseNames = {
    pendingInit: [],
    pendingSidecar: [],
    waiting: [],
    unknown: [],
    restartable: [],
    failed: [],
  };
  let failedInit: PhaseDecision['failedInit'];
  const restartable = (
    container: Parameters<typeof containerShouldRestart>[0],
    code: number,
    reason: unknown,
  ) =>
    containerShouldRestart(container, view.spec, code, gates) ||
    (rac && reason === RESTARTING_ALL_CONTAINERS);

  // regular init containers
  for (const container of view.initContainers) {
    if (isRestartableInitContainer(container)) continue;
    const status = getContainerStatus(info, container.name);
    if (!status) {
      c.pendingRegularInitContainers++;
      names.pendingInit.push(container.name);
      continue;
    }
    switch (stateKind(status)) {
      case 'running':
        c.pendingRegularInitContainers++;
        names.pendingInit.push(container.name);
        break;
      case 'terminated': {
        const t = terminated(status);
        const exitCode = int32(t?.exitCode);
        if (exitCode !== 0) {
          c.failedInitialization++;
          if (crr && !restartable(container, exitCode, t?.reason)) {
            c.failedInitializationNotRestartable++;
            failedInit ??= { name: container.name, exitCode };
          }
        }
        break;
      }
      case 'waiting': {
        const last = lastTerminated(status);
        if (last) {
          const exitCode = int32(last.exitCode);
          if (exitCode !== 0) {
            c.failedInitialization++;
            // Upstream checks restartability here without the ContainerRestartRules gate.
            if (!restartable(container, exitCode, last.reason)) {
              c.failedInitializationNotRestartable++;
              failedInit ??= { name: container.name, exitCode };
            }
          }
        } else {
          c.pendingRegularInitContainers++;
          names.pendingInit.push(container.name);
        }
        break;
      }
      case 'none':
        c.pendingRegularInitContainers++;
        names.pendingInit.push(container.name);
        break;
    }
  }

  // sidecar (restartable init) containers
  for (const container of view.initContainers) {
    if (!isRestartableInitContainer(container)) continue;
    const status = getContainerStatus(info, container.name);
    if (!status) {
      c.unknown++;
      names.unknown.push(container.name);
      continue;
    }
    switch (stateKind(status)) {
      case 'running':
        if (status.started !== true) {
          c.pendingRestartableInitContainers++;
          names.pendingSidecar.push(container.name);
        }
        c.running++;
        break;
      case 'terminated':
        // terminated sidecars do not count towards the phase
        break;
      case 'waiting':
        if (!lastTerminated(status)) {
          c.pendingRestartableInitContainers++;
          c.waiting++;
          names.pendingSidecar.push(container.name);
          names.waiting.push(container.name);
        }
        break;
      case 'none':
        c.pendingRestartableInitContainers++;
        c.unknown++;
        names.pendingSidecar.push(container.name);
        names.unknown.push(container.name);
        break;
    }
  }

  // regular containers
  for (const container of view.containers) {
    const status = getContainerStatus(info, container.name);
    if (!status) {
      c.unknown++;
      names.unknown.push(container.name);
      continue;
    }
    switch (stateKind(status)) {
      case 'running':
        c.running++;
        break;
      case 'terminated': {
        c.stopped++;
        const t = terminated(status);
        const exitCode = int32(t?.exitCode);
        const canRestart = restartable(container, exitCode, t?.reason);
        if (crr && !canRestart) c.stoppedNotRestartable++;
        if (canRestart) names.restartable.push(container.name);
        if (exitCode === 0) c.succeeded++;
        else names.failed.push(container.name);
        break;
      }
      case 'waiting': {
        const last = lastTerminated(status);
        if (last) {
          c.stopped++;
          const canRestart = restartable(container, int32(last.exitCode), last.reason);
          if (crr && !canRestart) c.stoppedNotRestartable++;
          if (canRestart) names.restartable.push(container.name);
          if (int32(last.exitCode) !== 0) names.failed.push(container.name);
        } else {
          c.waiting++;
          names.waiting.push(container.name);
        }
        break;
      }
      case 'none':
        c.unknown++;
        names.unknown.push(container.name);
        break;
    }
  }

  const decide = (phase: PodPhase, rule: PhaseRule): PhaseDecision =>
    failedInit ? { phase, rule, counts: c, names, failedInit } : { phase, rule, counts: c, names };

  if (crr) {
    if (c.failedInitializationNotRestartable > 0)
      return decide('Failed', 'initFailedNotRestartable');
  } else if (c.failedInitialization > 0 && view.restartPolicy === 'Never') {
    return decide('Failed', 'initFailedRestartNever');
  }

  if (c.pendingRegularInitContainers > 0) return decide('Pending', 'initPending');
  if (c.pendingRestartableInitContainers > 0 && !podHasInitialized)
    return decide('Pending', 'sidecarNotStarted');
  if (c.waiting > 0) return decide('Pending', 'waiting');
  if (c.running > 0 && c.unknown === 0) return decide('Running', 'running');
  if (c.running === 0 && c.stopped > 0 && c.unknown === 0) {
    if (podIsTerminal && !isStaticPod(pod)) {
      return c.stopped === c.succeeded
        ? decide('Succeeded', 'terminalSucceeded')
        : decide('Failed', 'terminalFailed');
    }
    if (crr) {
      if (c.stopped !== c.stoppedNotRestartable) return decide('Running', 'someRestartable');
      return c.stopped === c.succeeded
        ? decide('Succeeded', 'allSucceeded')
        : decide('Failed', 'notRestartableFailed');
    }
    if (view.restartPolicy === 'Always') return decide('Running', 'restartAlways');
    if (c.stopped === c.succeeded) return decide('Succeeded', 'allSucceeded');
    if (view.restartPolicy === 'Never') return decide('Failed', 'restartNeverFailed');
    return decide('Running', 'restartOnFailure');
  }
  return decide('Pending', 'notStarted');
}

/** getPhase(pod, statuses, podIsTerminal, podHasInitialized): Pending | Running | Succeeded | Failed. */
export function getPhase(
  pod: V1Pod,
  statuses: readonly V1ContainerStatus[],
  podIsTerminal: boolean,
  podHasInitialized: boolean,
  gates?: FeatureGates,
): PodPhase {
  return computePhase(pod, statuses, podIsTerminal, podHasInitialized, gates).phase;
}

/** The pod's restartPolicy for explanations ("Always" when empty, as the API defaults it). */
export const podRestartPolicy = (pod: V1Pod | undefined): string =>
  str(specOf(pod).restartPolicy) || 'Always';
