/**
 * The simulated node on the wire: a grpc-js Server with RuntimeService and ImageService over
 * proto/runtime/v1/api.proto, each RPC answered by the in-memory runtime (model.ts) after the
 * configured faults (faults.ts).
 *
 * Performance: the unfiltered ListPodSandbox / ListContainers answers — what a relist asks for
 * every second — are encoded once per change of the runtime (its listVersion) and the Buffer is
 * reused; the response serializer passes Buffers through untouched. The same pass-through
 * carries padded and corrupt answers for the fault tests.
 */
import { Server, status } from '@grpc/grpc-js';
import type {
  sendUnaryData,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { criDefinitions } from '@/server/cri/proto';
import type { ContainerEventResponse } from '@/server/cri/generated/runtime/v1/ContainerEventResponse';
import { SIM_NODE_INFO_KEY } from '@/server/cri/convert';
import { SimRpcError } from './runtime/errors';
import { garbageMessage, padMessage } from './faults';
import type { Faults, RpcName } from './faults';
import { toCriImage } from './runtime/images';
import type { SimRuntime } from './runtime/model';
import type { Random } from '@/lib/random';
import type { StatsView } from './runtime/stats';

export interface VersionInfo {
  runtimeName: string;
  runtimeVersion: string;
}

export const DEFAULT_VERSION: VersionInfo = {
  runtimeName: 'podscope-sim',
  runtimeVersion: '0.1.0',
};

export interface CriServerDeps {
  runtime: SimRuntime;
  stats: StatsView;
  faults: Faults;
  random: Random;
  version: VersionInfo;
}

type AnyRequest = Record<string, unknown>;
type Answer = unknown;

/** The service definition with a response serializer that lets pre-encoded Buffers through. */
function passThrough(def: ServiceDefinition): ServiceDefinition {
  const out: Record<string, ServiceDefinition[string]> = {};
  for (const [name, method] of Object.entries(def)) {
    const serialize = method.responseSerialize;
    out[name] = {
      ...method,
      responseSerialize: (value: unknown) => (Buffer.isBuffer(value) ? value : serialize(value)),
    };
  }
  return out;
}

function toStatus(err: unknown): { code: status; details: string } {
  if (err instanceof SimRpcError) return { code: err.code, details: err.message };
  return { code: status.INTERNAL, details: err instanceof Error ? err.message : String(err) };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Ends a server stream with a status. (grpc-js sends the status from the stream's 'error'
 * handler; destroy() would drop the call without one.)
 */
function failStream(
  call: ServerWritableStream<unknown, unknown>,
  code: status,
  details: string,
): void {
  call.emit('error', Object.assign(new Error(details), { code, details }));
}

/** Live GetContainerEvents calls of one server, so a fault can cut them. */
export class EventStreams {
  readonly calls = new Set<ServerWritableStream<unknown, unknown>>();

  /** Ends every open stream with UNAVAILABLE (the client sees the stream break). */
  drop(details = 'event stream dropped (injected fault)'): void {
    for (const call of this.calls) failStream(call, status.UNAVAILABLE, details);
    this.calls.clear();
  }
}

export function createCriServer(deps: CriServerDeps, streams: EventStreams): Server {
  const { runtime, stats, faults, random } = deps;
  const defs = criDefinitions();
  const encodeList = {
    ListPodSandbox: defs.runtime.ListPodSandbox.responseSerialize,
    ListContainers: defs.runtime.ListContainers.responseSerialize,
  };
  const cache: Record<
    'ListPodSandbox' | 'ListContainers',
    { version: number; bytes: Buffer } | undefined
  > = {
    ListPodSandbox: undefined,
    ListContainers: undefined,
  };

  const cachedList = (rpc: 'ListPodSandbox' | 'ListContainers', build: () => Answer): Buffer => {
    const hit = cache[rpc];
    if (hit && hit.version === runtime.listVersion) return hit.bytes;
    const bytes = encodeList[rpc](build() as never);
    cache[rpc] = { version: runtime.listVersion, bytes };
    return bytes;
  };

  const encodeAnswer = (rpc: RpcName, answer: Answer): Answer => {
    const pad = faults.oversize(rpc);
    if (pad === undefined) return answer;
    const method =
      (defs.runtime as unknown as ServiceDefinition)[rpc] ??
      (defs.image as unknown as ServiceDefinition)[rpc];
    if (!method) return answer;
    const bytes = Buffer.isBuffer(answer) ? answer : method.responseSerialize(answer);
    return padMessage(bytes, pad);
  };

  const unary =
    (rpc: RpcName, handle: (req: AnyRequest) => unknown) =>
    (call: ServerUnaryCall<AnyRequest, Answer>, callback: sendUnaryData<Answer>) => {
      const run = async () => {
        const delay = faults.latency(rpc);
        if (delay > 0) await wait(delay);
        if (faults.hangs(rpc)) return; // never answered: the client's deadline ends it
        const injected = faults.error(rpc);
        if (injected) {
          callback({ code: injected.code, details: injected.message });
          return;
        }
        if (faults.corrupt(rpc)) {
          callback(null, garbageMessage(random));
          return;
        }
        const answer = await handle(call.request);
        callback(null, encodeAnswer(rpc, answer));
      };
      run().catch((err: unknown) => callback(toStatus(err)));
    };

  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const int = (v: unknown): number => {
    const n = Number(v);
    return Number.isFinite(n) ? n : 0;
  };

  const runtimeService: UntypedServiceImplementation = {
    Version: unary('Version', () => ({
      version: '0.1.0',
      runtime_name: deps.version.runtimeName,
      runtime_version: deps.version.runtimeVersion,
      runtime_api_version: 'v1',
    })),
    Status: unary('Status', (req) => {
      const c = runtime.conditions;
      const info: Record<string, string> = {};
      if (req.verbose === true) {
        info[SIM_NODE_INFO_KEY] = JSON.stringify(stats.nodeFigures());
        info.config = JSON.stringify({ node: runtime.name, eventsMode: runtime.eventsMode });
      }
      return {
        status: {
          conditions: [
            { type: 'RuntimeReady', ...c.RuntimeReady },
            { type: 'NetworkReady', ...c.NetworkReady },
          ],
        },
        info,
        runtime_handlers: [],
      };
    }),
    RunPodSandbox: unary('RunPodSandbox', (req) => ({
      pod_sandbox_id: runtime.runPodSandbox(req as never),
    })),
    StopPodSandbox: unary('StopPodSandbox', (req) => {
      runtime.stopPodSandbox(str(req.pod_sandbox_id));
      return {};
    }),
    RemovePodSandbox: unary('RemovePodSandbox', (req) => {
      runtime.removePodSandbox(str(req.pod_sandbox_id));
      return {};
    }),
    PodSandboxStatus: unary('PodSandboxStatus', (req) =>
      runtime.podSandboxStatus(str(req.pod_sandbox_id), req.verbose === true),
    ),
    ListPodSandbox: unary('ListPodSandbox', (req) =>
      req.filter
        ? { items: runtime.listPodSandbox(req.filter as never) }
        : cachedList('ListPodSandbox', () => ({ items: runtime.listPodSandbox(null) })),
    ),
    CreateContainer: unary('CreateContainer', (req) => ({
      container_id: runtime.createContainer(req as never),
    })),
    StartContainer: unary('StartContainer', (req) => {
      runtime.startContainer(str(req.container_id));
      return {};
    }),
    StopContainer: unary('StopContainer', async (req) => {
      await runtime.stopContainer(str(req.container_id), int(req.timeout));
      return {};
    }),
    RemoveContainer: unary('RemoveContainer', (req) => {
      runtime.removeContainer(str(req.container_id));
      return {};
    }),
    ListContainers: unary('ListContainers', (req) =>
      req.filter
        ? { containers: runtime.listContainers(req.filter as never) }
        : cachedList('ListContainers', () => ({ containers: runtime.listContainers(null) })),
    ),
    ContainerStatus: unary('ContainerStatus', (req) =>
      runtime.containerStatusResponse(str(req.container_id), req.verbose === true),
    ),
    ExecSync: unary('ExecSync', (req) =>
      runtime.execSync(
        str(req.container_id),
        Array.isArray(req.cmd) ? req.cmd.map(String) : [],
        int(req.timeout),
      ),
    ),
    ReopenContainerLog: unary('ReopenContainerLog', (req) => {
      runtime.reopenContainerLog(str(req.container_id));
      return {};
    }),
    ContainerStats: unary('ContainerStats', (req) => ({
      stats: stats.containerStats(runtime.findContainer(str(req.container_id))),
    })),
    ListContainerStats: unary('ListContainerStats', (req) => ({
      stats: stats.listContainerStats((req.filter ?? null) as never),
    })),
    ListPodSandboxStats: unary('ListPodSandboxStats', (req) => ({
      stats: stats.listPodSandboxStats((req.filter ?? null) as never),
    })),
    GetContainerEvents: (call: ServerWritableStream<AnyRequest, unknown>) => {
      if (runtime.eventsMode === 'unimplemented') {
        // What containerd 1.6 (grpc-go) answers for an RPC it does not register.
        failStream(
          call,
          status.UNIMPLEMENTED,
          'unknown method GetContainerEvents for service runtime.v1.RuntimeService',
        );
        return;
      }
      const injected = faults.error('GetContainerEvents');
      if (injected) {
        failStream(call, injected.code, injected.message);
        return;
      }
      const stream = call as ServerWritableStream<unknown, unknown>;
      streams.calls.add(stream);
      const unsubscribe = runtime.subscribe((event: ContainerEventResponse) => {
        if (faults.eventsStalled) return;
        call.write(event);
      });
      const done = () => {
        unsubscribe();
        streams.calls.delete(stream);
      };
      call.on('cancelled', done);
      call.on('close', done);
      call.on('error', done);
    },
  };

  const imageService: UntypedServiceImplementation = {
    ListImages: unary('ListImages', () => ({ images: runtime.images.list().map(toCriImage) })),
    ImageStatus: unary('ImageStatus', (req) => {
      const spec = (req.image ?? {}) as AnyRequest;
      const image = runtime.images.resolve(str(spec.image));
      return { image: image ? toCriImage(image) : null, info: {} };
    }),
    PullImage: unary('PullImage', async (req) => {
      const spec = (req.image ?? {}) as AnyRequest;
      const image = await runtime.images.pull(str(spec.image));
      return { image_ref: image.id };
    }),
    RemoveImage: unary('RemoveImage', (req) => {
      const spec = (req.image ?? {}) as AnyRequest;
      runtime.images.remove(str(spec.image));
      return {};
    }),
    ImageFsInfo: unary('ImageFsInfo', () => stats.imageFsInfo()),
  };

  const server = new Server({
    // Answers may exceed the default 4 MiB (big lists, the oversize fault); the client enforces 16 MiB.
    'grpc.max_send_message_length': -1,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
  server.addService(passThrough(defs.runtime), runtimeService);
  server.addService(passThrough(defs.image), imageService);
  return server;
}
