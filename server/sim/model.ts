/**
 * SimRuntime: one simulated node's container runtime, in memory — sandboxes, containers,
 * images, runtime conditions — with containerd 1.6/1.7's CRI semantics: the same states, exit
 * codes, reasons, messages and gRPC codes (REAL-CONTAINERD.md; containerd pkg/cri/server/*.go).
 * Methods take and return CRI message objects; server.ts puts them on the wire. Tests and fault
 * injection reach in here directly (`node.runtime`).
 */
import type { Container } from '@/server/cri/generated/runtime/v1/Container';
import type { ContainerEventResponse } from '@/server/cri/generated/runtime/v1/ContainerEventResponse';
import type { ContainerEventType } from '@/server/cri/generated/runtime/v1/ContainerEventType';
import type { ContainerFilter__Output } from '@/server/cri/generated/runtime/v1/ContainerFilter';
import type { ContainerState__Output } from '@/server/cri/generated/runtime/v1/ContainerState';
import type { ContainerStatus } from '@/server/cri/generated/runtime/v1/ContainerStatus';
import type { CreateContainerRequest__Output } from '@/server/cri/generated/runtime/v1/CreateContainerRequest';
import type { ExecSyncResponse } from '@/server/cri/generated/runtime/v1/ExecSyncResponse';
import type { LinuxContainerResources__Output } from '@/server/cri/generated/runtime/v1/LinuxContainerResources';
import type { NamespaceMode__Output } from '@/server/cri/generated/runtime/v1/NamespaceMode';
import type { PodSandbox } from '@/server/cri/generated/runtime/v1/PodSandbox';
import type { PodSandboxFilter__Output } from '@/server/cri/generated/runtime/v1/PodSandboxFilter';
import type { PodSandboxStatus } from '@/server/cri/generated/runtime/v1/PodSandboxStatus';
import type { PodSandboxStatusResponse } from '@/server/cri/generated/runtime/v1/PodSandboxStatusResponse';
import type { RunPodSandboxRequest__Output } from '@/server/cri/generated/runtime/v1/RunPodSandboxRequest';
import type { Signal__Output } from '@/server/cri/generated/runtime/v1/Signal';
import { resolveExecutable, startErrorMessage } from './applets';
import { SANDBOX_IMAGE } from './catalogue';
import type { SimImage } from './catalogue';
import type { SimClock } from './clock';
import { SimRpcError, notFound, unknown } from './errors';
import { ImageStore } from './images';
import { containerInfo } from './inspect';
import { ContainerLog } from './logs';
import { SimExec, SimProcess } from './process';
import type { Random } from '@/lib/random';

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

export interface SimRuntimeOptions {
  name: string;
  clock: SimClock;
  random: Random;
  eventsMode: EventsMode;
  /** Images present at start (default: the busybox image, which is also the sandbox image). */
  preloadImages?: readonly string[];
  /** Runtime handlers accepted by RunPodSandbox besides the default (''). */
  runtimeHandlers?: readonly string[];
}

const nsString = (ms: number): string =>
  ms <= 0 ? '0' : (BigInt(Math.round(ms * 1000)) * 1000n).toString();

function matchesLabels(labels: Record<string, string>, selector: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
  return true;
}

const SIGNAL_NAMES: Partial<Record<Signal__Output, string>> = {
  SIGTERM: 'TERM',
  SIGKILL: 'KILL',
  SIGINT: 'INT',
  SIGHUP: 'HUP',
  SIGQUIT: 'QUIT',
  SIGUSR1: 'USR1',
  SIGUSR2: 'USR2',
};

export class SimRuntime {
  readonly name: string;
  readonly clock: SimClock;
  readonly images: ImageStore;
  readonly eventsMode: EventsMode;
  readonly sandboxes = new Map<string, SandboxRecord>();
  readonly containers = new Map<string, ContainerRecord>();
  readonly conditions: { RuntimeReady: SimCondition; NetworkReady: SimCondition } = {
    RuntimeReady: { status: true, reason: '', message: '' },
    NetworkReady: { status: true, reason: '', message: '' },
  };
  /** Bumped whenever anything ListPodSandbox / ListContainers shows changes (cache key). */
  listVersion = 0;

