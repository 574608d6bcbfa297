/**
 * One pod's sync loop — the driver's stand-in for the kubelet's pod worker (pkg/kubelet/pod_workers.go)
 * running SyncPod (pkg/kubelet/kuberuntime/kuberuntime_manager.go, steps kept in upstream order):
 *
 *   1. computePodActions (./actions.ts)        5. init containers, in order (a failed regular one
 *   2. kill the pod if the sandbox changed or     stops this sync), sidecars kept running
 *      nothing will ever run again             6. app containers
 *   3. kill containers not to keep             7. the reason cache: the last start error per
 *   4. create the sandbox if needed               container, cleared by a successful start
 *
 * Starting a container (startContainer + doBackOff): CrashLoopBackOff back-off, image pull with
 * image back-off, env from the ConfigStore (CreateContainerConfigError), CreateContainer
 * (CreateContainerError), StartContainer (RunContainerError), with the kubelet's labels,
 * annotations and restart count.
 *
 * Never two syncs of one pod at once: a request during a sync marks the pod dirty and the loop
 * runs again right after. Syncs are triggered by apply/delete, by the driver's relist noticing a
 * change in the runtime (the PLEG's role), by a timer at the end of a back-off, after a failed
 * sync (the pod worker's back-off period) and by a slow periodic resync (syncFrequency).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import {
  backoffGet,
  backoffKey,
  backoffNext,
  isInBackOffSince,
  type BackoffState,
} from '@/lib/kubelet/backoff';
import { containersNewestFirst, findContainerStatusByName } from '@/lib/kubelet/records';
import {
  ErrCrashLoopBackOff,
  ErrCreateContainer,
  ErrCreateContainerConfig,
  ErrRunContainer,
} from '@/lib/kubelet/reasons';
import { isRestartableInitContainer } from '@/lib/kubelet/restart';
import type { RuntimePodStatus, SyncError } from '@/lib/kubelet/runtime';
import { LABELS } from '@/lib/kubelet/runtime';
import { goDuration } from '@/lib/kubelet/util';
import type { SandboxSpec } from '@/server/cri/types';
import { computePodActions, isTerminalPlan } from './actions';
import type { DriverClock, DriverTimer } from './clock';
import type { ConfigStore } from './env';
import { EnvResolutionError, makeEnvironmentVariables } from './env';
import type { ImageManager } from './images';
import { ErrPostStartHook, runLifecycleHandler } from './hooks';
import type { KillContext } from './kill';
import { clockDelay, killContainer, TerminationOrdering, terminationGracePeriod } from './kill';
import type { DriverEvent } from './notes';
import { PodProber } from './probes/manager';
import type { ProbeNetwork } from './probes/network';
import { probeOf } from './probes/spec';
import {
  buildContainerSpec,
  buildSandboxSpec,
  hashContainer,
  podLogsDirectory,
  type ContainerType,
} from './labels';
import type { DriverRuntime } from './runtime';
import { NETWORK_NOT_READY_MSG } from './runtime-state';
import { EVICTED_REASON } from './eviction';
import { isNotFound, rpcErrorText } from './runtime';
import { formatPod } from './spec';

export interface WorkerTimings {
  /** The pod worker's retry after a failed sync (kubelet backOffPeriod, 10 s; scaled). */
  syncErrorRetryMs: number;
  /** A full resync even when nothing changed (kubelet syncFrequency, 1 min). */
  periodicSyncMs: number;
  /**
   * How long a deleted pod's stopped containers and sandbox stay before removal. The kubelet
   * leaves them to its garbage collector (a minute or more); a short pause keeps the final
   * states (exit codes, SIGKILL's 137) visible to an observer's relist.
   */
  removalDelayMs: number;
}

