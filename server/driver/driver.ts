/**
 * Driver: Podscope's small kubelet stand-in for one node. It syncs V1Pod specs onto a CRI runtime
 * (sandbox, init containers in order, sidecars, app containers, restarts with CrashLoopBackOff,
 * image pulls with back-off, graceful deletion) with the kubelet's labels and annotations, and
 * tells the engine what the kubelet would know but the CRI does not (its HintProvider: the reason
 * cache, deletion, terminal pods). Demos, training scenarios and the real-containerd tests use it.
 *
 *   const driver = new Driver({ client, node: 'node-a', clock, backoffScale: 0.1 });
 *   const pod = await driver.apply(spec);          // defaulted copy, with its uid
 *   await driver.delete(pod.metadata.uid, { gracePeriodSeconds: 5 });
 *   engine providers: [driver.hints]
 *
 * It refuses any runtime that is neither Podscope's simulator nor marked `lab: true` (safety.ts),
 * at the first call that would change something.
 *
 * Back-off scale: the kubelet's container and image back-offs (10 s doubling to 300 s) and the
 * pod worker's retry period (10 s) are multiplied by `backoffScale`, so a demo shows restarts
 * within seconds. The engine must be told the same scale to infer the same CrashLoopBackOff.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { containerBackoff, newBackoff, type BackoffState } from '@/lib/kubelet/backoff';
import { KUBELET_DEFAULTS } from '@/lib/kubelet/timings';
import type { HintProvider } from '@/server/engine/hints';
import { logFn, rootLogger } from '@/server/log';
import { ActivityMeter } from './activity';
import { ApiLink } from './node/api-link';
import { systemClock, type DriverClock } from './clock';
import { driverHints } from './driver-hints';
import {
  DriverError,
  REMOVAL_DELAY_MS,
  type DriverOptions,
  type DriverPod,
} from './driver-options';
import { ConfigStore } from './spec/env';
import { EvictionManager } from './node/eviction';
import { ImageManager } from './pod-worker/images';
import type { DriverEvent, DriverNote } from './notes';
import { PodWorker } from './pod-worker/pod-worker';
import { socketNetwork } from './probes/network';
import { DriverRelist } from './node/relist';
import type { DriverRuntime } from './runtime';
import { RuntimeState } from './node/runtime-state';
import { checkMutable, DriverRefusedError } from './safety';
import { defaultPod, uidGenerator } from './spec/spec';
import { unsupportedFields, unsupportedWarning } from './spec/unsupported';

export type { DriverEvent, DriverNote } from './notes';
export { DriverError } from './driver-options';
export type { DriverOptions, DriverPod } from './driver-options';

export class Driver {
  readonly node: string;
  readonly runtime: DriverRuntime;
  readonly clock: DriverClock;
  readonly configs: ConfigStore;
  readonly backoffScale: number;
  readonly lab: boolean;
  readonly hints: HintProvider;
  private readonly workers = new Map<string, PodWorker>();
  private readonly unsupported = new Map<string, string[]>();
  private readonly hintListeners = new Set<(uids: string[]) => void>();
  private readonly noteListeners = new Set<(note: DriverNote) => void>();
  private readonly images: ImageManager;
  private readonly runtimeState: RuntimeState;
  private readonly link: ApiLink;
  private readonly evictions: EvictionManager;
  private backoff: BackoffState;
  private readonly nextUid: () => string;
  private readonly periodicSyncMs: number;
  private readonly relist: DriverRelist;
  private readonly activity = new ActivityMeter();
  private allowed: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: DriverOptions) {
    if (!options.client) throw new DriverError('driver: a CRI client is required');
    if (!options.node) throw new DriverError('driver: a node name is required');
    const scale = options.backoffScale ?? 1;
    if (!(scale > 0) || !Number.isFinite(scale)) {
      throw new DriverError(`driver: backoffScale must be a positive number, got ${String(scale)}`);
    }
    this.node = options.node;
    this.runtime = this.activity.track(options.client);
    this.clock = options.clock ?? systemClock;
    this.backoffScale = scale;
    this.lab = options.lab === true;
    this.configs = new ConfigStore({
      ...(options.configMaps ? { configMaps: options.configMaps } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    });
    try {
      this.backoff = containerBackoff(
        options.maxContainerRestartPeriodMs ?? KUBELET_DEFAULTS.maxContainerRestartPeriodMs,
        scale,
      );
    } catch (err) {
      throw new DriverError(`driver: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.images = new ImageManager(
      this.runtime,
      () => this.clock.now(),
      newBackoff(
        KUBELET_DEFAULTS.backOffPeriodMs * scale,
        KUBELET_DEFAULTS.maxContainerBackOffMs * scale,
      ),
    );
    this.nextUid = uidGenerator(options.uidSeed ?? options.node);
    this.periodicSyncMs = options.periodicSyncMs ?? KUBELET_DEFAULTS.syncFrequencyMs;
    this.runtimeState = new RuntimeState(this.runtime, this.clock, (line) => this.log(line));
    this.link = new ApiLink(this.clock);
    this.hints = driverHints({
      node: this.node,
      workers: this.workers,
      unsupported: this.unsupported,
      link: this.link,
      hintListeners: this.hintListeners,
      onNote: (listener) => this.onNote(listener),
    });
    this.relist = new DriverRelist({
      runtime: this.runtime,
      clock: this.clock,
      node: this.node,
      periodMs: options.relistMs ?? KUBELET_DEFAULTS.plegRelistPeriodMs,
      workers: this.workers,
      log: (line) => this.log(line),
    });
    this.evictions = new EvictionManager({
      runtime: this.runtime,
      clock: this.clock,
      candidates: () =>
        [...this.workers.values()]
          .filter((w) => w.phase === 'syncing' && w.deletionTimestamp === undefined && !w.evicted)
          .map((w) => ({
            uid: w.uid,
            pod: w.spec,
            evict: (message: string) => w.evict(message),
            get cleanedUp() {
              return w.cleanedUp;
            },
          })),
      log: (line) => this.log(`driver: ${this.node}: ${line}`),
    });
  }

  // ── public API ───────────────────────────────────────────────────────────

  /** Resolves once the runtime is known to be one the driver may change (see safety.ts). */
  ensureAllowed(): Promise<void> {
    this.allowed ??= checkMutable(this.runtime, this.lab).then(
      () => undefined,
      (err: unknown) => {
        // A refusal stands; a failed Version call may be retried by the next call.
        if (!(err instanceof DriverRefusedError)) this.allowed = undefined;
        throw err;
      },
    );
    return this.allowed;
  }

  /** Puts a pod on the node. Returns the defaulted copy the driver works from (with its uid). */
  async apply(pod: V1Pod): Promise<V1Pod> {
    this.assertRunning();
    await this.ensureAllowed();
    // updateRuntimeUp runs from the kubelet's start; here from the first pod on.
    await this.runtimeState.start();
    this.evictions.start();
    const defaulted = defaultPod(pod, {
      node: this.node,
      uid: this.nextUid,
      now: this.clock.now(),
      hostNetwork: this.options.hostNetwork ?? true,
    });
    const uid = defaulted.metadata?.uid ?? '';
    const name = defaulted.metadata?.name ?? '';
    const namespace = defaulted.metadata?.namespace ?? '';
    if (this.workers.has(uid))
      throw new DriverError(`driver: pod uid ${uid} already exists on ${this.node}`);
    const clash = [...this.workers.values()].find(
      (w) => w.spec.metadata?.name === name && w.spec.metadata.namespace === namespace,
    );
    if (clash) {
      throw new DriverError(
        `driver: pod ${namespace}/${name} already exists on ${this.node} (uid ${clash.uid})`,
      );
    }
    const unsupported = unsupportedFields(defaulted);
    const worker = new PodWorker(defaulted, {
      runtime: this.runtime,
      clock: this.clock,
      images: this.images,
      configs: this.configs,
      backoff: { get: () => this.backoff, set: (next) => (this.backoff = next) },
      timings: {
        syncErrorRetryMs: KUBELET_DEFAULTS.backOffPeriodMs * this.backoffScale,
        periodicSyncMs: this.periodicSyncMs,
        removalDelayMs: this.options.removalDelayMs ?? REMOVAL_DELAY_MS,
      },
      ...(this.options.logRoot ? { logRoot: this.options.logRoot } : {}),
      log: (line) => this.log(line),
      hintsChanged: (u) => this.emitHints([u]),
      removed: (u) => {
        this.workers.delete(u);
        this.unsupported.delete(u);
        this.emitHints([u]);
      },
      network: this.options.network ?? socketNetwork,
      nodeIP: this.options.nodeIP ?? '127.0.0.1',
      note: (event) => this.emitNote(uid, event),
      networkError: () => this.runtimeState.networkError(),
    });
    this.workers.set(uid, worker);
    this.unsupported.set(uid, unsupported);
    const warning = unsupportedWarning(unsupported);
    if (warning) {
      this.log(`${worker.where}: ${warning}`);
      this.emitNote(uid, { type: 'unsupported', fields: unsupported, message: warning });
    }
    this.emitHints([uid]);
    worker.requestSync();
    this.relist.start();
    return structuredClone(worker.spec);
  }

  /**
   * Graceful deletion: preStop, StopContainer with the remaining grace period (SIGTERM, SIGKILL
   * when it runs out), StopPodSandbox, then removal of containers and sandbox. Resolves when the
   * pod is gone from the runtime. Default grace: the pod's terminationGracePeriodSeconds.
   */
  async delete(uid: string, opts: { gracePeriodSeconds?: number } = {}): Promise<void> {
    this.assertRunning();
    await this.ensureAllowed();
    const worker = this.workers.get(uid);
    if (!worker) throw new DriverError(`driver: no pod with uid ${uid} on ${this.node}`);
    const grace = opts.gracePeriodSeconds ?? worker.spec.spec?.terminationGracePeriodSeconds ?? 30;
    if (!Number.isInteger(grace) || grace < 0) {
      throw new DriverError(`driver: gracePeriodSeconds must be a whole number ≥ 0, got ${grace}`);
    }
    return worker.requestDeletion(grace);
  }

  /** Cuts (true) or heals (false) the kubelet's connection to the API server (api-link.ts). */
  partition(on: boolean): void {
    if (on === this.link.partitioned) return;
    this.log(`driver: ${this.node}: ${on ? 'cut off from' : 'reconnected to'} the API server`);
    this.link.partition(on);
  }

  get partitioned(): boolean {
    return this.link.partitioned;
  }

  /**
   * The taint-eviction controller deleted the pod from the API server (its NoExecute toleration
   * ran out): recorded as the controller's TaintManagerEviction event. The kubelet learns of the
   * deletion — and terminates the pod with its grace period — as soon as its API connection
   * allows (api-link.ts).
   */
  evict(uid: string): void {
    const worker = this.workers.get(uid);
    if (!worker) throw new DriverError(`driver: no pod with uid ${uid} on ${this.node}`);
    const { namespace = '', name = '' } = worker.spec.metadata ?? {};
    this.emitNote(uid, {
      type: 'evicted',
      message: `Marking for deletion Pod ${namespace}/${name}`,
    });
    this.link.deliver(() => {
      if (!this.workers.has(uid) || this.stopped) return;
      this.delete(uid).catch((err: unknown) =>
        this.log(`driver: eviction of ${uid}: ${err instanceof Error ? err.message : String(err)}`),
      );
    });
  }

  /** The uid of a pod this driver runs, by namespace and name. */
  find(namespace: string, name: string): string | undefined {
    for (const w of this.workers.values()) {
      if (w.spec.metadata?.namespace === namespace && w.spec.metadata.name === name) return w.uid;
    }
    return undefined;
  }

  pods(): DriverPod[] {
    return [...this.workers.values()].map((w) => ({
      uid: w.uid,
      namespace: w.spec.metadata?.namespace ?? '',
      name: w.spec.metadata?.name ?? '',
      node: this.node,
      phase: w.phase,
      syncErrors: w.syncErrors(),
      ...(w.deletionTimestamp !== undefined ? { deletionTimestamp: w.deletionTimestamp } : {}),
      ...(w.lastError !== undefined ? { lastError: w.lastError } : {}),
      unsupported: [...(this.unsupported.get(w.uid) ?? [])],
    }));
  }

  /** Asks for an immediate sync of every pod (e.g. after a ConfigMap appeared). */
  resyncAll(): void {
    for (const w of this.workers.values()) w.requestSync();
  }

  /**
   * Resolves once the driver can make no more progress without time passing: no runtime call
   * started or finished during a few event-loop turns. Syncs blocked on the clock (a back-off, a
   * preStop sleep, a StopContainer waiting for its timeout) count as quiet. Meant for tests on
   * a manual clock and an in-memory runtime; over a real socket a slow call can look quiet.
   */
  settle(): Promise<void> {
    return this.activity.quiet();
  }

  /** Stops every loop and timer. Pods stay on the runtime (delete them first if they should go). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.runtimeState.stop();
    this.evictions.stop();
    await this.relist.stop();
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
  }

  onNote(listener: (note: DriverNote) => void): () => void {
    this.noteListeners.add(listener);
    return () => this.noteListeners.delete(listener);
  }

  // ── internals ────────────────────────────────────────────────────────────

  private assertRunning(): void {
    if (this.stopped) throw new DriverError(`driver for ${this.node} is stopped`);
  }

  private log(line: string): void {
    (this.options.log ?? logFn(rootLogger()))(line);
  }

  private emitHints(uids: string[]): void {
    for (const l of this.hintListeners) {
      try {
        l(uids);
      } catch (err) {
        this.log(
          `driver: hint listener failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  }

  private emitNote(uid: string, event: DriverEvent): void {
    const note: DriverNote = { uid, at: this.clock.now(), event };
    for (const l of this.noteListeners) {
      try {
        l(note);
      } catch (err) {
        this.log(
          `driver: note listener failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  }
}
