/**
 * Reading a RuntimePodStatus the way the kubelet reads kubecontainer.PodStatus
 * (pkg/kubelet/container/runtime.go FindContainerStatusByName; kuberuntime GetPodStatus orders
 * container statuses newest first by creation time; the newest sandbox is SandboxStatuses[0]).
 */
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox } from './runtime';
import { asArray, finite, isObj, str } from './util';

/**
 * Orders already computed, by containers list: one derivation asks for its pod's order once per
 * container and rule. Reused while the list holds the very records it was sorted from.
 */
const newestFirst = new WeakMap<
  object,
  { records: readonly RuntimeContainer[]; sorted: readonly RuntimeContainer[] }
>();

/**
 * Containers newest first (createdAt, then attempt); malformed records are dropped. The same
 * list comes back for the same records: read it, do not change it.
 */
export function containersNewestFirst(
  runtime: RuntimePodStatus | undefined,
): readonly RuntimeContainer[] {
  const containers: unknown = isObj(runtime) ? runtime.containers : undefined;
  if (!Array.isArray(containers)) return [];
  const records = containers as readonly RuntimeContainer[];
  const known = newestFirst.get(records);
  if (known && sameRecords(known.records, records)) return known.sorted;
  const sorted = records
    .filter(isObj)
    .sort(
      (a, b) =>
        finite(b.createdAt, 0) - finite(a.createdAt, 0) ||
        finite(b.attempt, 0) - finite(a.attempt, 0),
    );
  newestFirst.set(records, { records: [...records], sorted });
  return sorted;
}

function sameRecords(a: readonly RuntimeContainer[], b: readonly RuntimeContainer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