/** What every worker of one driver shares: the runtime, the clock, the kubelet's back-offs. */
export interface WorkerContext {
  runtime: DriverRuntime;
  clock: DriverClock;
  images: ImageManager;
  configs: ConfigStore;
  /** The container restart back-off (one per kubelet). */
  backoff: { get(): BackoffState; set(next: BackoffState): void };
  timings: WorkerTimings;
  /** Root of the per-pod log directories (see DriverOptions.logRoot). */
  logRoot?: string;
  log: (line: string) => void;
  /** The pod's hints (reason cache, deletion, terminal) changed. */
  hintsChanged: (uid: string) => void;
  /** The pod is gone from the runtime after a deletion. */
  removed: (uid: string) => void;
  /** Where httpGet / tcpSocket probes and httpGet hooks connect. */
  network: ProbeNetwork;
  /** The node's IP: the pod IP of host-network pods (the CRI reports none for them). */
  nodeIP: string;
  /** Kubelet-event-like happenings of this pod (kills, hooks, probes). */
  note?: (event: DriverEvent) => void;
  /** runtimeState.networkErrors(): undefined while the runtime's network is ready (runtime-state.ts). */
  networkError?: () => string | undefined;
}

export type WorkerPhase = 'syncing' | 'terminal' | 'terminating' | 'removed';

interface Deletion {
  requestedAt: number;
  gracePeriodSeconds: number;
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** List-level identity of the pod's runtime objects: changes when anything is created, changes state or goes. */
export function fingerprintOf(
  sandboxes: readonly { id: string; state: string }[],
  containers: readonly { id: string; state: string }[],
): string {
  const parts = [
    ...sandboxes.map((s) => `s:${s.id}:${s.state}`),
    ...containers.map((c) => `c:${c.id}:${c.state}`),
  ];
  return parts.sort().join(',');
}

export class PodWorker {
  readonly uid: string;
  phase: WorkerPhase = 'syncing';
  /** The reason cache for this pod: container name → last start error. */
  private reasons = new Map<string, SyncError>();
  private deletion: Deletion | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private stopped = false;
  private timer: DriverTimer | undefined;
  private timerAt = Infinity;
  private lastFingerprint: string | undefined;
  /** The last failure of a sync step that is not a container start (sandbox, kill, runtime down). */
  lastError: string | undefined;
  syncs = 0;
  /** Set by the eviction manager (eviction.ts): the pod is killed and fails with this status. */
  private eviction: { reason: string; message: string; at: number } | undefined;
  /** The runtime status read by the last sync (what the prober looks at, like the status manager). */
  private lastStatus: RuntimePodStatus | undefined;
  readonly prober: PodProber;

  constructor(
    private pod: V1Pod,
    private readonly ctx: WorkerContext,
  ) {
    this.uid = pod.metadata?.uid ?? '';
    this.prober = new PodProber({
      clock: ctx.clock,
      runtime: ctx.runtime,
      network: ctx.network,
      pod: () => this.pod,
      status: () => this.lastStatus,
      terminal: () => this.phase === 'terminal' || this.phase === 'removed' || this.stopped,
      podIP: () => this.podIP(),
      podName: () => formatPod(this.pod),
      note: (n) => this.ctx.note?.(n),
      counted: () => this.ctx.hintsChanged(this.uid),
      changed: (type) => {
        this.ctx.hintsChanged(this.uid);
        // handleProbeSync: a liveness or startup result change syncs the pod.
        if (type !== 'readiness') this.requestSync();
      },
    });
  }

  /** The IP probes dial: the sandbox's, or the node's for a host-network pod. */
  podIP(): string {
    if (this.pod.spec?.hostNetwork === true) return this.ctx.nodeIP;
    const ready = this.lastStatus?.sandboxes.find((s) => s.state === 'ready');
    return ready?.network?.ip ?? '';
  }

  /** The status the prober and the engine's hints read (last sync's view). */
  get runtimeStatus(): RuntimePodStatus | undefined {
    return this.lastStatus;
  }

  get spec(): V1Pod {
    return this.pod;
  }

  get where(): string {
    return `driver: pod ${this.pod.metadata?.namespace ?? ''}/${this.pod.metadata?.name ?? ''} (${this.uid}) on ${this.ctx.runtime.endpoint}`;
  }

