/**
 * The part of a CRI runtime the engine reads. server/cri's CriClient provides it over gRPC;
 * tests may provide it in memory. Proto shapes never reach this interface.
 */
import type {
  NodeResources,
  RuntimeCondition,
  RuntimeContainer,
  RuntimeInfo,
  RuntimeSandbox,
} from '@/lib/kubelet/runtime';
import type { UsageSample } from '@/lib/kubelet/usage';

export interface RuntimeStatusReport {
  conditions: RuntimeCondition[];
  /** Node capacity figures where the runtime publishes them (the simulator does). */
  node?: NodeResources;
}

/** One GetContainerEvents notice; the engine treats it as a hint to relist now. */
export interface ContainerEventNotice {
  containerId: string;
  type: 'created' | 'started' | 'stopped' | 'deleted';
  createdAt: number;
  podUid?: string;
}

export interface RuntimeClient {
  readonly endpoint: string;
  version(): Promise<RuntimeInfo>;
  status(): Promise<RuntimeStatusReport>;
  listPodSandbox(): Promise<RuntimeSandbox[]>;
  listContainers(): Promise<RuntimeContainer[]>;
  podSandboxStatus(id: string): Promise<RuntimeSandbox>;
  /** The CRI's ContainerStatus carries no sandbox id; the caller passes the listed one. */
  containerStatus(id: string, sandboxId: string): Promise<RuntimeContainer>;
  /** Rejects/throws with `unimplemented: true` on the error when the runtime has no event stream. */
  containerEvents(signal: AbortSignal): AsyncIterable<ContainerEventNotice>;
  /** ListContainerStats (absent: no usage figures); rejects with `unimplemented: true` like the above. */
  listContainerStats?(): Promise<UsageSample[]>;
  close(): void;
}