  private readonly random: Random;
  private readonly reserved = new Map<string, string>();
  private readonly handlers: ReadonlySet<string>;
  private readonly subscribers = new Set<(e: ContainerEventResponse) => void>();
  private nextIp = 2;

  constructor(options: SimRuntimeOptions) {
    this.name = options.name;
    this.clock = options.clock;
    this.random = options.random;
    this.eventsMode = options.eventsMode;
    this.images = new ImageStore(options.clock);
    for (const image of options.preloadImages ?? [SANDBOX_IMAGE]) this.images.preload(image);
    this.handlers = new Set(['', 'runc', ...(options.runtimeHandlers ?? [])]);
  }

  // ------------------------------------------------------------------------------------------
  // Helpers
  // ------------------------------------------------------------------------------------------

  private newId(): string {
    let id: string;
    do id = this.random.hex(32);
    while (this.sandboxes.has(id) || this.containers.has(id));
    return id;
  }

  private changed(): void {
    this.listVersion++;
  }

  /** containerd looks ids up through a truncindex: a unique prefix works too. */
  private lookup<T>(map: Map<string, T>, id: string): T | undefined {
    const exact = map.get(id);
    if (exact || id === '') return exact;
    let found: T | undefined;
    for (const [key, value] of map) {
      if (key.startsWith(id)) {
        if (found) return undefined; // ambiguous
        found = value;
      }
    }
    return found;
  }

  private reserve(name: string, id: string, what: 'sandbox' | 'container'): void {
    const holder = this.reserved.get(name);
    if (holder !== undefined) {
      throw unknown(
        `failed to reserve ${what} name "${name}": name "${name}" is reserved for "${holder}"`,
      );
    }
    this.reserved.set(name, id);
  }

  findContainer(id: string): ContainerRecord {
    const c = this.lookup(this.containers, id);
    if (!c) throw notFound(`an error occurred when try to find container "${id}": not found`);
    return c;
  }

  findSandbox(id: string): SandboxRecord | undefined {
    return this.lookup(this.sandboxes, id);
  }

  // ------------------------------------------------------------------------------------------
  // Events (GetContainerEvents, containerd 1.7+ generateAndSendContainerEvent)
  // ------------------------------------------------------------------------------------------