  syncErrors(): Record<string, SyncError> {
    return Object.fromEntries(this.reasons);
  }

  get evicted(): { reason: string; message: string; at: number } | undefined {
    return this.eviction;
  }

  /** No container of the pod runs any more (the eviction manager's waitForPodsCleanup). */
  get cleanedUp(): boolean {
    return !(this.lastStatus?.containers ?? []).some((c) => c.state === 'running');
  }

  /** evictPod: the pod fails with reason Evicted and this message; its containers are killed. */
  evict(message: string): void {
    if (this.eviction || this.deletion || this.phase !== 'syncing') return;
    this.eviction = { reason: EVICTED_REASON, message, at: this.ctx.clock.now() };
    this.ctx.note?.({ type: 'evictedByKubelet', message });
    this.ctx.hintsChanged(this.uid);
    this.requestSync();
  }

  get deletionTimestamp(): number | undefined {
    return this.deletion?.requestedAt;
  }

  /** The kubelet's podIsTerminal: termination was requested or the pod finished for good. */
  get podIsTerminal(): boolean {
    return this.phase !== 'syncing';
  }

  // ── triggers ───────────────────────────────────────────────────────────────

  /** Runs a sync now, or right after the one in progress. */
  requestSync(): void {
    if (this.stopped || this.phase === 'removed') return;
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = this.loop();
  }

  /** The driver's relist saw the pod's runtime objects; sync if they changed since our last read. */
  observe(fingerprint: string): void {
    if (fingerprint !== this.lastFingerprint) this.requestSync();
  }

  requestDeletion(gracePeriodSeconds: number): Promise<void> {
    if (!this.deletion) {
      let resolve: () => void = () => undefined;
      let reject: (err: Error) => void = () => undefined;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const requestedAt = this.ctx.clock.now();
      this.deletion = { requestedAt, gracePeriodSeconds, promise, resolve, reject };
      this.pod = {
        ...this.pod,
        metadata: {
          ...this.pod.metadata,
          deletionTimestamp: new Date(requestedAt),
          deletionGracePeriodSeconds: gracePeriodSeconds,
        },
      };
      this.phase = 'terminating';
      // SyncTerminatingPod: liveness and startup probes stop (readiness goes on).
      this.prober.stopLivenessAndStartup();
      this.ctx.hintsChanged(this.uid);
      this.requestSync();
    }
    return this.deletion.promise;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when no sync is running or queued. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer();
    this.prober.stop();
    await this.settled();
    this.deletion?.reject(new Error(`${this.where}: driver stopped before the deletion finished`));
  }

  // ── the loop ───────────────────────────────────────────────────────────────

  private async loop(): Promise<void> {
    try {
      do {
        this.dirty = false;
        this.cancelTimer();
        this.syncs++;
        try {
          await this.syncOnce();
        } catch (err) {
          // A runtime that does not answer, a sandbox that cannot be stopped: keep the state,
          // say why, try again after the worker's back-off.
          this.lastError = err instanceof Error ? err.message : String(err);
          this.ctx.log(`${this.where}: sync failed: ${this.lastError}`);
          this.schedule(this.ctx.clock.now() + this.ctx.timings.syncErrorRetryMs);
        }
      } while (this.dirty && !this.stopped && this.phase !== 'removed');
    } finally {
      this.running = undefined;
    }
  }

  private cancelTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Arms the worker's one timer for `at` unless an earlier one is already armed. */
  private schedule(at: number): void {
    if (this.stopped || this.phase === 'removed' || !Number.isFinite(at)) return;
    if (this.timer && this.timerAt <= at) return;
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.ctx.clock.setTimer(Math.max(0, at - this.ctx.clock.now()), () => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.requestSync();
    });
  }

