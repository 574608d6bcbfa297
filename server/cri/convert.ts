/**
 * CRI proto objects (as @grpc/proto-loader decodes them, see proto.ts) → Podscope's domain
 * types. Pure. Every reader here takes what the wire gave without trusting it: a missing,
 * mistyped or out-of-range field becomes the documented default, never an exception — a runtime
 * that sends something odd must not take a node's relist down (convert.test.ts holds that as a
 * property over arbitrary records).
 *
 * Rules carried over from the kubelet (pkg/kubelet/kuberuntime/helpers.go, kuberuntime_container.go
 * and labels.go): CRI container state → created/running/exited/unknown with anything else →
 * unknown; sandbox SANDBOX_READY → ready, anything else → notready; started_at is ignored for a
 * created container; exit code and finished_at only mean something once exited; restartCount is
 * the `io.kubernetes.container.restartCount` annotation (garbled → 0); the container name is the
 * `io.kubernetes.container.name` label, falling back to the CRI metadata name.
 */
import type {
  ContainerRuntimeState,
  NamespaceMode,
  NodeResources,
  RuntimeCondition,
  RuntimeContainer,
  RuntimeInfo,
  RuntimeSandbox,
  SandboxRuntimeState,
} from '@/lib/kubelet/runtime';
import { ANNOTATIONS, LABELS } from '@/lib/kubelet/runtime';
import type { Container__Output } from './generated/runtime/v1/Container';
import type { ContainerEventResponse__Output } from './generated/runtime/v1/ContainerEventResponse';
import type { ContainerStats__Output } from './generated/runtime/v1/ContainerStats';
import type { ContainerStatus__Output } from './generated/runtime/v1/ContainerStatus';
import type { ContainerStatusResponse__Output } from './generated/runtime/v1/ContainerStatusResponse';
import type { ExecSyncResponse__Output } from './generated/runtime/v1/ExecSyncResponse';
import type { Image__Output } from './generated/runtime/v1/Image';
import type { ImageFsInfoResponse__Output } from './generated/runtime/v1/ImageFsInfoResponse';
import type { PodSandbox__Output } from './generated/runtime/v1/PodSandbox';
import type { PodSandboxStats__Output } from './generated/runtime/v1/PodSandboxStats';
import type { PodSandboxStatus__Output } from './generated/runtime/v1/PodSandboxStatus';
import type { PodSandboxStatusResponse__Output } from './generated/runtime/v1/PodSandboxStatusResponse';
import type { StatusResponse__Output } from './generated/runtime/v1/StatusResponse';
import type { VersionResponse__Output } from './generated/runtime/v1/VersionResponse';
import type {
  ContainerEventKind,
  ContainerStatsSample,
  ContainerStatusDetail,
  CpuSample,
  ExecResult,
  FilesystemSample,
  ImageFsUsage,
  ImageInfo,
  MemorySample,
  NetworkInterfaceSample,
  RuntimeContainerEvent,
  RuntimeStatusInfo,
  SandboxStatsSample,
  SandboxStatusResult,
} from './types';

/** Info key under which Podscope's simulator publishes node capacity (JSON, see server/sim). */
export const SIM_NODE_INFO_KEY = 'podscope.sim/node';

// ---------------------------------------------------------------------------------------------
// Defensive readers
// ---------------------------------------------------------------------------------------------

type Obj = Readonly<Record<string, unknown>>;
const EMPTY: Obj = Object.freeze({});

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : EMPTY;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * Bounds for what a runtime sends: the CRI is untrusted input. Names cap at a DNS subdomain's
 * 253, ids at 256, reasons and image references at 1 KiB, messages at 32 KiB (the limits the
 * timeline file format enforces too, so anything recorded can be exported and imported again).
 */
export const CRI_TEXT_LIMITS = {
  name: 253,
  id: 256,
  short: 1024,
  message: 32_768,
  key: 512,
  value: 256 * 1024,
  entries: 1000,
} as const;

function bounded(v: unknown, max: number): string {
  const s = str(v);
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
const name = (v: unknown) => bounded(v, CRI_TEXT_LIMITS.name);
const id = (v: unknown) => bounded(v, CRI_TEXT_LIMITS.id);
const short = (v: unknown) => intern(bounded(v, CRI_TEXT_LIMITS.short));

function bool(v: unknown): boolean {
  return v === true;
}

function list(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

function strings(v: unknown): string[] {
  return list(v).filter((x): x is string => typeof x === 'string');
}

/** A map<string,string> field, copied; non-string values dropped. */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const [key, value] of Object.entries(obj(v))) {
    if (n >= CRI_TEXT_LIMITS.entries) break;
    if (
      typeof value !== 'string' ||
      key.length > CRI_TEXT_LIMITS.key ||
      value.length > CRI_TEXT_LIMITS.value
    )
      continue;
    out[key] = intern(value);
    n++;
  }
  return out;
}

