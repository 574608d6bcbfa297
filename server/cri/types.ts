/**
 * Domain types the CRI client returns beyond those in lib/kubelet/runtime.ts: stats, images,
 * events, runtime status — and the domain-level inputs the lab driver builds requests from.
 * No protobuf shape leaves server/cri. Times are epoch milliseconds; byte and nanosecond counters
 * are numbers (exact up to 2^53: 104 days of CPU time in core-nanoseconds, 8 PiB of memory).
 */
import type {
  NamespaceMode,
  NodeResources,
  RuntimeCondition,
  RuntimeContainer,
  RuntimeSandbox,
} from '@/lib/kubelet/runtime';

/** StatusResponse. */
export interface RuntimeStatusInfo {
  conditions: RuntimeCondition[];
  /** Verbose info (values are JSON text); empty unless asked for. */
  info: Record<string, string>;
  handlers: RuntimeHandlerInfo[];
  /**
   * Node capacity figures when the runtime publishes them (Podscope's simulator does, under
   * the info key `podscope.sim/node`); real runtimes leave this undefined.
   */
  node?: NodeResources;
}

export interface RuntimeHandlerInfo {
  name: string;
  recursiveReadOnlyMounts: boolean;
  userNamespaces: boolean;
}

/** CpuUsage. Counters absent when the runtime left them unset. */
export interface CpuSample {
  timestamp: number;
  /** Cumulative core-nanoseconds since creation. */
  usageCoreNanoSeconds?: number;
  /** Average over the runtime's sample window, core-nanoseconds per second. */
  usageNanoCores?: number;
}

/** MemoryUsage, bytes. */
export interface MemorySample {
  timestamp: number;
  workingSetBytes?: number;
  availableBytes?: number;
  usageBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

/** FilesystemUsage. */
export interface FilesystemSample {
  timestamp: number;
  mountpoint: string;
  usedBytes?: number;
  inodesUsed?: number;
}

/** ContainerStats. containerd lists every container; cpu/memory only for running ones. */
export interface ContainerStatsSample {
  id: string;
  /** `io.kubernetes.container.name` label, else metadata name. */
  name: string;
  attempt: number;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  cpu?: CpuSample;
  memory?: MemorySample;
  writableLayer?: FilesystemSample;
}

export interface NetworkInterfaceSample {
  name: string;
  rxBytes?: number;
  rxErrors?: number;
  txBytes?: number;
  txErrors?: number;
}

/** PodSandboxStats (Linux). */
export interface SandboxStatsSample {
  id: string;
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  cpu?: CpuSample;
  memory?: MemorySample;
  network?: { timestamp: number; defaultInterface?: NetworkInterfaceSample };
  processCount?: number;
  containers: ContainerStatsSample[];
}

/** ImageFsInfoResponse. */
export interface ImageFsUsage {
  imageFilesystems: FilesystemSample[];
  containerFilesystems: FilesystemSample[];
}

/** Image. */
export interface ImageInfo {
  /** Equals Container.imageId and PullImage's image ref. */
  id: string;
  repoTags: string[];
  repoDigests: string[];
  sizeBytes: number;
  uid?: number;
  username: string;
  pinned: boolean;
}

/** ContainerEventType, lower-cased; a value this build does not know → 'unknown'. */
export type ContainerEventKind = 'created' | 'started' | 'stopped' | 'deleted' | 'unknown';

/**
 * ContainerEventResponse. containerd 1.7+ also sends events whose containerId is a sandbox id
 * (sandbox created/started/stopped/deleted); `sandbox` is absent when the runtime sent none
 * (e.g. after the sandbox was deleted).
 */
export interface RuntimeContainerEvent {
  containerId: string;
  kind: ContainerEventKind;
  /** Runtime's timestamp, epoch ms. */
  createdAt: number;
  sandbox?: RuntimeSandbox;
  containers: RuntimeContainer[];
}

/** ExecSyncResponse. */
export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** PodSandboxStatus plus what came with it. */
export interface SandboxStatusResult {
  sandbox: RuntimeSandbox;
  /** containers_statuses (containerd 1.7+ fills it; 1.6 leaves it empty). */
  containers: RuntimeContainer[];
  info: Record<string, string>;
  /** Runtime's timestamp for the statuses, epoch ms; absent when the runtime sent 0. */
  timestamp?: number;
}

/** ContainerStatus plus the fields RuntimeContainer does not carry. */
export interface ContainerStatusDetail {
  container: RuntimeContainer;
  logPath: string;
  /** LinuxContainerResources.memory_limit_in_bytes as reported; 0 = none. */
  memoryLimitBytes: number;
  info: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Inputs for the lab driver (domain → request builders in requests.ts)
// ---------------------------------------------------------------------------------------------

export interface SandboxSpec {
  /** PodSandboxMetadata. */
  name: string;
  namespace: string;
  uid: string;
  attempt?: number;
  /** NODE for a host-network pod; default POD. */
  networkMode?: Extract<NamespaceMode, 'POD' | 'NODE'>;
  /** Default: the pod name unless host network (then empty, the runtime uses the node's). */
  hostname?: string;
  logDirectory?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  runtimeHandler?: string;
  cgroupParent?: string;
  dns?: { servers?: string[]; searches?: string[]; options?: string[] };
  /** Pod-level resources (sum of the containers'), informative for the runtime. */
  resources?: ContainerResourcesSpec;
}

export interface ContainerResourcesSpec {
  /** 0 / absent = unlimited. */
  memoryLimitBytes?: number;
  cpuShares?: number;
  cpuQuota?: number;
  cpuPeriod?: number;
  oomScoreAdj?: number;
}

export interface ContainerSpec {
  /** ContainerMetadata.name. */
  name: string;
  attempt?: number;
  image: string;
  /** Entrypoint override; absent = the image's. */
  command?: string[];
  /** Arguments; absent = the image's Cmd when command is absent too. */
  args?: string[];
  workingDir?: string;
  env?: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Relative to the sandbox's logDirectory. */
  logPath?: string;
  resources?: ContainerResourcesSpec;
  privileged?: boolean;
  /** Bind mounts from the host, as a kubelet passes its volumes (hostPath, emptyDir). */
  mounts?: { containerPath: string; hostPath: string; readonly?: boolean }[];
  /** The container's securityContext, as a kubelet translates it (absent: the runtime's defaults). */
  runAsUser?: number;
  runAsGroup?: number;
  readonlyRootfs?: boolean;
  /** allowPrivilegeEscalation: false. */
  noNewPrivs?: boolean;
  /** capabilities.drop, e.g. ['ALL']. */
  dropCapabilities?: string[];
}