  /** Subscribes to container events; returns the unsubscribe function. */
  subscribe(fn: (e: ContainerEventResponse) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  private emit(containerId: string, sandboxId: string, type: ContainerEventType): void {
    if (this.subscribers.size === 0) return;
    const sandbox = this.sandboxes.get(sandboxId);
    const event: ContainerEventResponse = {
      container_id: containerId,
      container_event_type: type,
      created_at: nsString(this.clock.now()),
      pod_sandbox_status: sandbox ? this.sandboxStatus(sandbox) : null,
      containers_statuses: sandbox
        ? this.containersOf(sandbox.id).map((c) => this.containerStatus(c))
        : [],
    };
    for (const fn of this.subscribers) fn(event);
  }

  // ------------------------------------------------------------------------------------------
  // Proto views
  // ------------------------------------------------------------------------------------------

  containersOf(sandboxId: string): ContainerRecord[] {
    const out: ContainerRecord[] = [];
    for (const c of this.containers.values()) if (c.sandboxId === sandboxId) out.push(c);
    return out;
  }

  sandboxStatus(s: SandboxRecord): PodSandboxStatus {
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

  toPodSandbox(s: SandboxRecord): PodSandbox {
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

  toContainer(c: ContainerRecord): Container {
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
  containerStatus(c: ContainerRecord): ContainerStatus {
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

  // ------------------------------------------------------------------------------------------
  // Sandboxes
  // ------------------------------------------------------------------------------------------

  runPodSandbox(req: RunPodSandboxRequest__Output): string {
    const config = req.config;
    const meta = config?.metadata;
    if (!config || !meta) throw unknown('sandbox config must include metadata');
    if (!this.handlers.has(req.runtime_handler)) {
      throw unknown(
        `failed to get sandbox runtime: no runtime for "${req.runtime_handler}" is configured`,
      );
    }
    const id = this.newId();
    const reservedName = `${meta.name}_${meta.namespace}_${meta.uid}_${meta.attempt}`;
    this.reserve(reservedName, id, 'sandbox');
    const ns = config.linux?.security_context?.namespace_options;
    const network = ns?.network ?? 'POD';
    let ip = '';
    if (network !== 'NODE') {
      if (!this.conditions.NetworkReady.status) {
        this.reserved.delete(reservedName);
        throw unknown(`failed to setup network for sandbox "${id}": cni plugin not initialized`);
      }
      const n = this.nextIp++;
      ip = `10.88.${(n >> 8) & 255}.${n & 255}`;
    }
    const sandbox: SandboxRecord = {
      id,
      reservedName,
      metadata: {
        name: meta.name,
        uid: meta.uid,
        namespace: meta.namespace,
        attempt: meta.attempt,
      },
      state: 'SANDBOX_READY',
      createdAt: this.clock.now(),
      labels: { ...config.labels },
      annotations: { ...config.annotations },
      runtimeHandler: req.runtime_handler,
      network,
      pid: ns?.pid ?? 'POD',
      ipc: ns?.ipc ?? 'POD',
      ip,
      hostname: config.hostname,
      logDirectory: config.log_directory,
    };
    this.sandboxes.set(id, sandbox);
    this.changed();
    this.emit(id, id, 'CONTAINER_CREATED_EVENT');
    this.emit(id, id, 'CONTAINER_STARTED_EVENT');
    return id;
  }

  stopPodSandbox(id: string): void {
    const sandbox = this.findSandbox(id);
    if (!sandbox) throw notFound(`an error occurred when try to find sandbox "${id}": not found`);
    // containerd stops every container of the pod forcibly (timeout 0) first.
    for (const c of this.containersOf(sandbox.id))
      if (c.state === 'CONTAINER_RUNNING') this.kill(c);
    if (sandbox.state === 'SANDBOX_READY') {
      sandbox.state = 'SANDBOX_NOTREADY';
      sandbox.ip = '';
      this.changed();
      this.emit(sandbox.id, sandbox.id, 'CONTAINER_STOPPED_EVENT');
    }
  }

  removePodSandbox(id: string): void {
    const sandbox = this.findSandbox(id);
    if (!sandbox) return; // idempotent
    if (sandbox.state === 'SANDBOX_READY') this.stopPodSandbox(sandbox.id);
    for (const c of this.containersOf(sandbox.id)) this.removeContainer(c.id);
    this.sandboxes.delete(sandbox.id);
    this.reserved.delete(sandbox.reservedName);
    this.changed();
    this.emit(sandbox.id, sandbox.id, 'CONTAINER_DELETED_EVENT');
  }

  podSandboxStatus(id: string, verbose: boolean): PodSandboxStatusResponse {
    const sandbox = this.findSandbox(id);
    if (!sandbox) throw notFound('an error occurred when try to find sandbox: not found');
    const res: PodSandboxStatusResponse = { status: this.sandboxStatus(sandbox), info: {} };
    if (verbose) {
      res.info = {
        info: JSON.stringify({
          pid: sandbox.state === 'SANDBOX_READY' ? 1 : 0,
          processStatus: sandbox.state === 'SANDBOX_READY' ? 'running' : 'stopped',
          image: SANDBOX_IMAGE,
          runtimeHandler: sandbox.runtimeHandler,
          simulated: true,
        }),
      };
    }
    if (this.eventsMode === 'stream') {
      // containerd 1.7+ (evented PLEG support) returns the containers with the sandbox.
      res.containers_statuses = this.containersOf(sandbox.id).map((c) => this.containerStatus(c));
      res.timestamp = nsString(this.clock.now());
    }
    return res;
  }

  listPodSandbox(filter: PodSandboxFilter__Output | null): PodSandbox[] {
    const out: PodSandbox[] = [];
    for (const s of this.sandboxes.values()) {
      if (filter) {
        if (filter.id !== '' && !s.id.startsWith(filter.id)) continue;
        if (filter.state && filter.state.state !== s.state) continue;
        if (!matchesLabels(s.labels, filter.label_selector)) continue;
      }
      out.push(this.toPodSandbox(s));
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Containers
  // ------------------------------------------------------------------------------------------

  createContainer(req: CreateContainerRequest__Output): string {
    const sandbox = this.findSandbox(req.pod_sandbox_id);
    if (!sandbox) throw notFound(`failed to find sandbox id "${req.pod_sandbox_id}": not found`);
    if (sandbox.state !== 'SANDBOX_READY') {
      // containerd 1.6 asks the sandbox's task for its pid; a stopped sandbox has none.
      throw notFound(
        `failed to get sandbox container task: no running task found: task ${sandbox.id} not found: not found`,
      );
    }
    const config = req.config;
    const meta = config?.metadata;
    if (!config || !meta) throw unknown('container config must include metadata');
    const id = this.newId();
    const sbMeta = req.sandbox_config?.metadata ?? sandbox.metadata;
    const reservedName = `${meta.name}_${sbMeta.name}_${sbMeta.namespace}_${sbMeta.uid}_${meta.attempt}`;
    this.reserve(reservedName, id, 'container');
    try {
      const imageSpec = config.image?.image ?? '';
      const image = this.images.resolve(imageSpec);
      if (!image) throw notFound(`failed to resolve image "${imageSpec}": not found`);
      const argv = composeArgv(config.command, config.args, image);
      if (argv.length === 0)
        throw unknown(`failed to generate container "${id}" spec: no command specified`);
      const env: Record<string, string> = {
        PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        ...image.entry.env,
        HOSTNAME: sandbox.hostname || this.name,
      };
      for (const kv of config.envs) env[kv.key] = kv.value;
      const resources = config.linux?.resources ?? null;
      const record: ContainerRecord = {
        id,
        sandboxId: sandbox.id,
        reservedName,
        metadata: { name: meta.name, attempt: meta.attempt },
        imageSpec,
        image,
        state: 'CONTAINER_CREATED',
        createdAt: this.clock.now(),
        startedAt: 0,
        finishedAt: 0,
        exitCode: 0,
        reason: '',
        message: '',
        labels: { ...config.labels },
        annotations: { ...config.annotations },
        // containerd joins the log directory of the sandbox config sent with this request.
        logPath: joinLogPath(
          req.sandbox_config?.log_directory ?? sandbox.logDirectory,
          config.log_path,
        ),
        memoryLimitBytes: Math.max(0, Number(resources?.memory_limit_in_bytes ?? '0')),
        resources,
        argv,
        env,
        stopSignal: config.stop_signal,
        files: new Set(),
        oomKilled: false,
        process: undefined,
        finalCpuNanos: 0,
        exitWaiters: [],
        config,
      };
      this.containers.set(id, record);
    } catch (err) {
      this.reserved.delete(reservedName);
      throw err;
    }
    this.changed();
    this.emit(id, sandbox.id, 'CONTAINER_CREATED_EVENT');
    return id;
  }

  startContainer(id: string): void {
    const c = this.findContainer(id);
    if (c.state !== 'CONTAINER_CREATED') {
      throw unknown(
        `failed to set starting state for container "${c.id}": container is in ${c.state} state`,
      );
    }
    const sandbox = this.sandboxes.get(c.sandboxId);
    if (!sandbox || sandbox.state !== 'SANDBOX_READY') {
      const message = sandbox
        ? `sandbox container "${c.sandboxId}" is not running`
        : `sandbox "${c.sandboxId}" not found: not found`;
      this.failStart(c, message);
      throw unknown(message);
    }
    const exe = c.argv[0] ?? '';
    if (resolveExecutable(c.image.entry.rootfs, exe) === undefined) {
      const message = startErrorMessage(exe);
      this.failStart(c, message);
      throw unknown(message);
    }
    if (c.logPath !== '') {
      try {
        c.log = new ContainerLog(c.logPath, () => this.clock.now());
      } catch (err) {
        const message =
          'failed to create containerd task: failed to create container loggers: ' +
          `failed to create and open log file: ${err instanceof Error ? err.message : String(err)}`;
        this.failStart(c, message);
        throw unknown(message);
      }
    }
    c.state = 'CONTAINER_RUNNING';
    c.startedAt = this.clock.now();
    const proc = new SimProcess({
      clock: this.clock,
      rootfs: c.image.entry.rootfs,
      argv: c.argv,
      env: c.env,
      memoryLimitBytes: c.memoryLimitBytes,
      files: c.files,
      processNames: () => this.processNames(c),
      hooks: {
        onExit: (code) => this.exited(c, code),
        onOom: () => {
          c.oomKilled = true;
          c.reason = 'OOMKilled';
        },
        onOutput: (stream, text) => c.log?.write(stream, text),
      },
    });
    c.process = proc;
    this.changed();
    this.emit(c.id, c.sandboxId, 'CONTAINER_STARTED_EVENT');
    proc.start();
  }

  /** containerd marks a container whose start failed EXITED 128 StartError with the error. */
  private failStart(c: ContainerRecord, message: string): void {
    c.state = 'CONTAINER_EXITED';
    c.finishedAt = this.clock.now();
    c.exitCode = 128;
    c.reason = 'StartError';
    c.message = message;
    this.changed();
  }

  /**
   * The CONTAINER_UNKNOWN fault: containerd loses track of a running container (its shim died,
   * its task cannot be read) and reports it in state UNKNOWN — no exit code, no finish time, no
   * exit event. The process is gone. Only a running container can be lost this way.
   */
  loseContainer(id: string): void {
    const c = this.findContainer(id);
    if (c.state !== 'CONTAINER_RUNNING') {
      throw new Error(`container ${c.id} is ${c.state}: only a running container can be lost`);
    }
    const proc = c.process;
    c.finalCpuNanos = proc?.cpuCoreNanos() ?? 0;
    c.process = undefined;
    c.log?.close();
    delete c.log;
    c.state = 'CONTAINER_UNKNOWN';
    this.changed();
    // The process ends without anyone to report it: silence its hooks first.
    if (proc) {
      proc.exited = true;
    }
    const waiters = c.exitWaiters;
    c.exitWaiters = [];
    for (const w of waiters) w();
  }

  /** Every live process of a container by name, main process first (pgrep inside it). */
  private processNames(c: ContainerRecord): string[] {
    const names = c.process ? c.process.ownNames() : [];
    for (const e of c.execs ?? []) names.push(...e.names());
    return names;
  }

  /** ReopenContainerLog: only for a running container; the log file is opened again. */
  reopenContainerLog(id: string): void {
    const c = this.findContainer(id);
    if (c.state !== 'CONTAINER_RUNNING') throw unknown('container is not running');
    if (!c.log) return; // no log path: containerd's loggers discard, nothing to reopen
    try {
      c.log.reopen();
    } catch (err) {
      throw unknown(
        'failed to create container loggers: failed to create and open log file: ' +
          (err instanceof Error ? err.message : String(err)),
      );
    }
  }

  private exited(c: ContainerRecord, code: number): void {
    c.log?.close();
    delete c.log;
    c.finalCpuNanos = c.process?.cpuCoreNanos() ?? 0;
    c.process = undefined;
    c.state = 'CONTAINER_EXITED';
    c.finishedAt = this.clock.now();
    c.exitCode = code;
    if (c.reason === '') c.reason = code === 0 ? 'Completed' : 'Error';
    this.changed();
    this.emit(c.id, c.sandboxId, 'CONTAINER_STOPPED_EVENT');
    const waiters = c.exitWaiters;
    c.exitWaiters = [];
    for (const w of waiters) w();
  }

  private kill(c: ContainerRecord): void {
    c.process?.signal('KILL');
  }

  /** Resolves once `c` is no longer running. */
  private untilExited(c: ContainerRecord): Promise<void> {
    if (c.state !== 'CONTAINER_RUNNING') return Promise.resolve();
    return new Promise((resolve) => c.exitWaiters.push(resolve));
  }

  /**
   * StopContainer: the stop signal (the container's stop_signal, TERM by default), SIGKILL
   * after `timeoutSeconds` (at once for 0); resolves when the container has exited.
   */
  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    const c = this.findContainer(id);
    if (c.state !== 'CONTAINER_RUNNING') return;
    const proc = c.process;
    if (!proc) return;
    if (timeoutSeconds > 0) {
      const sig = SIGNAL_NAMES[c.stopSignal] ?? 'TERM';
      proc.signal(sig);
      if (c.state === 'CONTAINER_RUNNING') {
        const timer = this.clock.after(timeoutSeconds * 1000, () => this.kill(c));
        c.exitWaiters.push(() => this.clock.cancel(timer));
      }
    } else {
      this.kill(c);
    }
    await this.untilExited(c);
  }

  removeContainer(id: string): void {
    const c = this.lookup(this.containers, id);
    if (!c) return; // idempotent
    // containerd stops a running container forcibly (timeout 0) before removing it.
    if (c.state === 'CONTAINER_RUNNING') this.kill(c);
    this.containers.delete(c.id);
    this.reserved.delete(c.reservedName);
    this.changed();
    this.emit(c.id, c.sandboxId, 'CONTAINER_DELETED_EVENT');
  }

  listContainers(filter: ContainerFilter__Output | null): Container[] {
    const out: Container[] = [];
    for (const c of this.containers.values()) {
      if (filter) {
        if (filter.id !== '' && !c.id.startsWith(filter.id)) continue;
        if (filter.pod_sandbox_id !== '' && !c.sandboxId.startsWith(filter.pod_sandbox_id))
          continue;
        if (filter.state && filter.state.state !== c.state) continue;
        if (!matchesLabels(c.labels, filter.label_selector)) continue;
      }
      out.push(this.toContainer(c));
    }
    return out;
  }

  containerStatusResponse(
    id: string,
    verbose: boolean,
  ): { status: ContainerStatus; info: Record<string, string> } {
    const c = this.findContainer(id);
    const info = verbose
      ? containerInfo(c, this.sandboxes.get(c.sandboxId), c.config, {
          sandbox: fakePid(c.sandboxId),
          container: fakePid(c.id),
        })
      : {};
    return { status: this.containerStatus(c), info };
  }

  /** ExecSync: runs beside the main process; resolves when done in virtual time. */
  async execSync(id: string, cmd: string[], timeoutSeconds: number): Promise<ExecSyncResponse> {
    const c = this.findContainer(id);
    if (c.state !== 'CONTAINER_RUNNING') {
      throw unknown(`failed to exec in container: container is in ${c.state} state`);
    }
    const exe = cmd[0];
    if (exe === undefined) throw unknown('failed to exec in container: exec command is empty');
    if (resolveExecutable(c.image.entry.rootfs, exe) === undefined) {
      throw unknown(
        `failed to exec in container: failed to start exec "${this.random.hex(32)}": OCI runtime exec failed: ` +
          `exec failed: unable to start container process: exec: "${exe}": executable file not found in $PATH: unknown`,
      );
    }
    const exec = new SimExec({
      clock: this.clock,
      rootfs: c.image.entry.rootfs,
      argv: cmd,
      env: { ...c.env },
      files: c.files,
      processNames: () => this.processNames(c),
    });
    const execs = (c.execs ??= new Set());
    execs.add(exec);
    void exec.done.then(() => execs.delete(exec));
    let timer: ReturnType<SimClock['after']> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      if (timeoutSeconds > 0)
        timer = this.clock.after(timeoutSeconds * 1000, () => resolve('timeout'));
    });
    exec.start();
    const outcome = await Promise.race([exec.done, timedOut]);
    if (timer) this.clock.cancel(timer);
    if (outcome === 'timeout') {
      exec.kill();
      throw new SimRpcError(
        4,
        `failed to exec in container: timeout ${timeoutSeconds}s exceeded: context deadline exceeded`,
      );
    }
    const cap = (s: string) => Buffer.from(s).subarray(0, 16 * 1024 * 1024);
    return {
      stdout: cap(outcome.stdout),
      stderr: cap(outcome.stderr),
      exit_code: outcome.exitCode,
    };
  }

  /** Memory limit check helper for stats: the limit of a container, 0 = none. */
  cpuCoreNanos(c: ContainerRecord): number {
    return c.process ? c.process.cpuCoreNanos() : c.finalCpuNanos;
  }
}

/** A stable stand-in for a process id (there is no process): from the object's id. */
function fakePid(id: string): number {
  return 1000 + (parseInt(id.slice(0, 6), 16) % 60000 || 0);
}

function joinLogPath(dir: string, path: string): string {
  return dir !== '' && path !== '' ? `${dir.replace(/\/+$/, '')}/${path}` : '';
}

/**
 * containerd's WithProcessArgs: command replaces the entrypoint; args replace the image Cmd only
 * when no command is given (a command with no args runs with none).
 */
export function composeArgv(command: string[], args: string[], image: SimImage): string[] {
  let cmd = command;
  let a = args;
  if (cmd.length === 0) {
    if (a.length === 0) a = [...image.entry.cmd];
    cmd = [...image.entry.entrypoint];
  }
  return [...cmd, ...a];
}
