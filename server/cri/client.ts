/**
 * CriClient: a typed client for one CRI endpoint (RuntimeService + ImageService on one channel).
 *
 * - Every unary call has a deadline (default 10 s; the kubelet's 2 min runtime request timeout
 *   is far too long for a console that must show a stuck runtime as stuck) — per-call override
 *   and AbortSignal supported.
 * - Reconnects with a bounded back-off: first retry after 100 ms (grpc-js would wait a full
 *   second, which a test or a restarted runtime feels), at most 5 s apart.
 * - 16 MiB send/receive limits, as the kubelet sets them (pkg/kubelet/cri/remote: maxMsgSize).
 * - Every failure is a CriError naming endpoint, RPC and gRPC code (see errors.ts).
 * - Returns domain types (lib/kubelet/runtime.ts, ./types.ts); proto shapes stop here.
 */
import { Client, credentials, status as GrpcStatus } from '@grpc/grpc-js';
import type {
  CallOptions as GrpcCallOptions,
  ChannelOptions,
  Interceptor,
  ServiceError,
} from '@grpc/grpc-js';
import { connectivityState } from '@grpc/grpc-js';
import type { RuntimeContainer, RuntimeInfo, RuntimeSandbox } from '@/lib/kubelet/runtime';
import {
  toContainerEvent,
  toContainerStatsSample,
  toContainerStatusDetail,
  toExecResult,
  toImageFsUsage,
  toImageInfo,
  toRuntimeContainer,
  toRuntimeInfo,
  toRuntimeSandbox,
  toRuntimeStatus,
  toSandboxStatsSample,
  toSandboxStatusResult,
} from './convert';
import { parseEndpoint } from './endpoint';
import type { ParsedEndpoint } from './endpoint';
import { CriError, toCriError } from './errors';
import { containerListDecoder, sandboxListDecoder } from './list-cache';
import type { ContainerFilter } from './generated/runtime/v1/ContainerFilter';
import type { ImageServiceDefinition } from './generated/runtime/v1/ImageService';
import type { PodSandboxFilter } from './generated/runtime/v1/PodSandboxFilter';
import type { RuntimeServiceDefinition } from './generated/runtime/v1/RuntimeService';
import { DEFAULT_TIMEOUT_MS, MAX_MESSAGE_BYTES } from './limits';
import { criDefinitions } from './proto';
import { buildCreateContainerRequest, buildRunPodSandboxRequest } from './requests';
import type {
  ContainerSpec,
  ContainerStatsSample,
  ContainerStatusDetail,
  ExecResult,
  ImageFsUsage,
  ImageInfo,
  RuntimeContainerEvent,
  RuntimeStatusInfo,
  SandboxSpec,
  SandboxStatsSample,
  SandboxStatusResult,
} from './types';

export { DEFAULT_TIMEOUT_MS, MAX_MESSAGE_BYTES };
export const INITIAL_RECONNECT_BACKOFF_MS = 100;
export const MAX_RECONNECT_BACKOFF_MS = 5_000;

export interface CriClientOptions {
  /** Default deadline of every unary call. */
  timeoutMs?: number;
  /** Send and receive limit; default 16 MiB. */
  maxMessageBytes?: number;
  /** Extra grpc-js channel options (override the defaults above). */
  channelOptions?: ChannelOptions;
  /** grpc-js client interceptors (the agent's CRI method allow-list). */
  interceptors?: Interceptor[];
}