/**
 * One copy of each label and annotation value, image name and reference across every record of
 * every node. A full node repeats the same few values on hundreds of records ("File",
 * "/dev/termination-log", the image, the pod's spec annotation on its sandbox's listed and
 * inspected records), and each decode makes fresh strings: shared, the server's heap (and so
 * every full GC's marking) shrinks with them. Bounded: when full the pool starts again (a runtime
 * naming something new every relist cannot grow it without limit).
 */
const INTERN_MAX_ENTRIES = 200_000;
const INTERN_MAX_CHARS = 16_384;
let pool = new Map<string, string>();

export function intern(s: string): string {
  if (s.length > INTERN_MAX_CHARS) return s;
  const held = pool.get(s);
  if (held !== undefined) return held;
  if (pool.size >= INTERN_MAX_ENTRIES) pool = new Map();
  pool.set(s, s);
  return s;
}

const INTEGER = /^[+-]?\d+$/;

/** An int32/uint32 (number) or int64/uint64 (decimal string) field → finite number, else 0. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v === 'string' && INTEGER.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/**
 * int64 nanoseconds since the epoch (decimal string) → epoch milliseconds, keeping the
 * sub-millisecond part as a fraction. Splitting the digits keeps full precision for the integer
 * milliseconds, which a plain Number(ns) / 1e6 would round at 2^53 ns (~104 days after 1970).
 */
export function nsToMs(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v / 1e6 : 0;
  if (typeof v !== 'string' || !INTEGER.test(v)) return 0;
  const negative = v.startsWith('-');
  const digits = v.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
  const whole = digits.length > 6 ? Number(digits.slice(0, -6)) : 0;
  const frac = Number(digits.slice(-6)) / 1e6;
  const ms = whole + frac;
  if (!Number.isFinite(ms)) return 0;
  return negative ? -ms : ms;
}

/** UInt64Value wrapper → number; absent when the runtime left it unset. */
function u64(v: unknown): number | undefined {
  const wrapper = obj(v);
  if (wrapper === EMPTY || !('value' in wrapper)) return undefined;
  return toNumber(wrapper.value);
}

/** The restartCount annotation: a non-negative decimal, anything else (absent, garbled) → 0. */
export function parseRestartCount(annotations: Readonly<Record<string, string>>): number {
  const raw = annotations[ANNOTATIONS.restartCount];
  if (raw === undefined || !/^\d+$/.test(raw)) return 0;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : 0;
}

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------

export function toContainerState(v: unknown): ContainerRuntimeState {
  switch (v) {
    case 'CONTAINER_CREATED':
    case 0:
      return 'created';
    case 'CONTAINER_RUNNING':
    case 1:
      return 'running';
    case 'CONTAINER_EXITED':
    case 2:
      return 'exited';
    default:
      return 'unknown';
  }
}

export function toSandboxState(v: unknown): SandboxRuntimeState {
  return v === 'SANDBOX_READY' || v === 0 ? 'ready' : 'notready';
}

export function toNamespaceMode(v: unknown): NamespaceMode | undefined {
  switch (v) {
    case 'POD':
    case 0:
      return 'POD';
    case 'CONTAINER':
    case 1:
      return 'CONTAINER';
    case 'NODE':
    case 2:
      return 'NODE';
    case 'TARGET':
    case 3:
      return 'TARGET';
    default:
      return undefined;
  }
}

export function toEventKind(v: unknown): ContainerEventKind {
  switch (v) {
    case 'CONTAINER_CREATED_EVENT':
    case 0:
      return 'created';
    case 'CONTAINER_STARTED_EVENT':
    case 1:
      return 'started';
    case 'CONTAINER_STOPPED_EVENT':
    case 2:
      return 'stopped';
    case 'CONTAINER_DELETED_EVENT':
    case 3:
      return 'deleted';
    default:
      return 'unknown';
  }
}

// ---------------------------------------------------------------------------------------------
// Runtime
// ---------------------------------------------------------------------------------------------

export function toRuntimeInfo(r: VersionResponse__Output): RuntimeInfo {
  const o = obj(r);
  return {
    name: short(o.runtime_name),
    version: short(o.runtime_version),
    apiVersion: short(o.runtime_api_version),
  };
}

