/**
 * CRI records → V1ContainerStatus, as the kubelet converts them.
 *
 * Port of convertToAPIContainerStatuses (and its convertContainerStatus closure) from
 * pkg/kubelet/kubelet_pods.go, kubernetes/kubernetes 001a80e975bb880d0fe60b304d30950fe661f278.
 * Not ported: volume mount / resources / user / stop-signal fields (the CRI subset does not carry
 * them), and the in-place RestartAllContainers branch (podRestarting is always false here).
 *
 * `reasonCache` is the kubelet's reason cache (pkg/kubelet/reason_cache.go): the last start error
 * per container name (ErrImagePull, ImagePullBackOff, CreateContainerConfigError, CrashLoopBackOff …).
 */
import type {
  V1Container,
  V1ContainerState,
  V1ContainerStatus,
  V1Pod,
} from '@kubernetes/client-node';
import { enabled, type FeatureGates } from './gates';
import { containersNewestFirst, findContainerStatusByName } from './records';
import { isRestartableInitContainer, shouldContainerBeRestarted } from './restart';
import type { RuntimeContainer, RuntimePodStatus, SyncError } from './runtime';
import {
  CompleteExitReason,
  ContainerCreating,
  ContainerReasonStatusUnknown,
  PodInitializing,
} from './reasons';
import { apiTime, asArray, finite, int32, isObj, str } from './util';

export const MSG_LOST_WHILE_RUNNING =
  'The container could not be located when the pod was deleted.  The container used to be Running';
export const MSG_UNKNOWN_WAS_RUNNING =
  'The container could not be located when the pod was terminated';
export const MSG_INIT_ASSUMED_COMPLETED =
  'Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally';

export interface ConvertOptions {
  pod: V1Pod;
  runtime: RuntimePodStatus;
  previousStatus: readonly V1ContainerStatus[] | undefined;
  containers: readonly V1Container[];
  hasInitContainers: boolean;
  isInitContainer: boolean;
  reasonCache?: Readonly<Record<string, SyncError>>;
  /** Prefix of containerID (`<runtime>://<id>`), e.g. containerd. */
  runtimeName?: string;
  gates?: FeatureGates;
}

/** kubecontainer.HasAnyRegularContainerCreated (kuberuntime): some regular container has a record in created/running/exited. */
export function hasAnyRegularContainerCreated(pod: V1Pod, runtime: RuntimePodStatus): boolean {
  const containers = asArray(pod.spec?.containers).filter((c) => isObj(c));
  return containers.some((c) => {
    const s = findContainerStatusByName(runtime, str(c.name));
    return (
      s !== undefined && (s.state === 'created' || s.state === 'running' || s.state === 'exited')
    );
  });
}

const isTerminated = (s: V1ContainerState | undefined) => isObj(s) && isObj(s.terminated);
const isRunning = (s: V1ContainerState | undefined) => isObj(s) && isObj(s.running);
const isWaiting = (s: V1ContainerState | undefined) => isObj(s) && isObj(s.waiting);

function convertContainerStatus(
  cs: RuntimeContainer,
  oldStatus: V1ContainerStatus | undefined,
  runtimeName: string,
  gates: FeatureGates | undefined,
): V1ContainerStatus {
  const cid = `${runtimeName}://${str(cs.id)}`;
  const status: V1ContainerStatus = {
    name: str(cs.name),
    restartCount: Math.max(0, int32(cs.restartCount)),
    image: str(cs.image),
    // The digested image ref becomes ContainerStatus.ImageID, as upstream (historically intentional).
    imageID: str(cs.imageRef),
    containerID: cid,
    ready: false,
  };
  const rac = enabled(gates, 'RestartAllContainersOnContainerExits');
  if (oldStatus && rac) {
    if (oldStatus.restartCount > status.restartCount) status.restartCount = oldStatus.restartCount;
    if (oldStatus.containerID !== status.containerID && isTerminated(oldStatus.state)) {
      status.lastState = { terminated: oldStatus.state?.terminated };
    } else if (isTerminated(oldStatus.lastState)) {
      status.lastState = { terminated: oldStatus.lastState?.terminated };
    }
  }
  const startedAt = apiTime(cs.startedAt);
  switch (cs.state) {
    case 'running':
      status.state = { running: startedAt ? { startedAt } : {} };
      if (
        rac &&
        oldStatus &&
        isTerminated(oldStatus.state) &&
        oldStatus.restartCount >= int32(cs.restartCount)
      ) {
        status.restartCount = oldStatus.restartCount + 1;
      }
      break;
    case 'created':
      // created but not started: "waiting to be running", with an empty reason
      status.state = { waiting: {} };
      break;
    case 'exited': {
      const finishedAt = apiTime(cs.finishedAt);
      status.state = {
        terminated: {
          exitCode: int32(cs.exitCode),
          ...(str(cs.reason) ? { reason: str(cs.reason) } : {}),
          ...(str(cs.message) ? { message: str(cs.message) } : {}),
          ...(startedAt ? { startedAt } : {}),
          ...(finishedAt ? { finishedAt } : {}),
          containerID: cid,
        },
      };
      break;
    }
    case 'unknown':
    default:
      if (oldStatus && isRunning(oldStatus.state)) {
        // It ran and is gone: not "never ran", so not plain Waiting (that would run run-once pods twice).
        status.state = {
          terminated: {
            reason: ContainerReasonStatusUnknown,
            message: MSG_UNKNOWN_WAS_RUNNING,
            exitCode: 137,
          },
        };
        status.restartCount = oldStatus.restartCount + 1;
      } else {
        status.state = { waiting: {} };
      }
  }
  return status;
}