export interface CallOptions {
  /** Deadline for this call, instead of the client's default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ListSandboxFilter {
  id?: string;
  state?: 'ready' | 'notready';
  labelSelector?: Record<string, string>;
}

export interface ListContainerFilter {
  id?: string;
  sandboxId?: string;
  state?: 'created' | 'running' | 'exited' | 'unknown';
  labelSelector?: Record<string, string>;
}

export interface StatsFilter {
  id?: string;
  sandboxId?: string;
  labelSelector?: Record<string, string>;
}

type Definitions = RuntimeServiceDefinition & ImageServiceDefinition;
type RpcName = keyof Definitions;
type RequestOf<K extends RpcName> = Definitions[K] extends {
  requestSerialize: (value: infer Req) => Buffer;
}
  ? Req
  : never;
type ResponseOf<K extends RpcName> = Definitions[K] extends {
  responseDeserialize: (bytes: Buffer) => infer Res;
}
  ? Res
  : never;

/** GetContainerEvents answered UNIMPLEMENTED: the runtime cannot stream (containerd 1.6). */
export class EventsUnimplementedError extends CriError {
  override name = 'EventsUnimplementedError';
}

const identity = (bytes: Buffer): Buffer => bytes;

const CONTAINER_STATE_ENUM = {
  created: 'CONTAINER_CREATED',
  running: 'CONTAINER_RUNNING',
  exited: 'CONTAINER_EXITED',
  unknown: 'CONTAINER_UNKNOWN',
} as const;

function sandboxFilter(f: ListSandboxFilter | undefined): PodSandboxFilter | null {
  if (!f) return null;
  return {
    id: f.id ?? '',
    state: f.state ? { state: f.state === 'ready' ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY' } : null,
    label_selector: { ...f.labelSelector },
  };
}

function containerFilter(f: ListContainerFilter | undefined): ContainerFilter | null {
  if (!f) return null;
  return {
    id: f.id ?? '',
    pod_sandbox_id: f.sandboxId ?? '',
    state: f.state ? { state: CONTAINER_STATE_ENUM[f.state] } : null,
    label_selector: { ...f.labelSelector },
  };
}

export class CriClient {
  readonly endpoint: string;
  readonly parsed: ParsedEndpoint;
  private readonly client: Client;
  private readonly defs: Definitions;
  private readonly timeoutMs: number;
  private closed = false;
  /** Unfiltered lists reuse the records whose bytes did not change (list-cache.ts). */
  private readonly sandboxList = sandboxListDecoder();
  private readonly containerList = containerListDecoder();

  constructor(endpoint: string, options: CriClientOptions = {}) {
    this.parsed = parseEndpoint(endpoint);
    this.endpoint = this.parsed.endpoint;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const { runtime, image } = criDefinitions();
    this.defs = { ...runtime, ...image };
    this.client = new Client(this.parsed.target, credentials.createInsecure(), {
      'grpc.max_receive_message_length': maxBytes,
      'grpc.max_send_message_length': maxBytes,
      'grpc.initial_reconnect_backoff_ms': INITIAL_RECONNECT_BACKOFF_MS,
      'grpc.max_reconnect_backoff_ms': MAX_RECONNECT_BACKOFF_MS,
      // Own connection per client: close() then really releases the socket, and one node's
      // broken runtime never shares a subchannel with another client.
      'grpc.use_local_subchannel_pool': 1,
      // HTTP/2 flow-control window as large as the largest message: a relist's list answers
      // (hundreds of KiB on a full node) then arrive without waiting for WINDOW_UPDATE round
      // trips at every 64 KiB, which on a busy machine cost a scheduling delay each.
      'grpc-node.flow_control_window': maxBytes,
      ...options.channelOptions,
      ...(options.interceptors ? { interceptors: options.interceptors } : {}),
    });
  }

  // ------------------------------------------------------------------------------------------
  // Plumbing
  // ------------------------------------------------------------------------------------------

  private fail(rpc: string, code: number, details: string): CriError {
    return new CriError({ endpoint: this.endpoint, rpc, code, details });
  }

  private callOptions(options: CallOptions | undefined): GrpcCallOptions {
    return { deadline: Date.now() + (options?.timeoutMs ?? this.timeoutMs) };
  }

  private invoke<Res>(
    rpc: string,
    start: (
      opts: GrpcCallOptions,
      done: (err: ServiceError | null, value?: Res) => void,
    ) => {
      cancel(): void;
    },
    options: CallOptions | undefined,
  ): Promise<Res> {
    if (this.closed) {
      return Promise.reject(this.fail(rpc, GrpcStatus.CANCELLED, 'client closed'));
    }
    const signal = options?.signal;
    if (signal?.aborted) {
      return Promise.reject(this.fail(rpc, GrpcStatus.CANCELLED, 'aborted before the call'));
    }
    return new Promise<Res>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      const done = (err: ServiceError | null, value?: Res) => {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        if (err) reject(toCriError(err, this.endpoint, rpc));
        else if (value === undefined) {
          reject(this.fail(rpc, GrpcStatus.INTERNAL, 'empty response'));
        } else resolve(value);
      };
      try {
        const call = start(this.callOptions(options), done);
        if (signal) {
          onAbort = () => call.cancel();
          signal.addEventListener('abort', onAbort, { once: true });
        }
      } catch (err) {
        // grpc-js throws synchronously e.g. on a channel shut down underneath us.
        reject(toCriError(err, this.endpoint, rpc));
      }
    });
  }