  /** GetPodStatus: every sandbox (inspected, newest first) and container (inspected) of the pod. */
  private async readPodStatus(): Promise<RuntimePodStatus> {
    const selector = { [LABELS.podUid]: this.uid };
    const [sandboxList, containerList] = await Promise.all([
      this.ctx.runtime.listPodSandbox({ labelSelector: selector }),
      this.ctx.runtime.listContainers({ labelSelector: selector }),
    ]);
    this.lastFingerprint = fingerprintOf(sandboxList, containerList);
    const sandboxes = (
      await Promise.all(
        sandboxList.map(async (s) => {
          try {
            return (await this.ctx.runtime.podSandboxStatus(s.id)).sandbox;
          } catch (err) {
            if (isNotFound(err)) return undefined;
            throw err;
          }
        }),
      )
    )
      .filter((s): s is NonNullable<typeof s> => s !== undefined)
      .sort((a, b) => b.createdAt - a.createdAt);
    const containers = (
      await Promise.all(
        containerList.map(async (c) => {
          try {
            return await this.ctx.runtime.containerStatus(c.id, { sandboxId: c.sandboxId });
          } catch (err) {
            if (isNotFound(err)) return undefined;
            throw err;
          }
        }),
      )
    ).filter((c): c is NonNullable<typeof c> => c !== undefined);
    return {
      uid: this.uid,
      name: this.pod.metadata?.name ?? '',
      namespace: this.pod.metadata?.namespace ?? '',
      sandboxes,
      containers,
    };
  }

  private async syncOnce(): Promise<void> {
    const status = await this.readPodStatus();
    this.lastStatus = status;
    if (this.deletion) {
      await this.terminate(status, this.deletion);
      return;
    }
    if (this.phase !== 'syncing') return;
    if (this.eviction) {
      // killPodNow: a hard eviction threshold allows no grace period (StopContainer's 2 s minimum
      // applies); the pod is terminal with the eviction's status and nothing restarts.
      this.prober.stop();
      await this.killPod(status, 0);
      this.phase = 'terminal';
      this.reasons.clear();
      this.ctx.hintsChanged(this.uid);
      return;
    }
    // SyncPod: only pods on the host network start while the runtime's network is not ready.
    const network = this.ctx.networkError?.();
    if (network !== undefined && this.pod.spec?.hostNetwork !== true) {
      const message = `${NETWORK_NOT_READY_MSG}: ${network}`;
      this.ctx.note?.({ type: 'networkNotReady', message });
      throw new Error(message);
    }
    // SyncPod: probeManager.AddPod (idempotent).
    this.prober.start();

    const actions = computePodActions(this.pod, status, this.prober);
    if (actions.killPod) {
      // As upstream, a pod-level kill ignores the per-container reasons (and probe grace periods).
      await this.killPod(status, terminationGracePeriod(this.pod));
      if (isTerminalPlan(actions)) {
        // Nothing will run again: the kubelet's pod worker now treats the pod as terminal.
        this.phase = 'terminal';
        this.prober.stop();
        this.reasons.clear();
        this.ctx.hintsChanged(this.uid);
        return;
      }
      await this.purgeInitContainers(status);
    } else {
      for (const k of actions.containersToKill) {
        const container = this.containerSpec(k.name);
        if (!container) continue;
        await killContainer(this.killContext(), {
          where: this.where,
          id: k.id,
          container,
          graceSeconds: this.killGracePeriod(container, k.reason),
          message: k.message,
        });
      }
    }
    await this.removeDeadContainers(status);

    let sandboxId = actions.sandboxId;
    const sandbox = buildSandboxSpec(this.pod, {
      attempt: actions.attempt,
      ...(this.ctx.logRoot ? { logDirectory: podLogsDirectory(this.ctx.logRoot, this.pod) } : {}),
    });
    if (actions.createSandbox) {
      try {
        sandboxId = await this.ctx.runtime.runPodSandbox(sandbox);
      } catch (err) {
        this.lastError = `CreatePodSandboxError: Failed to create pod sandbox: ${rpcErrorText(err)}`;
        this.ctx.log(`${this.where}: ${this.lastError}`);
        this.schedule(this.ctx.clock.now() + this.ctx.timings.syncErrorRetryMs);
        return;
      }
    }
    this.lastError = undefined;

    const results = new Map<string, SyncError | undefined>();
    const inits = this.pod.spec?.initContainers ?? [];
    for (const idx of actions.initContainersToStart) {
      const container = inits[idx];
      if (!container) continue;
      const error = await this.start(container, 'init', sandboxId, sandbox, status);
      results.set(container.name, error);
      if (error && !isRestartableInitContainer(container)) break;
    }
    const initAborted = [...results.entries()].some(
      ([name, e]) => e !== undefined && !isRestartableInitContainer(this.containerSpec(name)),
    );
    if (!initAborted) {
      const regular = this.pod.spec?.containers ?? [];
      for (const idx of actions.containersToStart) {
        const container = regular[idx];
        if (!container) continue;
        results.set(
          container.name,
          await this.start(container, 'container', sandboxId, sandbox, status),
        );
      }
    }
    this.updateReasonCache(results);
    this.scheduleNext(status, results);
    // UpdatePodStatus: a started container whose readiness is not yet Success is probed now.
    this.prober.triggerReadiness(status);
  }