export function convertToAPIContainerStatuses(opts: ConvertOptions): V1ContainerStatus[] {
  const { runtime, gates } = opts;
  const pod: V1Pod = isObj(opts.pod) ? opts.pod : {};
  const runtimeName = opts.runtimeName || 'containerd';
  const containers = asArray(opts.containers).filter((c) => isObj(c) && typeof c.name === 'string');
  const records = containersNewestFirst(runtime);

  const oldStatuses = new Map<string, V1ContainerStatus>();
  for (const s of asArray(opts.previousStatus)) if (isObj(s)) oldStatuses.set(str(s.name), s);

  // Every container starts in the default waiting state.
  const defaultReason = opts.hasInitContainers ? PodInitializing : ContainerCreating;
  const statuses = new Map<string, V1ContainerStatus>();
  for (const container of containers) {
    let status: V1ContainerStatus = {
      name: container.name,
      image: str(container.image),
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { waiting: { reason: defaultReason } },
    };
    const old = oldStatuses.get(container.name);
    if (old) {
      if (isTerminated(old.state)) {
        status = { ...old };
      } else {
        status.restartCount = Math.max(0, int32(old.restartCount));
        if (old.lastState !== undefined) status.lastState = old.lastState;
      }
    }
    statuses.set(container.name, status);
  }

  // A container the runtime no longer knows but that used to run has terminated, exit code unknown.
  const deleting = isObj(pod.metadata) && pod.metadata.deletionTimestamp != null;
  for (const container of containers) {
    if (records.some((r) => str(r.name) === container.name)) continue;
    const old = oldStatuses.get(container.name);
    if (!old || isTerminated(old.state) || !isRunning(old.state)) continue;
    const status = statuses.get(container.name);
    if (!status) continue;
    const isDefault = isWaiting(status.state) && status.state?.waiting?.reason === defaultReason;
    if (!isDefault || isTerminated(status.lastState)) continue;
    status.lastState = {
      terminated: {
        reason: ContainerReasonStatusUnknown,
        message: MSG_LOST_WHILE_RUNNING,
        exitCode: 137,
      },
    };
    if (!deleting) status.restartCount += 1;
  }

  // The newest record is the status; the second newest is the last termination state.
  const seen = new Map<string, number>();
  for (const cs of records) {
    const name = str(cs.name);
    const current = statuses.get(name);
    if (!current) continue; // not in this list (also the infra container)
    const count = seen.get(name) ?? 0;
    if (count >= 2) continue;
    const old = oldStatuses.get(name);
    const status = convertContainerStatus(cs, old, runtimeName, gates);
    if (
      !enabled(gates, 'ChangeContainerStatusOnKubeletRestart') &&
      cs.state === 'running' &&
      typeof old?.started === 'boolean'
    ) {
      status.started = old.started;
    }
    if (count === 0) statuses.set(name, status);
    else current.lastState = status.state;
    seen.set(name, count + 1);
  }

  // Containers that failed to start, or will be restarted, show the last start error as Waiting.
  const regularCreated = opts.isInitContainer && hasAnyRegularContainerCreated(pod, runtime);
  for (const container of containers) {
    const status = statuses.get(container.name);
    if (!status) continue;
    if (opts.isInitContainer) {
      const s = findContainerStatusByName(runtime, container.name);
      if (s && s.state === 'exited' && int32(s.exitCode) === 0) continue;
      if (
        !s &&
        regularCreated &&
        !isRestartableInitContainer(container) &&
        isWaiting(status.state)
      ) {
        status.state = {
          terminated: {
            reason: CompleteExitReason,
            message: MSG_INIT_ASSUMED_COMPLETED,
            exitCode: 0,
          },
        };
        continue;
      }
    }
    if (!shouldContainerBeRestarted(container, pod, runtime, gates)) continue;
    const cache = opts.reasonCache;
    const reason =
      isObj(cache) && Object.prototype.hasOwnProperty.call(cache, container.name)
        ? cache[container.name]
        : undefined;
    if (!isObj(reason) || !str(reason.reason)) continue;
    if (isTerminated(status.state)) status.lastState = status.state;
    status.state = {
      waiting: {
        reason: str(reason.reason),
        ...(str(reason.message) ? { message: str(reason.message) } : {}),
      },
    };
  }

  if (opts.isInitContainer) {
    // kubetypes.SortStatusesOfInitContainers: spec order.
    const out: V1ContainerStatus[] = [];
    for (const c of containers) {
      const s = statuses.get(c.name);
      if (s && !out.includes(s)) out.push(s);
    }
    return out;
  }
  return [...statuses.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The restart count a record carries, for callers that need it without converting. */
export const recordRestartCount = (r: RuntimeContainer | undefined): number =>
  Math.max(0, int32(finite(r?.restartCount, 0)));