  private unary<K extends RpcName>(
    rpc: K,
    request: RequestOf<K>,
    options?: CallOptions,
  ): Promise<ResponseOf<K>> {
    const def = this.defs[rpc] as unknown as {
      path: string;
      requestSerialize: (value: RequestOf<K>) => Buffer;
      responseDeserialize: (bytes: Buffer) => ResponseOf<K>;
    };
    return this.invoke<ResponseOf<K>>(
      String(rpc),
      (opts, done) =>
        this.client.makeUnaryRequest(
          def.path,
          def.requestSerialize,
          def.responseDeserialize,
          request,
          opts,
          done,
        ),
      options,
    );
  }

  /** The undecoded response bytes of a unary call (benchmark floor: transport without decode). */
  private raw<K extends RpcName>(
    rpc: K,
    request: RequestOf<K>,
    options?: CallOptions,
  ): Promise<Buffer> {
    const def = this.defs[rpc] as unknown as {
      path: string;
      requestSerialize: (value: RequestOf<K>) => Buffer;
    };
    return this.invoke<Buffer>(
      String(rpc),
      (opts, done) =>
        this.client.makeUnaryRequest(def.path, def.requestSerialize, identity, request, opts, done),
      options,
    );
  }

  /** Resolves once the channel is connected; rejects with a CriError after `timeoutMs`. */
  waitForReady(timeoutMs = this.timeoutMs): Promise<void> {
    if (this.closed)
      return Promise.reject(this.fail('connect', GrpcStatus.CANCELLED, 'client closed'));
    return new Promise((resolve, reject) => {
      this.client.waitForReady(Date.now() + timeoutMs, (err) => {
        if (err) reject(this.fail('connect', GrpcStatus.UNAVAILABLE, err.message));
        else resolve();
      });
    });
  }

  /** The channel's connectivity state name (IDLE, CONNECTING, READY, TRANSIENT_FAILURE, SHUTDOWN). */
  connectivity(): string {
    const state = this.client.getChannel().getConnectivityState(false);
    return connectivityState[state];
  }

  /** Releases the channel; later calls reject with CANCELLED "client closed". Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.client.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // ------------------------------------------------------------------------------------------
  // RuntimeService: observing
  // ------------------------------------------------------------------------------------------

  async version(options?: CallOptions): Promise<RuntimeInfo> {
    return toRuntimeInfo(await this.unary('Version', { version: 'v1' }, options));
  }

  async status(options?: CallOptions & { verbose?: boolean }): Promise<RuntimeStatusInfo> {
    return toRuntimeStatus(
      await this.unary('Status', { verbose: options?.verbose ?? false }, options),
    );
  }

  async listPodSandbox(
    filter?: ListSandboxFilter,
    options?: CallOptions,
  ): Promise<RuntimeSandbox[]> {
    if (!filter) {
      const bytes = await this.raw('ListPodSandbox', { filter: null }, options);
      return this.decodeList('ListPodSandbox', () => this.sandboxList.decode(bytes));
    }
    const res = await this.unary('ListPodSandbox', { filter: sandboxFilter(filter) }, options);
    return res.items.map(toRuntimeSandbox);
  }

  async podSandboxStatus(
    id: string,
    options?: CallOptions & { verbose?: boolean },
  ): Promise<SandboxStatusResult> {
    const res = await this.unary(
      'PodSandboxStatus',
      { pod_sandbox_id: id, verbose: options?.verbose ?? false },
      options,
    );
    return toSandboxStatusResult(res);
  }

  async listContainers(
    filter?: ListContainerFilter,
    options?: CallOptions,
  ): Promise<RuntimeContainer[]> {
    if (!filter) {
      const bytes = await this.raw('ListContainers', { filter: null }, options);
      return this.decodeList('ListContainers', () => this.containerList.decode(bytes));
    }
    const res = await this.unary('ListContainers', { filter: containerFilter(filter) }, options);
    return res.containers.map(toRuntimeContainer);
  }

  /** An answer that does not parse fails as grpc-js fails it: INTERNAL, parsing error. */
  private decodeList<T>(rpc: string, decode: () => T): T {
    try {
      return decode();
    } catch (err) {
      throw new CriError({
        endpoint: this.endpoint,
        rpc,
        code: GrpcStatus.INTERNAL,
        details: `Response message parsing error: ${err instanceof Error ? err.message : String(err)}`,
        cause: err,
      });
    }
  }