  /**
   * setTerminationGracePeriod: a probe kill uses the probe's terminationGracePeriodSeconds when
   * set (and no deletion grace period applies), else the pod's.
   */
  private killGracePeriod(
    container: V1Container,
    reason?: 'LivenessProbe' | 'StartupProbe',
  ): number {
    const base = terminationGracePeriod(this.pod);
    if (this.pod.metadata?.deletionGracePeriodSeconds !== undefined || !reason) return base;
    const probe = probeOf(container, reason === 'LivenessProbe' ? 'liveness' : 'startup');
    return probe?.terminationGracePeriodSeconds ?? base;
  }

  // ── starting ───────────────────────────────────────────────────────────────

  /** startContainer with doBackOff in front; returns the error for the reason cache, if any. */
  private async start(
    container: V1Container,
    type: ContainerType,
    sandboxId: string,
    sandbox: SandboxSpec,
    status: RuntimePodStatus,
  ): Promise<SyncError | undefined> {
    const backOff = this.doBackOff(container, status);
    if (backOff) return backOff;

    const image = await this.ctx.images.ensureImageExists(this.pod, container, sandbox);
    if (!image.ok) return image.error;

    const previous = findContainerStatusByName(status, container.name);
    const restartCount = previous ? previous.restartCount + 1 : 0;
    let env: Record<string, string>;
    try {
      env = makeEnvironmentVariables(this.pod, container, this.ctx.configs);
    } catch (err) {
      if (err instanceof EnvResolutionError)
        return { reason: ErrCreateContainerConfig, message: err.message };
      throw err;
    }
    const spec = buildContainerSpec({ container, pod: this.pod, restartCount, type, env });
    let id: string;
    try {
      id = await this.ctx.runtime.createContainer(sandboxId, spec, sandbox);
    } catch (err) {
      return { reason: ErrCreateContainer, message: messageOf(err) };
    }
    try {
      await this.ctx.runtime.startContainer(id);
    } catch (err) {
      return { reason: ErrRunContainer, message: messageOf(err) };
    }
    const postStart = container.lifecycle?.postStart;
    if (postStart) return this.runPostStart(container, id, postStart);
    return undefined;
  }

