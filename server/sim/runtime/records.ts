/**
 * What the simulated runtime holds per sandbox and container (SandboxRecord, ContainerRecord), and
 * how a record looks on the CRI: PodSandbox / PodSandboxStatus / Container / ContainerStatus as
 * containerd 1.6/1.7 fill them, timestamps in nanoseconds, and the List filters (id prefix, state,
 * label selector). Pure; model.ts keeps the records and changes them.
 */
import type { Container } from '@/server/cri/generated/runtime/v1/Container';
import type { ContainerFilter__Output } from '@/server/cri/generated/runtime/v1/ContainerFilter';
import type { ContainerState__Output } from '@/server/cri/generated/runtime/v1/ContainerState';
import type { ContainerStatus } from '@/server/cri/generated/runtime/v1/ContainerStatus';
import type { LinuxContainerResources__Output } from '@/server/cri/generated/runtime/v1/LinuxContainerResources';
import type { NamespaceMode__Output } from '@/server/cri/generated/runtime/v1/NamespaceMode';
import type { PodSandbox } from '@/server/cri/generated/runtime/v1/PodSandbox';
import type { PodSandboxFilter__Output } from '@/server/cri/generated/runtime/v1/PodSandboxFilter';
import type { PodSandboxStatus } from '@/server/cri/generated/runtime/v1/PodSandboxStatus';
import type { Signal__Output } from '@/server/cri/generated/runtime/v1/Signal';
import type { SimImage } from './catalogue';
import type { ContainerLog } from './logs';
import type { SimExec, SimProcess } from '../busybox/process';

export type EventsMode = 'stream' | 'unimplemented';

export interface SimCondition {
  status: boolean;
  reason: string;
  message: string;
}

export interface SandboxRecord {
  id: string;
  /** containerd's reserved name: name_namespace_uid_attempt. */
  reservedName: string;
  metadata: { name: string; uid: string; namespace: string; attempt: number };
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  runtimeHandler: string;
  network: NamespaceMode__Output;
  pid: NamespaceMode__Output;
  ipc: NamespaceMode__Output;
  ip: string;
  hostname: string;
  logDirectory: string;
}

export interface ContainerRecord {
  id: string;
  sandboxId: string;
  reservedName: string;
  metadata: { name: string; attempt: number };
  /** ImageSpec.image as CreateContainer gave it. */
  imageSpec: string;
  image: SimImage;
  state: ContainerState__Output;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath: string;
  memoryLimitBytes: number;
  resources: LinuxContainerResources__Output | null;
  argv: string[];
  env: Record<string, string>;
  stopSignal: Signal__Output;
  files: Set<string>;
  /** Sticky once the OOM killer took a process of this container (containerd keeps it). */
  oomKilled: boolean;
  process: SimProcess | undefined;
  /** CPU time of the process once it has ended. */
  finalCpuNanos: number;
  exitWaiters: (() => void)[];
  /** The CRI log file while the container runs with a log path (logs.ts). */
  log?: ContainerLog;
  /** ExecSync processes still running. */
  execs?: Set<SimExec>;
  /** The ContainerConfig as CreateContainer received it (verbose ContainerStatus). */
  config?: unknown;
}

/** Virtual ms → the CRI's nanoseconds, as a decimal string. */
export const nsString = (ms: number): string =>
  ms <= 0 ? '0' : (BigInt(Math.round(ms * 1000)) * 1000n).toString();

export function sandboxStatusOf(s: SandboxRecord): PodSandboxStatus {
  return {
    id: s.id,
    metadata: s.metadata,
    state: s.state,
    created_at: nsString(s.createdAt),
    // Host-network sandboxes report no IP (the CRI leaves their network status unused).
    network: { ip: s.ip, additional_ips: [] },
    linux: {
      namespaces: { options: { network: s.network, pid: s.pid, ipc: s.ipc, target_id: '' } },
    },
    labels: s.labels,
    annotations: s.annotations,
    runtime_handler: s.runtimeHandler,
  };
}

export function podSandboxOf(s: SandboxRecord): PodSandbox {
  return {
    id: s.id,
    metadata: s.metadata,
    state: s.state,
    created_at: nsString(s.createdAt),
    labels: s.labels,
    annotations: s.annotations,
    runtime_handler: s.runtimeHandler,
  };
}

export function containerOf(c: ContainerRecord): Container {
  return {
    id: c.id,
    pod_sandbox_id: c.sandboxId,
    metadata: c.metadata,
    image: { image: c.imageSpec },
    image_ref: c.image.id,
    state: c.state,
    created_at: nsString(c.createdAt),
    labels: c.labels,
    annotations: c.annotations,
    // containerd 1.6/1.7 predate image_id (CRI 1.33): left unset, as they leave it.
    image_id: '',
  };
}

/** containerd's toCRIContainerStatus: image = first repo tag, image_ref = first repo digest. */
export function containerStatusOf(c: ContainerRecord): ContainerStatus {
  return {
    id: c.id,
    metadata: c.metadata,
    state: c.state,
    created_at: nsString(c.createdAt),
    started_at: nsString(c.startedAt),
    finished_at: nsString(c.finishedAt),
    exit_code: c.exitCode,
    image: { image: c.image.repoTags[0] ?? c.imageSpec },
    image_ref: c.image.repoDigests[0] ?? c.image.id,
    reason: c.reason,
    message: c.message,
    labels: c.labels,
    annotations: c.annotations,
    mounts: [],
    log_path: c.logPath,
    resources: c.resources ? { linux: c.resources } : null,
    image_id: '',
    stop_signal: c.stopSignal,
  };
}

function matchesLabels(labels: Record<string, string>, selector: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
  return true;
}

/** ListPodSandbox's filter: id prefix, state, label selector. */
export function sandboxMatches(s: SandboxRecord, filter: PodSandboxFilter__Output | null): boolean {
  if (!filter) return true;
  if (filter.id !== '' && !s.id.startsWith(filter.id)) return false;
  if (filter.state && filter.state.state !== s.state) return false;
  return matchesLabels(s.labels, filter.label_selector);
}

/** ListContainers' filter: id and sandbox id prefixes, state, label selector. */
export function containerMatches(
  c: ContainerRecord,
  filter: ContainerFilter__Output | null,
): boolean {
  if (!filter) return true;
  if (filter.id !== '' && !c.id.startsWith(filter.id)) return false;
  if (filter.pod_sandbox_id !== '' && !c.sandboxId.startsWith(filter.pod_sandbox_id)) return false;
  if (filter.state && filter.state.state !== c.state) return false;
  return matchesLabels(c.labels, filter.label_selector);
}

export /** A stable stand-in for a process id (there is no process): from the object's id. */
function fakePid(id: string): number {
  return 1000 + (parseInt(id.slice(0, 6), 16) % 60000 || 0);
}
