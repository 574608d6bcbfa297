/**
 * One node, as the kubelet sees it: the relist loop (node-watcher.ts) plus everything the kubelet
 * keeps per node — the node's clock offset, the container back-off, the pods that fall due for a
 * time-based re-evaluation, the node conditions — turned into derived timeline events, each with
 * its cause (the seq of the CRI event behind it) and its why.
 *
 * The per-node state lives in three parts: node-status.ts (the runtime's Status, node conditions,
 * readiness), pod-deriver.ts (back-off, clock offset, pod derivation) and usage-sampler.ts
 * (ListContainerStats → CPU and memory); this module runs the watcher and the stats loop, numbers
 * and emits what they return, and decides which pods to derive when.
 *
 * Module boundary: a NodeEngine needs a runtime client and nothing else — no store, no bus, no
 * other node. It holds this node's latest full state (`view()`, folded through the one reducer
 * from the events it emitted) and hands every batch to `onEvents`. The server's façade
 * (engine.ts) runs one per node and records the batches (recorder.ts); a cluster-mode agent runs
 * exactly this per node and publishes the batches.
 *
 * Seqs: events are numbered by `seq()` (default: a counter of its own from 1). The façade passes
 * the recorder's, so causes are server-wide seqs. A receiver that renumbers a batch must map the
 * `cause` fields with it (a cause always names an earlier event of the same batch).
 */
import type { BackoffState, FeatureGates } from '@/lib/kubelet';
import type { RuntimeInfo } from '@/lib/kubelet/runtime';
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { own, type ClusterState, type NodeView } from '@/lib/timeline/state';
import type { LogFn, LogLevel } from '@/server/log';
import { DueDeadlines } from '../pods/due';
import { admittedPodName, admittedPods, type HintProvider } from '../hints';
import type { EngineMetrics } from '../metrics';
import { NodeStatus } from './node-status';
import {
  NodeWatcher,
  type Clock,
  type RelistOutcome,
  type WatcherSink,
} from '../relist/node-watcher';
import { PodDeriver } from '../pods/pod-deriver';
import type { NodeFold } from '../recorder';
import {
  causeOf,
  numberTransitions,
  relistFailedEvents,
  runtimePodOf,
  withSeq,
} from '../relist/relist-events';
import { UsageSampler } from './usage-sampler';
import { watcherReports } from '../relist/watcher-reports';
import type { RuntimeClient, RuntimeStatusReport } from '../relist/runtime-client';
import { DEFAULT_ENGINE_TIMINGS, nodeTimings, type EngineTimings } from '../timings';

export interface NodeEngineOptions {
  name: string;
  /** The node's runtime (server/cri's CriClient, or an in-memory one in tests). */
  client: RuntimeClient;
  timings: EngineTimings;
  /** The batches this node derives, in order, each event numbered and folded into `view()`. */
  onEvents: (batch: TimelineEvent[], folded: NodeFold) => void;
  /** Where pod specs and the kubelet's hints come from (the driver, the API server), most trusted first. */
  providers?: readonly HintProvider[];
  /** Gates set explicitly, over the defaults of the node's kubelet version. */
  gates?: FeatureGates;
  /**
   * The operator's kubelet version for this node (`--kubelet-version`, PODSCOPE_KUBELET_VERSION):
   * used when no provider reports the node's own (status.nodeInfo.kubeletVersion); without
   * either, the newest minor's rules apply and the node says so.
   */
  kubeletVersion?: string;
  clock?: Clock;
  /** A node the driver may mutate (`#lab`). */
  lab?: boolean;
  /**
   * The kubelet's container back-off, given this node's maximum (default: containerBackoff of it —
   * 10 s doubling to the maximum, reset 600 s after the last restart).
   */
  backoff?: (maxContainerRestartPeriodMs: number) => BackoffState;
  /** This node's crashLoopBackOff.maxContainerRestartPeriod, 1 s–300 s (default 300 s). */
  maxContainerRestartPeriodMs?: number;
  /** The node as last recorded, when continuing an existing timeline. */
  initial?: NodeView;
  /** Hands out seqs (default: a counter of its own). */
  seq?: () => number;
  /** When the observer started (node conditions allow a grace period from it). */
  startedAt?: number;
  /** This node's configured IPs (PODSCOPE_NODE_IP), used when the API server has no Node for it. */
  nodeIPs?: readonly string[];
  /** This machine's detected IPs, the last resort for host IPs. */
  detectedIPs?: readonly string[];
  metrics?: Pick<
    EngineMetrics,
    | 'relistDuration'
    | 'relistErrors'
    | 'skippedTicks'
    | 'inspectErrors'
    | 'eventStreamFallbacks'
    | 'clockOffset'
  >;
  log?: LogFn;
}

