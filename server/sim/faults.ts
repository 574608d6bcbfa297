/**
 * Fault injection for a simulated node, per RPC: added latency (fixed, uniform, or a log-normal
 * fitted to a p50 and a p99), errors with a gRPC code (always, with a probability, or for the
 * next N calls), calls that never answer, answers padded past the 16 MiB limit, answers that are
 * not protobuf, and event-stream trouble (stall: the stream stays open but carries nothing;
 * drop: open streams end with UNAVAILABLE). Socket-level faults (runtime restart, a non-gRPC
 * listener) live on the node (node.ts). Draws use the node's seeded random.
 */
import type { Random } from '@/lib/random';

export type RpcName =
  | 'Version'
  | 'Status'
  | 'RunPodSandbox'
  | 'StopPodSandbox'
  | 'RemovePodSandbox'
  | 'PodSandboxStatus'
  | 'ListPodSandbox'
  | 'CreateContainer'
  | 'StartContainer'
  | 'StopContainer'
  | 'RemoveContainer'
  | 'ListContainers'
  | 'ContainerStatus'
  | 'ReopenContainerLog'
  | 'ExecSync'
  | 'ContainerStats'
  | 'ListContainerStats'
  | 'ListPodSandboxStats'
  | 'GetContainerEvents'
  | 'ListImages'
  | 'ImageStatus'
  | 'PullImage'
  | 'RemoveImage'
  | 'ImageFsInfo';

export type LatencySpec =
  | number
  | { fixedMs: number }
  | { minMs: number; maxMs: number }
  /** Log-normal with this median and 99th percentile. */
  | { p50Ms: number; p99Ms: number };

export interface ErrorFault {
  /** gRPC status code, e.g. 14 UNAVAILABLE, 4 DEADLINE_EXCEEDED. */
  code: number;
  message?: string;
  /** Chance per call, default 1. */
  probability?: number;
  /** Fail only this many more calls, then stop (default: no limit). */
  times?: number;
}

export interface FaultConfig {
  latency?: { all?: LatencySpec; rpc?: Partial<Record<RpcName, LatencySpec>> };
  errors?: Partial<Record<RpcName, ErrorFault>>;
  /** RPCs that never answer (the client's deadline ends them). */
  hang?: Partial<Record<RpcName, boolean>>;
  /** Pad the answer to at least this many bytes (still valid protobuf: an unknown field). */
  oversize?: Partial<Record<RpcName, number>>;
  /** Answer with bytes that are not a protobuf message. */
  corrupt?: Partial<Record<RpcName, boolean>>;
  events?: 'normal' | 'stall';
}

/** z for the 99th percentile of the standard normal. */
const Z99 = 2.326347874;

export function validateLatency(spec: LatencySpec): void {
  const bad = (why: string) => new RangeError(`latency ${JSON.stringify(spec)}: ${why}`);
  if (typeof spec === 'number') {
    if (!(spec >= 0)) throw bad('must be ≥ 0 ms');
  } else if ('fixedMs' in spec) {
    if (!(spec.fixedMs >= 0)) throw bad('fixedMs must be ≥ 0');
  } else if ('minMs' in spec) {
    if (!(spec.minMs >= 0 && spec.maxMs >= spec.minMs)) throw bad('needs 0 ≤ minMs ≤ maxMs');
  } else if (!(spec.p50Ms > 0 && spec.p99Ms >= spec.p50Ms)) {
    throw bad('needs 0 < p50Ms ≤ p99Ms');
  }
}

/** One draw from `spec`, milliseconds. */
export function drawLatency(spec: LatencySpec, random: Random): number {
  if (typeof spec === 'number') return spec;
  if ('fixedMs' in spec) return spec.fixedMs;
  if ('minMs' in spec) return spec.minMs + random.next() * (spec.maxMs - spec.minMs);
  const mu = Math.log(spec.p50Ms);
  const sigma = (Math.log(spec.p99Ms) - mu) / Z99;
  return Math.exp(mu + sigma * random.normal());
}

export class Faults {
  private config: FaultConfig = {};

  constructor(
    private readonly random: Random,
    initial: FaultConfig = {},
  ) {
    this.set(initial);
  }

  /** Replaces the whole configuration. */
  set(config: FaultConfig): void {
    for (const spec of [config.latency?.all, ...Object.values(config.latency?.rpc ?? {})]) {
      if (spec !== undefined) validateLatency(spec);
    }
    for (const [rpc, e] of Object.entries(config.errors ?? {})) {
      if (!Number.isInteger(e.code) || e.code < 1 || e.code > 16) {
        throw new RangeError(`errors.${rpc}.code must be a gRPC status code 1–16, got ${e.code}`);
      }
    }
    this.config = structuredClone(config);
  }

  /** Merges into the current configuration (one key at a time). */
  update(partial: FaultConfig): void {
    const c = this.config;
    this.set({
      ...c,
      ...partial,
      latency: partial.latency ? { ...c.latency, ...partial.latency } : c.latency,
      errors: partial.errors ? { ...c.errors, ...partial.errors } : c.errors,
      hang: partial.hang ? { ...c.hang, ...partial.hang } : c.hang,
      oversize: partial.oversize ? { ...c.oversize, ...partial.oversize } : c.oversize,
      corrupt: partial.corrupt ? { ...c.corrupt, ...partial.corrupt } : c.corrupt,
    });
  }

  clear(): void {
    this.config = {};
  }

  get current(): Readonly<FaultConfig> {
    return this.config;
  }

  /** Wall-clock delay for this call, ms (0 when none configured). */
  latency(rpc: RpcName): number {
    const spec = this.config.latency?.rpc?.[rpc] ?? this.config.latency?.all;
    return spec === undefined ? 0 : Math.max(0, drawLatency(spec, this.random));
  }

  /** The error this call should fail with, if any (consumes a `times` budget). */
  error(rpc: RpcName): { code: number; message: string } | undefined {
    const e = this.config.errors?.[rpc];
    if (!e) return undefined;
    if (e.times !== undefined && e.times <= 0) return undefined;
    if (e.probability !== undefined && this.random.next() >= e.probability) return undefined;
    if (e.times !== undefined) e.times--;
    return { code: e.code, message: e.message ?? `injected fault: ${rpc} fails` };
  }

  hangs(rpc: RpcName): boolean {
    return this.config.hang?.[rpc] === true;
  }

  oversize(rpc: RpcName): number | undefined {
    return this.config.oversize?.[rpc];
  }

  corrupt(rpc: RpcName): boolean {
    return this.config.corrupt?.[rpc] === true;
  }

  get eventsStalled(): boolean {
    return this.config.events === 'stall';
  }
}

/** protobuf varint. */
function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** Field 536870911 (the highest): no CRI message uses it, so decoders skip it as unknown. */
const PAD_TAG = varint(536870911 * 8 + 2);

/** `encoded` grown to at least `bytes` with an unknown length-delimited field. */
export function padMessage(encoded: Buffer, bytes: number): Buffer {
  const missing = bytes - encoded.length;
  if (missing <= 0) return encoded;
  const len = Math.max(0, missing - PAD_TAG.length - 5);
  return Buffer.concat([encoded, PAD_TAG, varint(len), Buffer.alloc(len, 0x61)]);
}

/** Bytes no protobuf decoder accepts: a field with wire type 7 (invalid). */
export function garbageMessage(random: Random): Buffer {
  const body = Buffer.from(random.hex(32), 'hex');
  return Buffer.concat([Buffer.from([0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f]), body]);
}
