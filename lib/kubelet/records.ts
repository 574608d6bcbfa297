/**
 * Reading a RuntimePodStatus the way the kubelet reads kubecontainer.PodStatus
 * (pkg/kubelet/container/runtime.go FindContainerStatusByName; kuberuntime GetPodStatus orders
 * container statuses newest first by creation time; the newest sandbox is SandboxStatuses[0]).
 */
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox } from './runtime';
import { asArray, finite, isObj, str } from './util';

/** Containers newest first (createdAt, then attempt); malformed records are dropped. */
export function containersNewestFirst(runtime: RuntimePodStatus | undefined): RuntimeContainer[] {
  const list = isObj(runtime) ? asArray(runtime.containers).filter(isObj) : [];
  return [...list].sort(
    (a, b) =>
      finite(b.createdAt, 0) - finite(a.createdAt, 0) ||
      finite(b.attempt, 0) - finite(a.attempt, 0),
  );
}

/** The newest record of a container name (FindContainerStatusByName). */
export function findContainerStatusByName(
  runtime: RuntimePodStatus | undefined,
  name: string,
): RuntimeContainer | undefined {
  return containersNewestFirst(runtime).find((c) => str(c.name) === name);
}

/** Sandboxes in the order given (the contract says newest first); malformed entries dropped. */
export function sandboxesOf(runtime: RuntimePodStatus | undefined): RuntimeSandbox[] {
  return isObj(runtime) ? asArray(runtime.sandboxes).filter(isObj) : [];
}

/**
 * ActiveContainerStatuses: the containers of the current (newest) sandbox. The kubelet uses them
 * to decide whether the pod has been initialized in this sandbox (HasAnyActiveRegularContainerStarted).
 */
export function activeContainers(runtime: RuntimePodStatus | undefined): RuntimeContainer[] {
  const newest = sandboxesOf(runtime)[0];
  if (!newest) return [];
  return containersNewestFirst(runtime).filter((c) => c.sandboxId === newest.id);
}