export function createNodeEngine(options: NodeEngineOptions): NodeEngine {
  return new NodeEngine(options);
}

export class NodeEngine {
  readonly name: string;
  readonly watcher: NodeWatcher;
  private state: ClusterState;
  private readonly clock: Clock;
  private readonly seq: () => number;
  private readonly status: NodeStatus;
  private readonly pods: PodDeriver;
  /**
   * Pods that changed in the previous relist: derived once more, as the kubelet syncs a pod again
   * after a change (its first status after an exit shows Terminated; the back-off shows next).
   */
  private followUp = new Set<string>();
  private readonly due = new DueDeadlines();
  private readonly usage: UsageSampler;
  private statsTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: NodeEngineOptions) {
    this.name = options.name;
    this.clock = options.clock ?? { now: () => Date.now() };
    let local = 0;
    this.seq = options.seq ?? (() => ++local);
    const timings = nodeTimings(options.timings);
    const now = this.clock.now();
    this.status = new NodeStatus(options.name, options.startedAt ?? now, timings, now);
    this.pods = new PodDeriver({
      node: options.name,
      timings,
      relistMs: options.timings.relistMs,
      ...(options.providers ? { providers: options.providers } : {}),
      ...(options.gates ? { gates: options.gates } : {}),
      ...(options.kubeletVersion !== undefined ? { kubeletVersion: options.kubeletVersion } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.maxContainerRestartPeriodMs !== undefined
        ? { maxContainerRestartPeriodMs: options.maxContainerRestartPeriodMs }
        : {}),
      ...(options.nodeIPs ? { nodeIPs: options.nodeIPs } : {}),
      ...(options.detectedIPs ? { detectedIPs: options.detectedIPs } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    this.state = {
      seq: 0,
      t: 0,
      nodes: options.initial ? { [options.name]: options.initial } : {},
    };
    this.usage = new UsageSampler(options.name, options.client, options.log);
    this.watcher = new NodeWatcher(
      options.name,
      options.client,
      this.sink,
      this.clock,
      options.timings,
      options.lab ?? false,
    );
    const existing = options.initial;
    this.emit([
      {
        kind: 'node',
        type: existing ? 'NodeUpdated' : 'NodeAdded',
        node: this.name,
        t: this.clock.now(),
        endpoint: options.client.endpoint,
        kubelet: this.pods.kubelet,
        health: {
          connected: false,
          ...(existing?.health.lastRelistAt ? { lastRelistAt: existing.health.lastRelistAt } : {}),
        },
      },
    ]);
  }

  /** This node's latest state, as the events emitted so far describe it. */
  view(): NodeView | undefined {
    return own(this.state.nodes, this.name);
  }

  /** Starts the relist, event-stream, Status and stats loops. */
  start(): void {
    this.watcher.start();
    const ms = this.options.timings.statsMs ?? DEFAULT_ENGINE_TIMINGS.statsMs;
    if (ms && ms > 0) {
      this.statsTimer = setInterval(() => void this.sampleUsage(), ms);
      this.statsTimer.unref?.();
    }
  }

  stop(): void {
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.statsTimer = undefined;
    this.watcher.stop();
  }

  /**
   * One ListContainerStats round (the stats loop calls it; tests call it directly): records the
   * node's CPU and memory per container and pod when they moved. The memory users it finds feed
   * the MemoryPressure explanation.
   */
  async sampleUsage(): Promise<void> {
    if (!this.watcher.connected) return;
    const running = new Set(
      this.watcher
        .records()
        .containers.filter((c) => c.state === 'running')
        .map((c) => c.id),
    );
    const events = await this.usage.sample(
      () => this.clock.now(),
      (id) => running.has(id),
      () => this.view()?.usage,
    );
    this.emit(events);
    this.status.memoryUsers(this.usage.latest, this.view());
  }

  /** Folds events about this node recorded by someone else (drift, the API server's view). */
  observe(events: readonly TimelineEvent[]): void {
    this.state = reduceAll(
      this.state,
      events.filter((e) => e.node === this.name),
    );
  }

  /** Takes this view as its own (the recorder shrank events too large for the store). */
  adopt(view: NodeView | undefined): void {
    const { [this.name]: _old, ...others } = this.state.nodes;
    this.state = { ...this.state, nodes: view ? { ...others, [this.name]: view } : others };
  }

  /** Time-driven work while relists are not arriving: grace periods, back-offs that end. */
  tick(now: number): void {
    this.evaluate(now);
    if (this.watcher.connected) return; // its relists re-derive what falls due
    const due = this.duePods(now);
    if (due.length > 0) this.rederive(new Set(due));
  }

  /**
   * Re-derives these pods from the records the watcher holds (hint changes, node readiness).
   * `causes` names, per pod uid, the recorded event behind the change (a probe result, say).
   */
  rederive(
    uids: ReadonlySet<string>,
    now = this.clock.now(),
    causes?: ReadonlyMap<string, number>,
  ): void {
    const view = this.view();
    if (!view) return;
    const records = this.watcher.records();
    const admitted = admittedPods(this.options.providers ?? [], this.name);
    const events: UnsequencedEvent[] = [];
    for (const uid of uids) {
      const previous = own(view.pods, uid);
      const named =
        previous ??
        (admitted?.has(uid) ? admittedPodName(this.options.providers ?? [], uid) : undefined);
      if (!named) continue;
      const runtime = runtimePodOf(records, uid, named);
      if (admitted && isEmpty(runtime) && !admitted.has(uid)) {
        // A pod known only from its kubelet, which let go of it.
        if (previous)
          events.push({ kind: 'pod', type: 'PodRemoved', node: this.name, podUid: uid, t: now });
        continue;
      }
      events.push(...this.pods.derive(runtime, previous, now, this.status.ready, causes?.get(uid)));
    }
    this.emit(events);
  }

  // ── emitting ───────────────────────────────────────────────────────────────

  private emit(events: readonly UnsequencedEvent[]): void {
    if (events.length === 0) return;
    this.emitNumbered(events.map((e) => withSeq(e, this.seq())));
  }

  private emitNumbered(batch: TimelineEvent[]): void {
    if (batch.length === 0) return;
    const before = this.state;
    this.state = reduceAll(before, batch);
    this.options.onEvents(batch, { node: this.name, before, after: this.state });
  }

  private log(line: string, level?: LogLevel): void {
    this.options.log?.(line, level);
  }

  // ── what the watcher reports ───────────────────────────────────────────────

  private readonly sink: WatcherSink = {
    relisted: (o) => this.onRelisted(o),
    relistFailed: (_node, at, error, first) => this.onRelistFailed(at, error, first),
    statusRead: (_node, at, status, error) => this.onStatus(at, status, error),
    connected: (node, info: RuntimeInfo) =>
      this.emit([{ kind: 'node', type: 'NodeUpdated', node, t: this.clock.now(), runtime: info }]),
    ...watcherReports(
      () => this.options.metrics,
      (line, level) => this.log(line, level),
    ),
  };

  private onStatus(at: number, status: RuntimeStatusReport | undefined, error?: Error): void {
    this.emit(this.status.statusRead(at, status, error));
    this.evaluate(at);
  }

  private onRelistFailed(at: number, error: Error, first: boolean): void {
    this.options.metrics?.relistErrors.inc({ node: this.name });
    if (first) this.log(`${this.name}: relist failed: ${error.message}`, 'warn');
    this.emit(relistFailedEvents(this.view(), this.name, at, error, first));
    this.evaluate(at);
  }

  private onRelisted(o: RelistOutcome): void {
    this.options.metrics?.relistDuration.observe(
      { node: o.node },
      (o.finishedAt - o.startedAt) / 1000,
    );
    const t = o.finishedAt;
    const view = this.view();
    const clockMoved = this.pods.observeClock(o);

    // 1. What changed on the wire, numbered first so derived events can name their cause.
    const cri: TimelineEvent[] = [];
    if (view && !view.health.connected && view.health.lastError) {
      cri.push(
        withSeq(
          { kind: 'cri', type: 'RelistRecovered', source: 'relist', node: o.node, t } as const,
          this.seq(),
        ),
      );
    }
    const { events, podCause, containerCause } = numberTransitions(o, () => this.seq());
    cri.push(...events);
    this.pods.noteRestarts(o);

    // 2. What it meant, for every pod touched now or due for a time-based re-evaluation.
    const derived: UnsequencedEvent[] = [];
    if (view && (!view.health.connected || view.health.lastError)) {
      derived.push({
        kind: 'node',
        type: 'NodeUpdated',
        node: o.node,
        t,
        health: { connected: true, lastRelistAt: t },
      });
    }
    const due = this.duePods(t);
    const again = this.followUp;
    this.followUp = new Set(o.touched);
    const admitted = admittedPods(this.options.providers ?? [], this.name);
    for (const uid of new Set([...o.touched, ...due, ...again])) {
      const previous = own(this.view()?.pods ?? {}, uid);
      const named = previous ?? admittedPodName(this.options.providers ?? [], uid);
      const runtime =
        o.pods.get(uid) ??
        (admitted?.has(uid) && named
          ? runtimePodOf({ sandboxes: [], containers: [] }, uid, named)
          : undefined);
      if (!runtime) {
        if (previous)
          derived.push({
            kind: 'pod',
            type: 'PodRemoved',
            node: o.node,
            podUid: uid,
            t,
            ...causeOf(podCause.get(uid)),
          });
        continue;
      }
      derived.push(
        ...this.pods.derive(
          runtime,
          previous,
          t,
          this.status.ready,
          podCause.get(uid),
          containerCause.get(uid),
        ),
      );
    }
    this.emitNumbered([...cri, ...derived.map((e) => withSeq(e, this.seq()))]);
    // Pods derived with the old clock offset compared times wrongly: derive them all again.
    if (clockMoved) this.rederive(new Set(Object.keys(this.view()?.pods ?? {})));
    this.evaluate(t);
  }

  private duePods(now: number): string[] {
    const view = this.view();
    return view ? this.due.take(view, now) : [];
  }

  /** Node conditions from the runtime's Status, the relist heartbeat and the grace periods. */
  private evaluate(now: number): void {
    const view = this.view();
    if (!view) return;
    const kubelet = this.pods.refreshKubelet();
    if (kubelet) {
      this.log(
        `${this.name}: kubelet ${kubelet.reported ?? kubelet.value} (${kubelet.source}): applying the rules of ${kubelet.value}`,
      );
      this.emit([{ kind: 'node', type: 'NodeUpdated', node: this.name, t: now, kubelet }]);
      // Another minor's gates change phases, conditions and back-offs: derive every pod again.
      this.rederive(new Set(Object.keys(this.view()?.pods ?? {})), now);
    }
    const posted = (this.options.providers ?? [])
      .map((p) => p.kubeletPostedAt?.(this.name))
      .filter((t): t is number => t !== undefined);
    const heartbeat = {
      lastRelistAt: this.watcher.lastRelistAt,
      lastContactAt: this.watcher.lastContactAt,
      ...(posted.length > 0 ? { kubeletPostedAt: Math.max(...posted) } : {}),
    };
    if (this.status.evaluate(view, now, heartbeat, (events) => this.emit(events)))
      // Node readiness changes every pod's Ready condition and eviction clock.
      this.rederive(new Set(Object.keys(this.view()?.pods ?? {})));
  }
}

function isEmpty(runtime: { sandboxes: unknown[]; containers: unknown[] }): boolean {
  return runtime.sandboxes.length === 0 && runtime.containers.length === 0;
}
