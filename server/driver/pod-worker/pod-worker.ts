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
 * Its parts: starting a container (startContainer + doBackOff) in container-start.ts; killing,
 * the dead-container GC and the final removal in pod-kill.ts; the reason cache in
 * reason-cache.ts; GetPodStatus in pod-status.ts; the serialization and the one timer in
 * sync-loop.ts; what the driver hands it in worker-context.ts.
 *
 * Never two syncs of one pod at once: a request during a sync marks the pod dirty and the loop
 * runs again right after. Syncs are triggered by apply/delete, by the driver's relist noticing a
 * change in the runtime (the PLEG's role), by a timer at the end of a back-off, after a failed
 * sync (the pod worker's back-off period) and by a slow periodic resync (syncFrequency).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isRestartableInitContainer } from '@/lib/kubelet/restart';
import type { RuntimePodStatus, SyncError } from '@/lib/kubelet/runtime';
import { ErrCrashLoopBackOff } from '@/lib/kubelet/reasons';
import { computePodActions, isTerminalPlan } from './actions';
import { backOffEndsAt, startContainer, type StartTarget } from './container-start';
import { EVICTED_REASON } from '../node/eviction';
import { clockDelay, killContainer, terminationGracePeriod } from './kill';
import { buildSandboxSpec, podLogsDirectory } from '../spec/labels';
import {
  killGracePeriod,
  killPod,
  purgeInitContainers,
  removeAll,
  removeDeadContainers,
  type KillTarget,
} from './pod-kill';
import { readPodStatus } from './pod-status';
import { ReasonCache } from './reason-cache';
import { PodProber } from '../probes/manager';
import { rpcErrorText } from '../runtime';
import { NETWORK_NOT_READY_MSG } from '../node/runtime-state';
import { formatPod } from '../spec/spec';
import { SyncLoop } from './sync-loop';
import {
  containerSpecOf,
  killContextOf,
  type WorkerContext,
  type WorkerPhase,
} from './worker-context';

export { fingerprintOf } from './pod-status';
export type { WorkerContext, WorkerPhase, WorkerTimings } from './worker-context';

interface Deletion {
  requestedAt: number;
  gracePeriodSeconds: number;
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class PodWorker {
  readonly uid: string;
  phase: WorkerPhase = 'syncing';
  /** The reason cache for this pod: container name → last start error. */
  private readonly reasons = new ReasonCache();
  private deletion: Deletion | undefined;
  private stopped = false;
  private readonly loop: SyncLoop;
  private lastFingerprint: string | undefined;
  /** The last failure of a sync step that is not a container start (sandbox, kill, runtime down). */
  lastError: string | undefined;
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
    this.loop = new SyncLoop({
      clock: ctx.clock,
      sync: () => this.syncOnce(),
      failed: (err) => {
        // A runtime that does not answer, a sandbox that cannot be stopped: keep the state,
        // say why, try again after the worker's back-off.
        this.lastError = err instanceof Error ? err.message : String(err);
        this.ctx.log(`${this.where}: sync failed: ${this.lastError}`);
        this.loop.schedule(this.ctx.clock.now() + this.ctx.timings.syncErrorRetryMs);
      },
      closed: () => this.stopped || this.phase === 'removed',
    });
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
    return this.reasons.entries();
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
    this.loop.request();
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
    return this.loop.busy;
  }

  /** Syncs run so far. */
  get syncs(): number {
    return this.loop.syncs;
  }

  /** Resolves when no sync is running or queued. */
  settled(): Promise<void> {
    return this.loop.settled();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.loop.cancelTimer();
    this.prober.stop();
    await this.settled();
    this.deletion?.reject(new Error(`${this.where}: driver stopped before the deletion finished`));
  }

  // ── one sync ───────────────────────────────────────────────────────────────

  /** GetPodStatus (pod-status.ts); remembers the lists' fingerprint for observe(). */
  private readPodStatus(): Promise<RuntimePodStatus> {
    return readPodStatus(
      this.ctx.runtime,
      {
        uid: this.uid,
        name: this.pod.metadata?.name ?? '',
        namespace: this.pod.metadata?.namespace ?? '',
      },
      (fingerprint) => (this.lastFingerprint = fingerprint),
    );
  }

  /** The pod as container-start.ts and pod-kill.ts need it, now. */
  private get target(): StartTarget & KillTarget {
    return { ctx: this.ctx, pod: this.pod, uid: this.uid, where: this.where, podIP: this.podIP() };
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
      await killPod(this.target, status, 0);
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
      await killPod(this.target, status, terminationGracePeriod(this.pod));
      if (isTerminalPlan(actions)) {
        // Nothing will run again: the kubelet's pod worker now treats the pod as terminal.
        this.phase = 'terminal';
        this.prober.stop();
        this.reasons.clear();
        this.ctx.hintsChanged(this.uid);
        return;
      }
      await purgeInitContainers(this.target, status);
    } else {
      for (const k of actions.containersToKill) {
        const container = containerSpecOf(this.pod, k.name);
        if (!container) continue;
        await killContainer(killContextOf(this.ctx), {
          where: this.where,
          id: k.id,
          container,
          graceSeconds: killGracePeriod(this.pod, container, k.reason),
          message: k.message,
        });
      }
    }
    await removeDeadContainers(this.target, status);

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
        this.loop.schedule(this.ctx.clock.now() + this.ctx.timings.syncErrorRetryMs);
        return;
      }
    }
    this.lastError = undefined;

    const results = new Map<string, SyncError | undefined>();
    const inits = this.pod.spec?.initContainers ?? [];
    for (const idx of actions.initContainersToStart) {
      const container = inits[idx];
      if (!container) continue;
      const error = await startContainer(
        this.target,
        container,
        'init',
        sandboxId,
        sandbox,
        status,
      );
      results.set(container.name, error);
      if (error && !isRestartableInitContainer(container)) break;
    }
    const initAborted = [...results.entries()].some(
      ([name, e]) =>
        e !== undefined && !isRestartableInitContainer(containerSpecOf(this.pod, name)),
    );
    if (!initAborted) {
      const regular = this.pod.spec?.containers ?? [];
      for (const idx of actions.containersToStart) {
        const container = regular[idx];
        if (!container) continue;
        results.set(
          container.name,
          await startContainer(this.target, container, 'container', sandboxId, sandbox, status),
        );
      }
    }
    if (this.reasons.update(results)) this.ctx.hintsChanged(this.uid);
    this.scheduleNext(status, results);
    // UpdatePodStatus: a started container whose readiness is not yet Success is probed now.
    this.prober.triggerReadiness(status);
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
        const container = containerSpecOf(this.pod, name);
        const ends = container && backOffEndsAt(this.pod, this.uid, container, status, state);
        if (ends !== undefined) next = Math.min(next, ends);
      } else {
        next = Math.min(next, now + this.ctx.timings.syncErrorRetryMs);
      }
    }
    this.loop.schedule(next);
  }

  // ── stopping ───────────────────────────────────────────────────────────────

  /**
   * Graceful deletion (syncTerminatingPod, then the API-side removal and the kubelet's GC):
   * kill with the deletion's grace period, stop the sandboxes, remove containers and sandboxes.
   */
  private async terminate(status: RuntimePodStatus, deletion: Deletion): Promise<void> {
    await killPod(this.target, status, deletion.gracePeriodSeconds);
    if (this.ctx.timings.removalDelayMs > 0)
      await clockDelay(this.ctx.clock, this.ctx.timings.removalDelayMs);
    await removeAll(this.ctx, await this.readPodStatus());
    this.phase = 'removed';
    this.prober.stop();
    this.reasons.clear();
    this.loop.cancelTimer();
    this.ctx.removed(this.uid);
    deletion.resolve();
  }
}
