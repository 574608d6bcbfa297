/**
 * The CRI requests the kubelet builds for a pod: sandbox config (kuberuntime_sandbox.go
 * generatePodSandboxConfig) and container config (kuberuntime_container.go generateContainerConfig),
 * with the labels and annotations of kuberuntime/labels.go newPodLabels, newPodAnnotations,
 * newContainerLabels and newContainerAnnotations (KUBELET-SEMANTICS.md §7).
 *
 * Podscope adds one sandbox annotation, `podscope.dev/pod-spec`: the pod (apiVersion, kind,
 * metadata, spec) as JSON, so the engine knows restartPolicy, init containers and sidecars of a
 * pod it did not see through an API server.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { ANNOTATIONS, LABELS } from '@/lib/kubelet/runtime';
import type { ContainerResourcesSpec, ContainerSpec, SandboxSpec } from '@/server/cri/types';
import { memoryBytes, milliCpu } from '@/lib/kubelet/quantity';
import { fnv32a } from './spec';

/** Minimum CPU shares (cm.MinShares) and the CFS period the kubelet uses (100 ms). */
const MIN_SHARES = 2;
const QUOTA_PERIOD_US = 100_000;

export type ContainerType = 'init' | 'container';

export interface SandboxOptions {
  attempt: number;
  /** The sandbox's log_directory; '' lets the runtime keep no logs (lab default). */
  logDirectory?: string;
}

/** The pod as Podscope's spec annotation carries it (no status, no own annotation inside). */
export function podSpecAnnotation(pod: V1Pod): string {
  const annotations = { ...pod.metadata?.annotations };
  delete annotations[ANNOTATIONS.podSpec];
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod.metadata?.name,
      namespace: pod.metadata?.namespace,
      uid: pod.metadata?.uid,
      ...(pod.metadata?.labels ? { labels: pod.metadata.labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(pod.metadata?.creationTimestamp
        ? { creationTimestamp: pod.metadata.creationTimestamp }
        : {}),
    },
    spec: pod.spec,
  });
}

/** BuildPodLogsDirectory: `<root>/<namespace>_<name>_<uid>`. */
export function podLogsDirectory(root: string, pod: V1Pod): string {
  const m = pod.metadata;
  return `${root.replace(/\/+$/, '')}/${m?.namespace ?? ''}_${m?.name ?? ''}_${m?.uid ?? ''}`;
}

/** newPodLabels: the pod's labels plus the kubelet's three pod labels. */
export function newPodLabels(pod: V1Pod): Record<string, string> {
  return {
    ...pod.metadata?.labels,
    [LABELS.podName]: pod.metadata?.name ?? '',
    [LABELS.podNamespace]: pod.metadata?.namespace ?? '',
    [LABELS.podUid]: pod.metadata?.uid ?? '',
  };
}

export function buildSandboxSpec(pod: V1Pod, opts: SandboxOptions): SandboxSpec {
  const hostNetwork = pod.spec?.hostNetwork === true;
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    uid: pod.metadata?.uid ?? '',
    attempt: opts.attempt,
    networkMode: hostNetwork ? 'NODE' : 'POD',
    ...(opts.logDirectory ? { logDirectory: opts.logDirectory } : {}),
    labels: newPodLabels(pod),
    annotations: { ...pod.metadata?.annotations, [ANNOTATIONS.podSpec]: podSpecAnnotation(pod) },
  };
}

/**
 * HashContainer: FNV-32a over the container's JSON, printed in hex. Upstream hashes a pick of
 * fields; any stable digest of the spec serves the same purpose (detecting a changed spec).
 */
export function hashContainer(container: V1Container): string {
  return fnv32a(JSON.stringify(container)).toString(16);
}

/** LinuxContainerResources from the container's limits/requests (kuberuntime_container_linux.go). */
export function containerResources(container: V1Container): ContainerResourcesSpec {
  const limits = container.resources?.limits ?? {};
  const requests = container.resources?.requests ?? {};
  const out: ContainerResourcesSpec = {};
  const memory = memoryBytes(limits.memory);
  if (memory !== undefined && memory > 0) out.memoryLimitBytes = memory;
  const cpuRequest = milliCpu(requests.cpu ?? limits.cpu);
  if (cpuRequest !== undefined) {
    out.cpuShares = Math.max(MIN_SHARES, Math.floor((cpuRequest * 1024) / 1000));
  }
  const cpuLimit = milliCpu(limits.cpu);
  if (cpuLimit !== undefined && cpuLimit > 0) {
    out.cpuPeriod = QUOTA_PERIOD_US;
    out.cpuQuota = Math.floor((cpuLimit * QUOTA_PERIOD_US) / 1000);
  }
  return out;
}

/** newContainerLabels: only the kubelet's four labels (never the pod's own labels). */
export function newContainerLabels(container: V1Container, pod: V1Pod): Record<string, string> {
  return {
    [LABELS.podName]: pod.metadata?.name ?? '',
    [LABELS.podNamespace]: pod.metadata?.namespace ?? '',
    [LABELS.podUid]: pod.metadata?.uid ?? '',
    [LABELS.containerName]: container.name,
  };
}

/** newContainerAnnotations, plus the container type (init / container). */
export function newContainerAnnotations(
  container: V1Container,
  pod: V1Pod,
  restartCount: number,
  type: ContainerType,
): Record<string, string> {
  const out: Record<string, string> = {
    [ANNOTATIONS.containerHash]: hashContainer(container),
    [ANNOTATIONS.restartCount]: String(restartCount),
    [ANNOTATIONS.terminationMessagePath]: container.terminationMessagePath ?? '',
    [ANNOTATIONS.terminationMessagePolicy]: container.terminationMessagePolicy ?? '',
    [ANNOTATIONS.containerType]: type,
  };
  if (pod.metadata?.deletionGracePeriodSeconds !== undefined) {
    out[ANNOTATIONS.podDeletionGracePeriod] = String(pod.metadata.deletionGracePeriodSeconds);
  }
  if (pod.spec?.terminationGracePeriodSeconds !== undefined) {
    out[ANNOTATIONS.podTerminationGracePeriod] = String(pod.spec.terminationGracePeriodSeconds);
  }
  if (container.lifecycle?.preStop) {
    out[ANNOTATIONS.preStopHandler] = JSON.stringify(container.lifecycle.preStop);
  }
  if (container.ports && container.ports.length > 0) {
    out[ANNOTATIONS.containerPorts] = JSON.stringify(container.ports);
  }
  return out;
}

export function buildContainerSpec(input: {
  container: V1Container;
  pod: V1Pod;
  restartCount: number;
  type: ContainerType;
  env: Record<string, string>;
}): ContainerSpec {
  const { container, pod, restartCount, type, env } = input;
  return {
    name: container.name,
    attempt: restartCount,
    image: container.image ?? '',
    ...(container.command ? { command: container.command } : {}),
    ...(container.args ? { args: container.args } : {}),
    ...(container.workingDir ? { workingDir: container.workingDir } : {}),
    env,
    labels: newContainerLabels(container, pod),
    annotations: newContainerAnnotations(container, pod, restartCount, type),
    // buildContainerLogsPath: <container name>/<restart count>.log, relative to the sandbox's.
    logPath: `${container.name}/${restartCount}.log`,
    resources: containerResources(container),
  };
}
