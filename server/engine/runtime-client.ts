/**
 * The part of a CRI runtime the engine reads. server/cri's CriClient provides it over gRPC;
 * tests may provide it in memory. Proto shapes never reach this interface.
 */
import type { RuntimeCondition, RuntimeContainer, RuntimeInfo, RuntimeSandbox } from '@/lib/kubelet/runtime';

export interface RuntimeStatusReport {
  conditions: RuntimeCondition[];
  /** Verbose info (containerd: config; the simulator: node capacity under `podscope.sim/node`). */
  info: Record<string, string>;
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
  containerStatus(id: string): Promise<RuntimeContainer>;
  /** Rejects/throws with `unimplemented: true` on the error when the runtime has no event stream. */
  containerEvents(signal: AbortSignal): AsyncIterable<ContainerEventNotice>;
  close(): void;
}
