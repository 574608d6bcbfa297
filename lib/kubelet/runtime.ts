/**
 * The container runtime's view of a pod, as the kubelet holds it after reading the CRI
 * (upstream: pkg/kubelet/container/runtime.go — kubecontainer.PodStatus, kubecontainer.Status,
 * kubecontainer.State). server/cri converts CRI proto messages into these shapes; nothing in
 * lib/ ever sees a protobuf message.
 *
 * Times are epoch milliseconds (the CRI's int64 nanoseconds divided by 1e6; fractions kept).
 */

/** kubecontainer.State: CRI CONTAINER_CREATED/RUNNING/EXITED/UNKNOWN, anything else → unknown. */
export type ContainerRuntimeState = 'created' | 'running' | 'exited' | 'unknown';

/** CRI PodSandboxState: SANDBOX_READY → ready, anything else → notready. */
export type SandboxRuntimeState = 'ready' | 'notready';

/** CRI NamespaceMode as reported for a sandbox's network namespace. */
export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

/** One container record (kubecontainer.Status), from ListContainers and, once inspected, ContainerStatus. */
export interface RuntimeContainer {
  /** CRI container id. */
  id: string;
  sandboxId: string;
  /** The `io.kubernetes.container.name` label, falling back to the CRI metadata name. */
  name: string;
  /** CRI metadata.attempt. */
  attempt: number;
  state: ContainerRuntimeState;
  createdAt: number;
  /** Only when state is not `created` (kubelet ignores started_at of a created container). */
  startedAt?: number;
  /** Only when state is `exited`. */
  finishedAt?: number;
  /** Only when state is `exited`. */
  exitCode?: number;
  /** Runtime-supplied reason (containerd: Completed, Error, OOMKilled, StartError). */
  reason?: string;
  message?: string;
  image: string;
  imageRef: string;
  imageId?: string;
  /** The `io.kubernetes.container.restartCount` annotation (0 when absent or not a number). */
  restartCount: number;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  /** True once ContainerStatus has been read; ListContainers alone gives state and createdAt. */
  inspected: boolean;
}

/** One pod sandbox (kubecontainer's SandboxStatuses entry), from ListPodSandbox and PodSandboxStatus. */
export interface RuntimeSandbox {
  id: string;
  /** CRI PodSandboxMetadata. */
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
  state: SandboxRuntimeState;
  createdAt: number;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  runtimeHandler?: string;
  /** From PodSandboxStatus.network; absent until inspected. */
  network?: { ip: string; additionalIps: string[] };
  /** From PodSandboxStatus.linux.namespaces.options.network; absent until inspected. */
  networkMode?: NamespaceMode;
  inspected: boolean;
}

/** kubecontainer.PodStatus: everything the runtime holds for one pod uid. */
export interface RuntimePodStatus {
  uid: string;
  name: string;
  namespace: string;
  /** Newest first, as the kubelet orders SandboxStatuses. */
  sandboxes: RuntimeSandbox[];
  /** Every container record of the pod, in any order; the conversion picks the newest per name. */
  containers: RuntimeContainer[];
}

/** CRI RuntimeCondition (RuntimeReady, NetworkReady, or any other the runtime reports). */
export interface RuntimeCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}

/** CRI VersionResponse. */
export interface RuntimeInfo {
  name: string;
  version: string;
  apiVersion: string;
}

/**
 * What the kubelet's last SyncPod recorded for a container it could not start (the reason cache,
 * pkg/kubelet/reason_cache.go): e.g. ErrImagePull, ImagePullBackOff, CreateContainerConfigError.
 * The CRI does not carry these; they come from the API server, from Podscope's own driver, or
 * from inference (CrashLoopBackOff from the back-off rule).
 */
export interface SyncError {
  reason: string;
  message: string;
}

/** Node resource figures for the eviction signals (kubelet eviction manager). Bytes; absent = unknown. */
export interface NodeResources {
  memoryCapacityBytes?: number;
  memoryAvailableBytes?: number;
  nodeFsCapacityBytes?: number;
  nodeFsAvailableBytes?: number;
  nodeFsInodes?: number;
  nodeFsInodesFree?: number;
  imageFsCapacityBytes?: number;
  imageFsAvailableBytes?: number;
  imageFsInodes?: number;
  imageFsInodesFree?: number;
  pidMax?: number;
  pidsInUse?: number;
}

/** Where Podscope took a pod's spec from, in order of trust (ARCHITECTURE.md). */
export const SPEC_SOURCES = ['apiserver', 'annotation', 'inferred'] as const;
export type SpecSource = (typeof SPEC_SOURCES)[number];

/** Kubelet labels and annotations on CRI objects (pkg/kubelet/types/labels.go, kuberuntime/labels.go). */
export const LABELS = {
  podName: 'io.kubernetes.pod.name',
  podNamespace: 'io.kubernetes.pod.namespace',
  podUid: 'io.kubernetes.pod.uid',
  containerName: 'io.kubernetes.container.name',
} as const;

export const ANNOTATIONS = {
  containerHash: 'io.kubernetes.container.hash',
  restartCount: 'io.kubernetes.container.restartCount',
  terminationMessagePath: 'io.kubernetes.container.terminationMessagePath',
  terminationMessagePolicy: 'io.kubernetes.container.terminationMessagePolicy',
  podDeletionGracePeriod: 'io.kubernetes.pod.deletionGracePeriod',
  podTerminationGracePeriod: 'io.kubernetes.pod.terminationGracePeriod',
  preStopHandler: 'io.kubernetes.container.preStopHandler',
  containerPorts: 'io.kubernetes.container.ports',
  containerType: 'io.kubernetes.container.type',
  /** Podscope's driver: the full V1Pod (metadata + spec) as JSON, on the sandbox. */
  podSpec: 'podscope.dev/pod-spec',
} as const;