  /**
   * ContainerStatus. The CRI message carries no sandbox id: pass the one you know
   * (`sandboxId`), else the record's sandboxId is ''.
   */
  async containerStatus(
    id: string,
    options?: CallOptions & { sandboxId?: string },
  ): Promise<RuntimeContainer> {
    return (await this.containerStatusDetail(id, options)).container;
  }

  async containerStatusDetail(
    id: string,
    options?: CallOptions & { sandboxId?: string; verbose?: boolean },
  ): Promise<ContainerStatusDetail> {
    const res = await this.unary(
      'ContainerStatus',
      { container_id: id, verbose: options?.verbose ?? false },
      options,
    );
    if (!res.status) {
      throw this.fail('ContainerStatus', GrpcStatus.INTERNAL, `no status for container "${id}"`);
    }
    return toContainerStatusDetail(res, options?.sandboxId ?? '');
  }

  async listContainerStats(
    filter?: StatsFilter,
    options?: CallOptions,
  ): Promise<ContainerStatsSample[]> {
    const res = await this.unary(
      'ListContainerStats',
      {
        filter: filter
          ? {
              id: filter.id ?? '',
              pod_sandbox_id: filter.sandboxId ?? '',
              label_selector: { ...filter.labelSelector },
            }
          : null,
      },
      options,
    );
    return res.stats.map(toContainerStatsSample);
  }

  async listPodSandboxStats(
    filter?: Omit<StatsFilter, 'sandboxId'>,
    options?: CallOptions,
  ): Promise<SandboxStatsSample[]> {
    const res = await this.unary(
      'ListPodSandboxStats',
      {
        filter: filter
          ? { id: filter.id ?? '', label_selector: { ...filter.labelSelector } }
          : null,
      },
      options,
    );
    return res.stats.map(toSandboxStatsSample);
  }

