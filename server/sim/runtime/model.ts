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
import type { ContainerStatus } from '@/server/cri/generated/runtime/v1/ContainerStatus';
import type { CreateContainerRequest__Output } from '@/server/cri/generated/runtime/v1/CreateContainerRequest';
import type { ExecSyncResponse } from '@/server/cri/generated/runtime/v1/ExecSyncResponse';
import type { PodSandbox } from '@/server/cri/generated/runtime/v1/PodSandbox';
import type { PodSandboxFilter__Output } from '@/server/cri/generated/runtime/v1/PodSandboxFilter';
import type { PodSandboxStatusResponse } from '@/server/cri/generated/runtime/v1/PodSandboxStatusResponse';
import type { RunPodSandboxRequest__Output } from '@/server/cri/generated/runtime/v1/RunPodSandboxRequest';
import type { Signal__Output } from '@/server/cri/generated/runtime/v1/Signal';
import { resolveExecutable, startErrorMessage } from '../busybox/applets';
import { execInContainer } from '../busybox/exec';
import {
  containerMatches,
  containerOf,
  containerStatusOf,
  fakePid,
  nsString,
  podSandboxOf,
  sandboxMatches,
  sandboxStatusOf,
  type ContainerRecord,
  type EventsMode,
  type SandboxRecord,
  type SimCondition,
} from './records';
import { SANDBOX_IMAGE } from './catalogue';
import type { SimImage } from './catalogue';
import type { SimClock } from '../clock/clock';
import { notFound, unknown } from './errors';
import { ImageStore } from './images';
import { containerInfo } from './inspect';
import { ContainerLog } from './logs';
import { SimProcess } from '../busybox/process';
import type { Random } from '@/lib/random';

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

const SIGNAL_NAMES: Partial<Record<Signal__Output, string>> = {
  SIGTERM: 'TERM',
  SIGKILL: 'KILL',
  SIGINT: 'INT',
  SIGHUP: 'HUP',
  SIGQUIT: 'QUIT',
  SIGUSR1: 'USR1',
  SIGUSR2: 'USR2',
};

export type { ContainerRecord, EventsMode, SandboxRecord, SimCondition } from './records';

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
      pod_sandbox_status: sandbox ? sandboxStatusOf(sandbox) : null,
      containers_statuses: sandbox ? this.containersOf(sandbox.id).map(containerStatusOf) : [],
    };
    for (const fn of this.subscribers) fn(event);
  }

  // ------------------------------------------------------------------------------------------
  // Containers of a sandbox (CRI messages: records.ts)
  // ------------------------------------------------------------------------------------------

  containersOf(sandboxId: string): ContainerRecord[] {
    const out: ContainerRecord[] = [];
    for (const c of this.containers.values()) if (c.sandboxId === sandboxId) out.push(c);
    return out;
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
    const res: PodSandboxStatusResponse = { status: sandboxStatusOf(sandbox), info: {} };
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
      res.containers_statuses = this.containersOf(sandbox.id).map(containerStatusOf);
      res.timestamp = nsString(this.clock.now());
    }
    return res;
  }

  listPodSandbox(filter: PodSandboxFilter__Output | null): PodSandbox[] {
    const out: PodSandbox[] = [];
    for (const s of this.sandboxes.values()) {
      if (sandboxMatches(s, filter)) out.push(podSandboxOf(s));
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
      if (containerMatches(c, filter)) out.push(containerOf(c));
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
    return { status: containerStatusOf(c), info };
  }

  /** ExecSync: runs beside the main process (exec.ts); resolves when done in virtual time. */
  async execSync(id: string, cmd: string[], timeoutSeconds: number): Promise<ExecSyncResponse> {
    const c = this.findContainer(id);
    return execInContainer(c, cmd, timeoutSeconds, {
      clock: this.clock,
      random: this.random,
      processNames: () => this.processNames(c),
    });
  }

  /** Memory limit check helper for stats: the limit of a container, 0 = none. */
  cpuCoreNanos(c: ContainerRecord): number {
    return c.process ? c.process.cpuCoreNanos() : c.finalCpuNanos;
  }
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