export function toRuntimeCondition(c: unknown): RuntimeCondition {
  const o = obj(c);
  return {
    type: short(o.type),
    status: bool(o.status),
    reason: short(o.reason),
    message: bounded(o.message, CRI_TEXT_LIMITS.message),
  };
}

const NODE_RESOURCE_KEYS = [
  'memoryCapacityBytes',
  'memoryAvailableBytes',
  'nodeFsCapacityBytes',
  'nodeFsAvailableBytes',
  'nodeFsInodes',
  'nodeFsInodesFree',
  'imageFsCapacityBytes',
  'imageFsAvailableBytes',
  'imageFsInodes',
  'imageFsInodesFree',
  'pidMax',
  'pidsInUse',
] as const satisfies readonly (keyof NodeResources)[];

/** The simulator's node figures (JSON object of non-negative numbers); garbage → undefined. */
export function parseNodeResources(json: string | undefined): NodeResources | undefined {
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  const o = obj(parsed);
  if (o === EMPTY) return undefined;
  const out: NodeResources = {};
  for (const key of NODE_RESOURCE_KEYS) {
    const v = o[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = v;
  }
  return out;
}

export function toRuntimeStatus(r: StatusResponse__Output): RuntimeStatusInfo {
  const o = obj(r);
  const info = stringMap(o.info);
  const node = parseNodeResources(info[SIM_NODE_INFO_KEY]);
  const status: RuntimeStatusInfo = {
    conditions: list(obj(o.status).conditions).map(toRuntimeCondition),
    info,
    handlers: list(o.runtime_handlers).map((h) => {
      const ho = obj(h);
      const features = obj(ho.features);
      return {
        name: str(ho.name),
        recursiveReadOnlyMounts: bool(features.recursive_read_only_mounts),
        userNamespaces: bool(features.user_namespaces),
      };
    }),
  };
  if (node) status.node = node;
  return status;
}

// ---------------------------------------------------------------------------------------------
// Sandboxes
// ---------------------------------------------------------------------------------------------

function sandboxBase(o: Obj, labelsField: unknown, annotationsField: unknown) {
  const meta = obj(o.metadata);
  const sandbox: RuntimeSandbox = {
    id: id(o.id),
    name: name(meta.name),
    namespace: name(meta.namespace),
    uid: id(meta.uid),
    attempt: toNumber(meta.attempt),
    state: toSandboxState(o.state),
    createdAt: nsToMs(o.created_at),
    labels: stringMap(labelsField),
    annotations: stringMap(annotationsField),
    inspected: false,
  };
  const handler = short(o.runtime_handler);
  if (handler !== '') sandbox.runtimeHandler = handler;
  return sandbox;
}

/** ListPodSandbox item. */
export function toRuntimeSandbox(p: PodSandbox__Output): RuntimeSandbox {
  const o = obj(p);
  return sandboxBase(o, o.labels, o.annotations);
}

/** PodSandboxStatus: adds network and the network namespace mode. */
export function toInspectedSandbox(s: PodSandboxStatus__Output): RuntimeSandbox {
  const o = obj(s);
  const sandbox = sandboxBase(o, o.labels, o.annotations);
  sandbox.inspected = true;
  const network = obj(o.network);
  sandbox.network = {
    ip: short(network.ip),
    additionalIps: list(network.additional_ips)
      .slice(0, 16)
      .map((ip) => short(obj(ip).ip))
      .filter((ip) => ip !== ''),
  };
  const mode = toNamespaceMode(obj(obj(obj(o.linux).namespaces).options).network);
  if (mode) sandbox.networkMode = mode;
  return sandbox;
}

export function toSandboxStatusResult(r: PodSandboxStatusResponse__Output): SandboxStatusResult {
  const o = obj(r);
  const sandbox = toInspectedSandbox(o.status as PodSandboxStatus__Output);
  const result: SandboxStatusResult = {
    sandbox,
    containers: list(o.containers_statuses).map((c) =>
      toInspectedContainer(c as ContainerStatus__Output, sandbox.id),
    ),
    info: stringMap(o.info),
  };
  const timestamp = nsToMs(o.timestamp);
  if (timestamp > 0) result.timestamp = timestamp;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Containers
// ---------------------------------------------------------------------------------------------

function containerName(labels: Readonly<Record<string, string>>, meta: Obj): string {
  return name(labels[LABELS.containerName] ?? meta.name);
}

/** ListContainers item: state and creation time only, not yet inspected. */
export function toRuntimeContainer(c: Container__Output): RuntimeContainer {
  const o = obj(c);
  const meta = obj(o.metadata);
  const labels = stringMap(o.labels);
  const annotations = stringMap(o.annotations);
  const container: RuntimeContainer = {
    id: id(o.id),
    sandboxId: id(o.pod_sandbox_id),
    name: containerName(labels, meta),
    attempt: toNumber(meta.attempt),
    state: toContainerState(o.state),
    createdAt: nsToMs(o.created_at),
    image: short(obj(o.image).image),
    imageRef: short(o.image_ref),
    restartCount: parseRestartCount(annotations),
    labels,
    annotations,
    inspected: false,
  };
  const imageId = short(o.image_id);
  if (imageId !== '') container.imageId = imageId;
  return container;
}

/**
 * ContainerStatus → an inspected record. ContainerStatus carries no sandbox id; the caller
 * passes the one it knows (from ListContainers or the event's sandbox), else ''.
 */
export function toInspectedContainer(s: ContainerStatus__Output, sandboxId = ''): RuntimeContainer {
  const o = obj(s);
  const meta = obj(o.metadata);
  const labels = stringMap(o.labels);
  const annotations = stringMap(o.annotations);
  const state = toContainerState(o.state);
  const container: RuntimeContainer = {
    id: id(o.id),
    sandboxId,
    name: containerName(labels, meta),
    attempt: toNumber(meta.attempt),
    state,
    createdAt: nsToMs(o.created_at),
    image: short(obj(o.image).image),
    imageRef: short(o.image_ref),
    restartCount: parseRestartCount(annotations),
    labels,
    annotations,
    inspected: true,
  };
  const startedAt = nsToMs(o.started_at);
  if (state !== 'created' && startedAt > 0) container.startedAt = startedAt;
  if (state === 'exited') {
    container.exitCode = toNumber(o.exit_code);
    const finishedAt = nsToMs(o.finished_at);
    if (finishedAt > 0) container.finishedAt = finishedAt;
  }
  // The runtime's reason can matter before exit too (containerd: OOMKilled while still
  // running when only a child process was killed); the kubelet reads it once exited.
  const reason = short(o.reason);
  if (reason !== '') container.reason = reason;
  const message = bounded(o.message, CRI_TEXT_LIMITS.message);
  if (message !== '') container.message = message;
  const imageId = short(o.image_id);
  if (imageId !== '') container.imageId = imageId;
  return container;
}

export function toContainerStatusDetail(
  r: ContainerStatusResponse__Output,
  sandboxId = '',
): ContainerStatusDetail {
  const o = obj(r);
  const status = obj(o.status);
  return {
    container: toInspectedContainer(status as unknown as ContainerStatus__Output, sandboxId),
    logPath: str(status.log_path),
    memoryLimitBytes: toNumber(obj(obj(status.resources).linux).memory_limit_in_bytes),
    info: stringMap(o.info),
  };
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export function toContainerEvent(e: ContainerEventResponse__Output): RuntimeContainerEvent {
  const o = obj(e);
  const event: RuntimeContainerEvent = {
    containerId: id(o.container_id),
    kind: toEventKind(o.container_event_type),
    createdAt: nsToMs(o.created_at),
    containers: [],
  };
  const sandboxStatus = obj(o.pod_sandbox_status);
  const sandboxId = str(sandboxStatus.id);
  if (sandboxStatus !== EMPTY) {
    event.sandbox = toInspectedSandbox(sandboxStatus as unknown as PodSandboxStatus__Output);
  }
  event.containers = list(o.containers_statuses).map((c) =>
    toInspectedContainer(c as ContainerStatus__Output, sandboxId),
  );
  return event;
}

// ---------------------------------------------------------------------------------------------
// Stats, images, exec
// ---------------------------------------------------------------------------------------------

function cpu(v: unknown): CpuSample | undefined {
  const o = obj(v);
  if (o === EMPTY) return undefined;
  const sample: CpuSample = { timestamp: nsToMs(o.timestamp) };
  const total = u64(o.usage_core_nano_seconds);
  if (total !== undefined) sample.usageCoreNanoSeconds = total;
  const rate = u64(o.usage_nano_cores);
  if (rate !== undefined) sample.usageNanoCores = rate;
  return sample;
}

function memory(v: unknown): MemorySample | undefined {
  const o = obj(v);
  if (o === EMPTY) return undefined;
  const sample: MemorySample = { timestamp: nsToMs(o.timestamp) };
  const fields = [
    ['workingSetBytes', o.working_set_bytes],
    ['availableBytes', o.available_bytes],
    ['usageBytes', o.usage_bytes],
    ['rssBytes', o.rss_bytes],
    ['pageFaults', o.page_faults],
    ['majorPageFaults', o.major_page_faults],
  ] as const;
  for (const [key, raw] of fields) {
    const n = u64(raw);
    if (n !== undefined) sample[key] = n;
  }
  return sample;
}

export function toFilesystemSample(v: unknown): FilesystemSample | undefined {
  const o = obj(v);
  if (o === EMPTY) return undefined;
  const sample: FilesystemSample = {
    timestamp: nsToMs(o.timestamp),
    mountpoint: str(obj(o.fs_id).mountpoint),
  };
  const used = u64(o.used_bytes);
  if (used !== undefined) sample.usedBytes = used;
  const inodes = u64(o.inodes_used);
  if (inodes !== undefined) sample.inodesUsed = inodes;
  return sample;
}

export function toContainerStatsSample(s: ContainerStats__Output): ContainerStatsSample {
  const o = obj(s);
  const attributes = obj(o.attributes);
  const meta = obj(attributes.metadata);
  const labels = stringMap(attributes.labels);
  const sample: ContainerStatsSample = {
    id: str(attributes.id),
    name: containerName(labels, meta),
    attempt: toNumber(meta.attempt),
    labels,
    annotations: stringMap(attributes.annotations),
  };
  const c = cpu(o.cpu);
  if (c) sample.cpu = c;
  const m = memory(o.memory);
  if (m) sample.memory = m;
  const w = toFilesystemSample(o.writable_layer);
  if (w) sample.writableLayer = w;
  return sample;
}

function networkInterface(v: unknown): NetworkInterfaceSample | undefined {
  const o = obj(v);
  if (o === EMPTY) return undefined;
  const sample: NetworkInterfaceSample = { name: str(o.name) };
  const fields = [
    ['rxBytes', o.rx_bytes],
    ['rxErrors', o.rx_errors],
    ['txBytes', o.tx_bytes],
    ['txErrors', o.tx_errors],
  ] as const;
  for (const [key, raw] of fields) {
    const n = u64(raw);
    if (n !== undefined) sample[key] = n;
  }
  return sample;
}

export function toSandboxStatsSample(s: PodSandboxStats__Output): SandboxStatsSample {
  const o = obj(s);
  const attributes = obj(o.attributes);
  const meta = obj(attributes.metadata);
  const linux = obj(o.linux);
  const sample: SandboxStatsSample = {
    id: str(attributes.id),
    name: str(meta.name),
    namespace: str(meta.namespace),
    uid: str(meta.uid),
    attempt: toNumber(meta.attempt),
    labels: stringMap(attributes.labels),
    annotations: stringMap(attributes.annotations),
    containers: list(linux.containers).map((c) =>
      toContainerStatsSample(c as ContainerStats__Output),
    ),
  };
  const c = cpu(linux.cpu);
  if (c) sample.cpu = c;
  const m = memory(linux.memory);
  if (m) sample.memory = m;
  const network = obj(linux.network);
  if (network !== EMPTY) {
    const iface = networkInterface(network.default_interface);
    sample.network = { timestamp: nsToMs(network.timestamp) };
    if (iface) sample.network.defaultInterface = iface;
  }
  const processCount = u64(obj(linux.process).process_count);
  if (processCount !== undefined) sample.processCount = processCount;
  return sample;
}

export function toImageFsUsage(r: ImageFsInfoResponse__Output): ImageFsUsage {
  const o = obj(r);
  const samples = (v: unknown) =>
    list(v)
      .map(toFilesystemSample)
      .filter((x): x is FilesystemSample => x !== undefined);
  return {
    imageFilesystems: samples(o.image_filesystems),
    containerFilesystems: samples(o.container_filesystems),
  };
}

export function toImageInfo(i: Image__Output): ImageInfo {
  const o = obj(i);
  const image: ImageInfo = {
    id: str(o.id),
    repoTags: strings(o.repo_tags),
    repoDigests: strings(o.repo_digests),
    sizeBytes: toNumber(o.size),
    username: str(o.username),
    pinned: bool(o.pinned),
  };
  const uid = obj(o.uid);
  if (uid !== EMPTY) image.uid = toNumber(uid.value);
  return image;
}

export function toExecResult(r: ExecSyncResponse__Output): ExecResult {
  const o = obj(r);
  const bytes = (v: unknown) => (Buffer.isBuffer(v) ? v : Buffer.alloc(0));
  return { stdout: bytes(o.stdout), stderr: bytes(o.stderr), exitCode: toNumber(o.exit_code) };
}