  /**
   * GetContainerEvents as an async iterable. Ends when `signal` aborts (or the server closes
   * the stream cleanly); throws a CriError otherwise — an EventsUnimplementedError when the
   * runtime cannot stream (containerd 1.6), so the caller falls back to polling. No deadline:
   * the stream is meant to stay open.
   */
  async *getContainerEvents(signal?: AbortSignal): AsyncGenerator<RuntimeContainerEvent> {
    const rpc = 'GetContainerEvents';
    if (this.closed) throw this.fail(rpc, GrpcStatus.CANCELLED, 'client closed');
    if (signal?.aborted) return;
    const def = this.defs.GetContainerEvents;
    let stream;
    try {
      stream = this.client.makeServerStreamRequest(
        def.path,
        def.requestSerialize,
        def.responseDeserialize,
        {},
        {},
      );
    } catch (err) {
      throw toCriError(err, this.endpoint, rpc);
    }
    const onAbort = () => stream.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      for await (const message of stream) {
        yield toContainerEvent(message as Parameters<typeof toContainerEvent>[0]);
      }
      finished = true;
    } catch (err) {
      finished = true;
      if (signal?.aborted) return;
      const criError = toCriError(err, this.endpoint, rpc);
      if (criError.unimplemented) {
        throw new EventsUnimplementedError({
          endpoint: this.endpoint,
          rpc,
          code: criError.code,
          details: criError.details,
          cause: err,
        });
      }
      throw criError;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // The consumer stopped early (break/return): end the call instead of leaking it.
      if (!finished) stream.cancel();
    }
  }

  // ------------------------------------------------------------------------------------------
  // RuntimeService: the lab driver's mutations
  // ------------------------------------------------------------------------------------------

  async runPodSandbox(spec: SandboxSpec, options?: CallOptions): Promise<string> {
    const res = await this.unary('RunPodSandbox', buildRunPodSandboxRequest(spec), options);
    return res.pod_sandbox_id;
  }

  async stopPodSandbox(id: string, options?: CallOptions): Promise<void> {
    await this.unary('StopPodSandbox', { pod_sandbox_id: id }, options);
  }

  async removePodSandbox(id: string, options?: CallOptions): Promise<void> {
    await this.unary('RemovePodSandbox', { pod_sandbox_id: id }, options);
  }

  async createContainer(
    sandboxId: string,
    container: ContainerSpec,
    sandbox: SandboxSpec,
    options?: CallOptions,
  ): Promise<string> {
    const res = await this.unary(
      'CreateContainer',
      buildCreateContainerRequest(sandboxId, container, sandbox),
      options,
    );
    return res.container_id;
  }

  async startContainer(id: string, options?: CallOptions): Promise<void> {
    await this.unary('StartContainer', { container_id: id }, options);
  }

  /**
   * StopContainer: stop signal, then SIGKILL after `timeoutSeconds`. The call lasts as long as
   * the container takes to die, so the deadline defaults to the grace period plus the client's
   * default timeout.
   */
  async stopContainer(id: string, timeoutSeconds: number, options?: CallOptions): Promise<void> {
    const timeoutMs = options?.timeoutMs ?? timeoutSeconds * 1000 + this.timeoutMs;
    await this.unary(
      'StopContainer',
      { container_id: id, timeout: Math.max(0, Math.trunc(timeoutSeconds)).toString() },
      { ...options, timeoutMs },
    );
  }

  async removeContainer(id: string, options?: CallOptions): Promise<void> {
    await this.unary('RemoveContainer', { container_id: id }, options);
  }

  async execSync(
    id: string,
    cmd: string[],
    timeoutSeconds = 0,
    options?: CallOptions,
  ): Promise<ExecResult> {
    const timeoutMs =
      options?.timeoutMs ?? (timeoutSeconds > 0 ? timeoutSeconds * 1000 : 0) + this.timeoutMs;
    const res = await this.unary(
      'ExecSync',
      { container_id: id, cmd, timeout: Math.max(0, Math.trunc(timeoutSeconds)).toString() },
      { ...options, timeoutMs },
    );
    return toExecResult(res);
  }

  // ------------------------------------------------------------------------------------------
  // ImageService
  // ------------------------------------------------------------------------------------------

  async listImages(options?: CallOptions): Promise<ImageInfo[]> {
    const res = await this.unary('ListImages', { filter: null }, options);
    return res.images.map(toImageInfo);
  }

  /** undefined when the image is not present (the CRI answers with an unset image, not an error). */
  async imageStatus(image: string, options?: CallOptions): Promise<ImageInfo | undefined> {
    const res = await this.unary('ImageStatus', { image: { image }, verbose: false }, options);
    return res.image ? toImageInfo(res.image) : undefined;
  }

  /** Returns the image ref (= ImageInfo.id). Pulls can be slow: pass a generous timeoutMs. */
  async pullImage(
    image: string,
    options?: CallOptions & { sandbox?: SandboxSpec },
  ): Promise<string> {
    const sandboxConfig = options?.sandbox
      ? buildRunPodSandboxRequest(options.sandbox).config
      : null;
    const res = await this.unary(
      'PullImage',
      { image: { image }, auth: null, sandbox_config: sandboxConfig ?? null },
      options,
    );
    return res.image_ref;
  }

  async imageFsInfo(options?: CallOptions): Promise<ImageFsUsage> {
    return toImageFsUsage(await this.unary('ImageFsInfo', {}, options));
  }

  // ------------------------------------------------------------------------------------------
  // Raw bytes (benchmarks)
  // ------------------------------------------------------------------------------------------

  /** ListPodSandbox (no filter), response bytes undecoded. */
  listPodSandboxRaw(options?: CallOptions): Promise<Buffer> {
    return this.raw('ListPodSandbox', { filter: null }, options);
  }

  /** ListContainers (no filter), response bytes undecoded. */
  listContainersRaw(options?: CallOptions): Promise<Buffer> {
    return this.raw('ListContainers', { filter: null }, options);
  }
}

/** Decoders matching the raw helpers, so a benchmark can time decode + convert separately. */
export function decodeListPodSandbox(bytes: Buffer): RuntimeSandbox[] {
  return criDefinitions()
    .runtime.ListPodSandbox.responseDeserialize(bytes)
    .items.map(toRuntimeSandbox);
}

export function decodeListContainers(bytes: Buffer): RuntimeContainer[] {
  return criDefinitions()
    .runtime.ListContainers.responseDeserialize(bytes)
    .containers.map(toRuntimeContainer);
}
