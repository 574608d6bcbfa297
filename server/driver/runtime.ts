/**
 * The part of a CRI runtime the driver calls. server/cri's CriClient satisfies it structurally
 * (so does the in-memory fake in ./testing for unit tests). Domain types only: no proto shapes.
 */
import type {
  NodeResources,
  RuntimeCondition,
  RuntimeContainer,
  RuntimeInfo,
  RuntimeSandbox,
} from '@/lib/kubelet/runtime';
import type {
  ContainerSpec,
  ExecResult,
  ImageInfo,
  SandboxSpec,
  SandboxStatusResult,
} from '@/server/cri/types';

export interface DriverRuntime {
  readonly endpoint: string;
  version(): Promise<RuntimeInfo>;
  /** The runtime's conditions (RuntimeReady, NetworkReady); optional for test fakes (network-ready). */
  status?(options?: {
    verbose?: boolean;
  }): Promise<{ conditions: RuntimeCondition[]; node?: NodeResources }>;
  /** Per-container usage (the eviction manager's working sets); optional for test fakes. */
  listContainerStats?(): Promise<
    readonly {
      name: string;
      labels: Readonly<Record<string, string>>;
      memory?: { workingSetBytes?: number };
    }[]
  >;
  listPodSandbox(filter?: {
    id?: string;
    state?: 'ready' | 'notready';
    labelSelector?: Record<string, string>;
  }): Promise<RuntimeSandbox[]>;
  podSandboxStatus(id: string): Promise<SandboxStatusResult>;
  listContainers(filter?: {
    id?: string;
    sandboxId?: string;
    state?: 'created' | 'running' | 'exited' | 'unknown';
    labelSelector?: Record<string, string>;
  }): Promise<RuntimeContainer[]>;
  containerStatus(id: string, options?: { sandboxId?: string }): Promise<RuntimeContainer>;
  runPodSandbox(spec: SandboxSpec): Promise<string>;
  stopPodSandbox(id: string): Promise<void>;
  removePodSandbox(id: string): Promise<void>;
  createContainer(
    sandboxId: string,
    container: ContainerSpec,
    sandbox: SandboxSpec,
  ): Promise<string>;
  startContainer(id: string): Promise<void>;
  stopContainer(id: string, timeoutSeconds: number): Promise<void>;
  removeContainer(id: string): Promise<void>;
  execSync(id: string, cmd: string[], timeoutSeconds?: number): Promise<ExecResult>;
  imageStatus(image: string): Promise<ImageInfo | undefined>;
  pullImage(image: string, options?: { sandbox?: SandboxSpec }): Promise<string>;
}

/** What a runtime error tells the driver: the gRPC code name and the runtime's own words. */
export interface RuntimeErrorInfo {
  /** Canonical gRPC code name (NOT_FOUND, UNKNOWN, …) or undefined for a non-gRPC failure. */
  codeName?: string;
  details: string;
}

export function runtimeErrorInfo(err: unknown): RuntimeErrorInfo {
  if (typeof err === 'object' && err !== null) {
    const codeName =
      'codeName' in err && typeof err.codeName === 'string' ? err.codeName : undefined;
    const details =
      'details' in err && typeof err.details === 'string'
        ? err.details
        : err instanceof Error
          ? err.message
          : JSON.stringify(err);
    return codeName === undefined ? { details } : { codeName, details };
  }
  return { details: String(err) };
}

/** Go's grpc status.Code String(): NOT_FOUND → NotFound, as kubelet messages print it. */
export function goCodeName(codeName: string): string {
  if (codeName === 'OK') return 'OK';
  return codeName
    .toLowerCase()
    .split('_')
    .map((w) => (w ? (w[0] ?? '').toUpperCase() + w.slice(1) : w))
    .join('');
}

/**
 * The text the kubelet keeps for a failed CRI call: `rpc error: code = NotFound desc = …`
 * (grpc-go's status error string), or the plain message for a non-gRPC failure.
 */
export function rpcErrorText(err: unknown): string {
  const info = runtimeErrorInfo(err);
  return info.codeName
    ? `rpc error: code = ${goCodeName(info.codeName)} desc = ${info.details}`
    : info.details;
}

/** True for a CRI NOT_FOUND (the kubelet ignores those when stopping or removing). */
export function isNotFound(err: unknown): boolean {
  return runtimeErrorInfo(err).codeName === 'NOT_FOUND';
}

/** True for UNIMPLEMENTED (a runtime without ExecSync, say). */
export function isUnimplemented(err: unknown): boolean {
  return runtimeErrorInfo(err).codeName === 'UNIMPLEMENTED';
}