  /** startContainer step 4: the postStart hook; a failure kills the container (PostStartHookError). */
  private async runPostStart(
    container: V1Container,
    id: string,
    handler: NonNullable<NonNullable<V1Container['lifecycle']>['postStart']>,
  ): Promise<SyncError | undefined> {
    const started = this.ctx.clock.now();
    const kind = handler.exec
      ? 'exec'
      : handler.httpGet
        ? 'httpGet'
        : handler.sleep
          ? 'sleep'
          : 'other';
    this.ctx.note?.({
      type: 'postStartStarted',
      container: container.name,
      containerId: id,
      handler: kind,
    });
    const outcome = await runLifecycleHandler(
      {
        runtime: this.ctx.runtime,
        clock: this.ctx.clock,
        network: this.ctx.network,
        podIP: this.podIP(),
      },
      this.pod,
      container,
      id,
      handler,
    );
    const durationMs = this.ctx.clock.now() - started;
    if (outcome.ok) {
      this.ctx.note?.({
        type: 'postStartFinished',
        container: container.name,
        containerId: id,
        durationMs,
      });
      return undefined;
    }
    this.ctx.log(`${this.where}: FailedPostStartHook: ${outcome.message}`);
    this.ctx.note?.({
      type: 'postStartFailed',
      container: container.name,
      containerId: id,
      durationMs,
      message: outcome.message,
    });
    try {
      await killContainer(this.killContext(), {
        where: this.where,
        id,
        container,
        graceSeconds: terminationGracePeriod(this.pod),
        message: 'FailedPostStartHook',
      });
    } catch (err) {
      this.ctx.log(
        `${this.where}: Failed to kill container ${container.name}: ${rpcErrorText(err)}`,
      );
    }
    return { reason: ErrPostStartHook, message: outcome.message };
  }

  private backoffKeyFor(container: V1Container): string {
    return backoffKey(
      {
        name: this.pod.metadata?.name ?? '',
        namespace: this.pod.metadata?.namespace ?? '',
        uid: this.uid,
      },
      container.name,
      hashContainer(container),
    );
  }

  /** doBackOff: back off from the finish of the newest exited attempt, else move the back-off on. */
  private doBackOff(container: V1Container, status: RuntimePodStatus): SyncError | undefined {
    const exited = containersNewestFirst(status).find(
      (c) => c.name === container.name && c.state === 'exited',
    );
    if (!exited || exited.finishedAt === undefined) return undefined;
    const key = this.backoffKeyFor(container);
    const state = this.ctx.backoff.get();
    const now = this.ctx.clock.now();
    if (isInBackOffSince(state, key, exited.finishedAt, now)) {
      return {
        reason: ErrCrashLoopBackOff,
        message: `back-off ${goDuration(backoffGet(state, key))} restarting failed container=${container.name} pod=${formatPod(this.pod)}`,
      };
    }
    this.ctx.backoff.set(backoffNext(state, key, exited.finishedAt, now));
    return undefined;
  }

  /** ReasonCache.Update: a failed start is remembered, a successful one forgets. */
  private updateReasonCache(results: ReadonlyMap<string, SyncError | undefined>): void {
    let changed = false;
    for (const [name, error] of results) {
      const old = this.reasons.get(name);
      if (error) {
        if (old?.reason !== error.reason || old.message !== error.message) changed = true;
        this.reasons.set(name, error);
      } else if (old) {
        this.reasons.delete(name);
        changed = true;
      }
    }
    if (changed) this.ctx.hintsChanged(this.uid);
  }

  /** The next moment this pod needs a sync without any change in the runtime. */
  private scheduleNext(
    status: RuntimePodStatus,
    results: ReadonlyMap<string, SyncError | undefined>,
  ): void {
    const now = this.ctx.clock.now();
    let next = now + this.ctx.timings.periodicSyncMs;
    const state = this.ctx.backoff.get();
    for (const [name, error] of results) {
      if (!error) continue;
      if (error.reason === ErrCrashLoopBackOff) {
        const container = this.containerSpec(name);
        const exited = containersNewestFirst(status).find(
          (c) => c.name === name && c.state === 'exited',
        );
        if (container && exited?.finishedAt !== undefined) {
          next = Math.min(
            next,
            exited.finishedAt + backoffGet(state, this.backoffKeyFor(container)),
          );
        }
      } else {
        next = Math.min(next, now + this.ctx.timings.syncErrorRetryMs);
      }
    }
    this.schedule(next);
  }

  // ── stopping ───────────────────────────────────────────────────────────────

  private killContext(): KillContext {
    return {
      runtime: this.ctx.runtime,
      clock: this.ctx.clock,
      log: this.ctx.log,
      ...(this.ctx.note ? { note: this.ctx.note } : {}),
    };
  }

  private containerSpec(name: string): V1Container | undefined {
    return (
      this.pod.spec?.containers.find((c) => c.name === name) ??
      this.pod.spec?.initContainers?.find((c) => c.name === name)
    );
  }

  /** killPodWithSyncResult: stop running containers (in termination order), then every sandbox. */
  private async killPod(status: RuntimePodStatus, graceSeconds: number): Promise<void> {
    const running = status.containers.filter((c) => c.state === 'running');
    const ordering = new TerminationOrdering(
      this.pod,
      running.map((c) => c.name),
    );
    const failures: string[] = [];
    await Promise.all(
      running.map(async (c) => {
        const container = this.containerSpec(c.name) ?? { name: c.name };
        try {
          await killContainer(this.killContext(), {
            where: this.where,
            id: c.id,
            container,
            graceSeconds,
            ordering,
          });
        } catch (err) {
          failures.push(`KillContainer ${c.name}: ${rpcErrorText(err)}`);
        }
      }),
    );
    for (const s of status.sandboxes) {
      try {
        await this.ctx.runtime.stopPodSandbox(s.id);
      } catch (err) {
        if (!isNotFound(err)) failures.push(`KillPodSandbox ${s.id}: ${rpcErrorText(err)}`);
      }
    }
    if (failures.length > 0) throw new Error(failures.join('; '));
  }

  /** purgeInitContainers: a new sandbox starts initialization from scratch. */
  private async purgeInitContainers(status: RuntimePodStatus): Promise<void> {
    const names = new Set((this.pod.spec?.initContainers ?? []).map((c) => c.name));
    for (const c of status.containers) {
      if (names.has(c.name)) await this.removeQuietly(c.id);
    }
  }

  /**
   * Dead-container GC (pruneInitContainersBeforeStart and the container GC's
   * MaxPerPodContainer = 1): per container name keep the newest exited record, remove older ones.
   */
  private async removeDeadContainers(status: RuntimePodStatus): Promise<void> {
    const seen = new Set<string>();
    for (const c of containersNewestFirst(status)) {
      if (c.state !== 'exited') continue;
      if (!seen.has(c.name)) {
        seen.add(c.name);
        continue;
      }
      await this.removeQuietly(c.id);
    }
  }

  private async removeQuietly(id: string): Promise<void> {
    try {
      await this.ctx.runtime.removeContainer(id);
    } catch (err) {
      if (!isNotFound(err))
        this.ctx.log(`${this.where}: RemoveContainer ${id}: ${rpcErrorText(err)}`);
    }
  }

  /**
   * Graceful deletion (syncTerminatingPod, then the API-side removal and the kubelet's GC):
   * kill with the deletion's grace period, stop the sandboxes, remove containers and sandboxes.
   */
  private async terminate(status: RuntimePodStatus, deletion: Deletion): Promise<void> {
    await this.killPod(status, deletion.gracePeriodSeconds);
    if (this.ctx.timings.removalDelayMs > 0)
      await clockDelay(this.ctx.clock, this.ctx.timings.removalDelayMs);
    const after = await this.readPodStatus();
    for (const c of after.containers) {
      try {
        await this.ctx.runtime.removeContainer(c.id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    for (const s of after.sandboxes) {
      try {
        await this.ctx.runtime.removePodSandbox(s.id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    this.phase = 'removed';
    this.prober.stop();
    this.reasons.clear();
    this.cancelTimer();
    this.ctx.removed(this.uid);
    deletion.resolve();
  }
}

/** The runtime's own words (grpcstatus Message()), as the kubelet keeps them for Create/Run errors. */
function messageOf(err: unknown): string {
  if (
    typeof err === 'object' &&
    err !== null &&
    'details' in err &&
    typeof err.details === 'string'
  ) {
    return err.details;
  }
  return err instanceof Error ? err.message : String(err);
}
