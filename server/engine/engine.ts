/**
 * The engine: one NodeWatcher per node feeding one recorder.
 *
 * Every change goes the same way: watcher outcome → CRI events → lib/kubelet rules → derived
 * events → seq → reduce into the state → store → bus. The engine's state is never edited in any
 * other way, so `reduce(recorded events)` equals what the engine holds (replay == live).
 *
 * Events reach subscribers only after the store has committed them, so a browser is never told
 * anything a SIGKILL could take back. If the store fails (disk full), events wait in memory and
 * are retried on the next write; the live view keeps moving and the failure is reported.
 */
import {
  DEFAULT_NODE_TIMINGS,
  emptyBackoff,
  generateNodeConditions,
  recordRestart,
  type BackoffState,
  type FeatureGates,
  type NodeConditionsResult,
  type NodeReadiness,
  type NodeTimings,
} from '@/lib/kubelet';
import type {
  NodeResources,
  RuntimeCondition,
  RuntimeInfo,
  RuntimePodStatus,
} from '@/lib/kubelet/runtime';
import type { CriEvent, TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduce, reduceAll } from '@/lib/timeline/reducer';
import {
  emptyState,
  own,
  type ClusterState,
  type NodeView,
  type PodView,
} from '@/lib/timeline/state';
import type { EngineApi, Health, NodeSummary, RangeQuery } from './api';
import { EventBus, type Subscription } from './bus';
import { ClockOffset, describeOffset, shiftPodTimes } from './clock-offset';
import type { Transition } from './diff';
import type { HintProvider } from './hints';
import { createEngineMetrics, type EngineMetrics } from './metrics';
import { nodeEvents } from './node-events';
import { NodeWatcher, type Clock, type RelistOutcome, type WatcherSink } from './node-watcher';
import { derivePodView } from './pod-view';
import { podEvents } from './pod-events';
import { SHRINK_STEPS, shrinkEvent } from './shrink';
import type { RuntimeClient, RuntimeStatusReport } from './runtime-client';

/** The store as the engine uses it (server/store implements it). */
export interface EngineStore {
  append(events: readonly UnsequencedEvent[]): TimelineEvent[];
  /** The highest seq ever assigned (kept even when retention removed the rows). */
  latestSeq(): number;
  oldestSeq(): number;
  eventsAfter(seq: number, limit: number): TimelineEvent[];
  range(q: RangeQuery): TimelineEvent[];
  stateAt(t: number): ClusterState;
  stateAtSeq(seq: number): ClusterState;
}

import type { EngineTimings } from './timings';
export type { EngineTimings } from './timings';

export interface EngineOptions {
  store: EngineStore;
  timings: EngineTimings;
  clock?: Clock;
  providers?: HintProvider[];
  gates?: FeatureGates;
  /** Builds a runtime client for an endpoint (server/cri in production, fakes in tests). */
  dial: (endpoint: string) => RuntimeClient;
  /** Extra endpoints browsers may connect to. */
  allowEndpoints?: readonly string[];
  /** The kubelet's container back-off for each node (default 10 s doubling to 300 s). */
  backoff?: () => BackoffState;
  /** Initial state when restarting on an existing timeline (the store's latest state). */
  initialState?: ClusterState;
  log?: (line: string) => void;
}

interface NodeRuntime {
  watcher: NodeWatcher;
  endpoint: string;
  lab: boolean;
  backoff: BackoffState;
  runtimeConditions?: RuntimeCondition[];
  statusError?: string;
  resources?: NodeResources;
  /** Last Status that found RuntimeReady true (the kubelet's lastBaseRuntimeSync). */
  lastStatusAt?: number;
  pressureObservedAt: NodeConditionsResult['pressureObservedAt'];
  ready: NodeReadiness;
  /** The node's clock against the server's (runtime times are compared with "now" through it). */
  clockOffset: ClockOffset;
  /** When the previous successful relist finished (server time). */
  lastRelistedAt?: number;
  /**
   * Pods that changed in the previous relist: derived once more, as the kubelet syncs a pod again
   * after a change (its first status after an exit shows Terminated; the back-off shows next).
   */
  followUp: Set<string>;
}

const HOUSEKEEPING_MS = 1_000;

export class Engine implements EngineApi {
  readonly instruments: EngineMetrics = createEngineMetrics();
  private readonly bus = new EventBus();
  private readonly clock: Clock;
  private readonly nodesByName = new Map<string, NodeRuntime>();
  private readonly providers: HintProvider[];
  private readonly timings: NodeTimings;
  private readonly unsubscribers: (() => void)[] = [];
  /** Everything derived so far (including events the store has not yet taken). */
  private working: ClusterState;
  /** Only what the store committed: what subscribers and snapshots see. */
  private committed: ClusterState;
  private pending: TimelineEvent[] = [];
  private nextSeq: number;
  private housekeeping: ReturnType<typeof setInterval> | undefined;
  private storeError: string | undefined;
  /** Node → pod uid → the passed deadlines (restart|eviction) already re-derived (duePods). */
  private readonly dueHandled = new Map<string, Map<string, string>>();
  /** The kind of the current store failure (its code), so a full disk is logged once, not per write. */
  private storeErrorKind: string | undefined;
  /** When shrinking an event too large for the store was last logged (once an hour at most). */
  private shrinkLoggedAt: number | undefined;
  readonly startedAt: number;

  constructor(private readonly options: EngineOptions) {
    this.clock = options.clock ?? { now: () => Date.now() };
    this.providers = options.providers ?? [];
    this.timings = {
      ...DEFAULT_NODE_TIMINGS,
      nodeMonitorGracePeriodMs: options.timings.nodeMonitorGraceMs,
      plegRelistThresholdMs: options.timings.plegThresholdMs,
      tolerationSeconds: options.timings.tolerationSeconds,
    };
    this.working = this.committed = options.initialState ?? emptyState();
    this.nextSeq = Math.max(options.store.latestSeq(), this.committed.seq) + 1;
    this.startedAt = this.clock.now();
    for (const p of this.providers) {
      const off = p.onChange?.((uids) => this.rederive(new Set(uids)));
      if (off) this.unsubscribers.push(off);
    }
    this.instruments.registry.onCollect(() => this.collectGauges());
  }

  start(): void {
    this.housekeeping ??= setInterval(() => this.tick(), HOUSEKEEPING_MS);
  }

  async stop(): Promise<void> {
    if (this.housekeeping) clearInterval(this.housekeeping);
    this.housekeeping = undefined;
    for (const off of this.unsubscribers) off();
    for (const n of this.nodesByName.values()) n.watcher.stop();
    this.nodesByName.clear();
    this.flush();
    await Promise.resolve();
  }

  // ── EngineApi ──────────────────────────────────────────────────────────────

  snapshot(): ClusterState {
    return this.committed;
  }

  subscribe(signal?: AbortSignal): Subscription {
    return this.bus.subscribe(signal);
  }

  eventsAfter(afterSeq: number, limit: number): TimelineEvent[] {
    return this.options.store.eventsAfter(afterSeq, limit);
  }

  oldestSeq(): number {
    return this.options.store.oldestSeq();
  }

  range(q: RangeQuery): TimelineEvent[] {
    return this.options.store.range(q);
  }

  stateAt(t: number): ClusterState {
    return t >= this.committed.t ? this.committed : this.options.store.stateAt(t);
  }

  nodes(): NodeSummary[] {
    return [...this.nodesByName.entries()].map(([name, n]) => ({
      name,
      endpoint: n.endpoint,
      lab: n.lab,
      connected: n.watcher.connected,
      mode: n.watcher.mode,
      ...(n.watcher.lastRelistAt !== undefined ? { lastRelistAt: n.watcher.lastRelistAt } : {}),
      ...(n.watcher.lastError !== undefined ? { lastError: n.watcher.lastError } : {}),
      skippedTicks: n.watcher.skipped,
      relists: n.watcher.relists,
    }));
  }

  endpointAllowed(endpoint: string): boolean {
    return (
      (this.options.allowEndpoints ?? []).includes(endpoint) ||
      [...this.nodesByName.values()].some((n) => n.endpoint === endpoint)
    );
  }

  async connect(node: { name: string; endpoint: string; lab?: boolean }): Promise<NodeSummary> {
    this.addNode(node.name, node.endpoint, node.lab ?? false);
    await Promise.resolve();
    const summary = this.nodes().find((n) => n.name === node.name);
    if (!summary) throw new Error(`node ${node.name} vanished while connecting`);
    return summary;
  }

  async disconnect(name: string): Promise<void> {
    const n = this.nodesByName.get(name);
    if (!n) return;
    n.watcher.stop();
    this.nodesByName.delete(name);
    this.dueHandled.delete(name);
    this.record([{ kind: 'node', type: 'NodeRemoved', node: name, t: this.clock.now() }]);
    await Promise.resolve();
  }

  health(): Health {
    const now = this.clock.now();
    const nodes: Record<string, number | null> = {};
    let ok = this.storeError === undefined;
    for (const [name, n] of this.nodesByName) {
      const last = n.watcher.lastRelistAt;
      nodes[name] = last === undefined ? null : now - last;
    }
    // The server is healthy while it serves; stale nodes are reported, not fatal (they are the news).
    if (
      this.nodesByName.size > 0 &&
      Object.values(nodes).every((v) => v === null) &&
      now - this.startedAt > this.timings.plegRelistThresholdMs
    )
      ok = false;
    return {
      ok,
      nodes,
      seq: this.committed.seq,
      subscribers: this.bus.size,
      startedAt: this.startedAt,
      ...(this.storeError ? { storeError: this.storeError, heldEvents: this.pending.length } : {}),
    };
  }

  metrics(): string {
    return this.instruments.registry.render();
  }

  // ── nodes ──────────────────────────────────────────────────────────────────

  /** Adds a node and starts watching it. Returns the watcher (tests drive relist() directly). */
  addNode(name: string, endpoint: string, lab = false, autostart = true): NodeWatcher {
    if (this.nodesByName.has(name)) throw new Error(`node ${name} is already watched`);
    const watcher = new NodeWatcher(
      name,
      this.options.dial(endpoint),
      this.sink,
      this.clock,
      this.options.timings,
      lab,
    );
    this.nodesByName.set(name, {
      watcher,
      endpoint,
      lab,
      backoff: this.options.backoff?.() ?? emptyBackoff(),
      pressureObservedAt: {},
      followUp: new Set(),
      ready: { status: 'True', since: this.clock.now() },
      clockOffset: new ClockOffset({ toleranceMs: 2 * this.options.timings.relistMs + 2_000 }),
    });
    const existing = own(this.working.nodes, name);
    this.record([
      {
        kind: 'node',
        type: existing ? 'NodeUpdated' : 'NodeAdded',
        node: name,
        t: this.clock.now(),
        endpoint,
        health: {
          connected: false,
          ...(existing?.health.lastRelistAt ? { lastRelistAt: existing.health.lastRelistAt } : {}),
        },
      },
    ]);
    if (autostart) watcher.start();
    return watcher;
  }

  private readonly sink: WatcherSink = {
    relisted: (o) => this.onRelisted(o),
    relistFailed: (node, at, error, first) => this.onRelistFailed(node, at, error, first),
    statusRead: (node, at, status, error) => this.onStatus(node, at, status, error),
    connected: (node, info) => this.onConnected(node, info),
    modeChanged: (node, mode, reason) => {
      if (mode === 'polling')
        this.instruments.eventStreamFallbacks.inc({ node, reason: reason.split(':')[0] ?? reason });
      this.log(
        `${node}: ${mode === 'events' ? 'using GetContainerEvents' : 'polling'} (${reason})`,
      );
    },
    skippedTick: (node) => this.instruments.skippedTicks.inc({ node }),
    inspectFailed: (node, id, error) => {
      this.instruments.inspectErrors.inc({ node });
      // NOT_FOUND: it was removed between the list and the inspection, an everyday race on a busy
      // node (the next relist records it gone). Anything else is worth a line.
      if ((error as { notFound?: unknown }).notFound === true) return;
      this.log(`${node}: inspecting ${id} failed, keeping the old record: ${error.message}`);
    },
  };

  private onConnected(node: string, info: RuntimeInfo): void {
    this.record([{ kind: 'node', type: 'NodeUpdated', node, t: this.clock.now(), runtime: info }]);
  }

  private onStatus(
    node: string,
    at: number,
    status: RuntimeStatusReport | undefined,
    error?: Error,
  ): void {
    const n = this.nodesByName.get(node);
    if (!n) return;
    if (status) {
      const changed = JSON.stringify(n.runtimeConditions) !== JSON.stringify(status.conditions);
      n.runtimeConditions = status.conditions;
      n.statusError = undefined;
      n.resources = status.node ?? n.resources;
      if (status.conditions.some((c) => c.type === 'RuntimeReady' && c.status)) n.lastStatusAt = at;
      if (changed) {
        const events: UnsequencedEvent[] = [
          {
            kind: 'cri',
            type: 'RuntimeConditionChanged',
            source: 'relist',
            node,
            t: at,
            detail: conditionDetail(status.conditions),
          },
          { kind: 'node', type: 'NodeUpdated', node, t: at, runtimeConditions: status.conditions },
        ];
        this.record(events);
      }
    } else {
      n.statusError = error?.message ?? 'Status failed';
    }
    this.evaluateNode(node, at);
  }

  private onRelistFailed(node: string, at: number, error: Error, first: boolean): void {
    this.instruments.relistErrors.inc({ node });
    const events: UnsequencedEvent[] = [];
    const view = own(this.working.nodes, node);
    if (first) {
      events.push({
        kind: 'cri',
        type: 'RelistFailed',
        source: 'relist',
        node,
        t: at,
        detail: { error: error.message.slice(0, 500) },
      });
      this.log(`${node}: relist failed: ${error.message}`);
    }
    if (view && (view.health.connected || first)) {
      events.push({
        kind: 'node',
        type: 'NodeUpdated',
        node,
        t: at,
        health: {
          ...view.health,
          connected: false,
          lastError: error.message.slice(0, 500),
          lastErrorAt: at,
        },
      });
    }
    this.record(events);
    this.evaluateNode(node, at);
  }

  private onRelisted(o: RelistOutcome): void {
    const n = this.nodesByName.get(o.node);
    if (!n) return;
    this.instruments.relistDuration.observe({ node: o.node }, (o.finishedAt - o.startedAt) / 1000);
    const t = o.finishedAt;
    const view = own(this.working.nodes, o.node);
    const clockMoved = this.observeClock(n, o);

    // 1. What changed on the wire, sequenced first so derived events can name their cause.
    const cri: CriEvent[] = [];
    if (view && !view.health.connected && view.health.lastError) {
      cri.push(
        this.sequence({ kind: 'cri', type: 'RelistRecovered', source: 'relist', node: o.node, t }),
      );
    }
    const podCause = new Map<string, number>();
    const containerCause = new Map<string, Map<string, number>>();
    for (const tr of o.transitions) {
      const e = this.sequence(criEvent(o, tr, t));
      cri.push(e);
      if (!podCause.has(tr.podUid)) podCause.set(tr.podUid, e.seq);
      if (tr.container) {
        let m = containerCause.get(tr.podUid);
        if (!m) containerCause.set(tr.podUid, (m = new Map<string, number>()));
        if (!m.has(tr.container)) m.set(tr.container, e.seq);
      }
      // The kubelet's back-off: a new attempt after an exit advances the container's back-off.
      if (tr.type === 'ContainerCreated' && tr.container) this.noteRestart(n, o, tr);
    }

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
    const due = this.duePods(o.node, t);
    const again = n.followUp;
    n.followUp = new Set(o.touched);
    for (const uid of new Set([...o.touched, ...due, ...again])) {
      const runtime = o.pods.get(uid);
      const previous = own(own(this.working.nodes, o.node)?.pods ?? {}, uid);
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
        ...this.derivePod(
          n,
          o.node,
          runtime,
          previous,
          t,
          podCause.get(uid),
          containerCause.get(uid),
        ),
      );
    }
    this.commit([...cri, ...derived.map((e) => this.sequence(e))]);
    // Pods derived with the old clock offset compared times wrongly: derive them all again.
    if (clockMoved)
      this.rederive(new Set(Object.keys(own(this.working.nodes, o.node)?.pods ?? {})), o.node);
    this.evaluateNode(o.node, t);
  }

  /**
   * Feeds the node's clock offset with the runtime times of transitions that a relist keeping up
   * with the node found (clock-offset.ts); true when the applied offset changed.
   */
  private observeClock(n: NodeRuntime, o: RelistOutcome): boolean {
    const keptUp =
      o.source === 'events' ||
      (n.lastRelistedAt !== undefined &&
        o.startedAt - n.lastRelistedAt <= 2 * this.options.timings.relistMs + 1_000);
    n.lastRelistedAt = o.finishedAt;
    if (!keptUp || o.transitions.length === 0) return false;
    const times = o.transitions.flatMap((tr) =>
      tr.runtimeTime !== undefined ? [tr.runtimeTime] : [],
    );
    if (!n.clockOffset.observe(o.finishedAt, times)) return false;
    const ms = n.clockOffset.ms;
    this.instruments.clockOffset.set({ node: o.node }, -ms / 1000);
    this.log(
      ms === 0
        ? `${o.node}: the runtime's clock agrees with the server's again; runtime times are used as they are`
        : `${o.node}: the runtime's clock is ${describeOffset(ms)} the server's; derived times are corrected by ${ms > 0 ? '+' : ''}${Math.round(ms / 1000)} s`,
    );
    return true;
  }

  private derivePod(
    n: NodeRuntime,
    node: string,
    runtime: RuntimePodStatus,
    previous: PodView | undefined,
    t: number,
    podCause?: number,
    containerCause?: ReadonlyMap<string, number>,
  ): UnsequencedEvent[] {
    const next = derivePodView({
      node,
      runtime: shiftPodTimes(runtime, n.clockOffset.ms, t),
      previous,
      providers: this.providers,
      backoff: n.backoff,
      now: t,
      nodeReady: n.ready,
      ...(this.options.gates ? { gates: this.options.gates } : {}),
      timings: this.timings,
    });
    return podEvents(previous, next, {
      t,
      node,
      ...(podCause !== undefined ? { podCause } : {}),
      ...(containerCause ? { containerCause } : {}),
    });
  }

  private noteRestart(n: NodeRuntime, o: RelistOutcome, tr: Transition): void {
    let previousExit: number | undefined;
    for (const c of o.previousContainers.values()) {
      if (c.name !== tr.container || c.id === tr.id) continue;
      if ((c.labels['io.kubernetes.pod.uid'] ?? '') !== tr.podUid && c.sandboxId === '') continue;
      if (c.state === 'exited' && c.finishedAt !== undefined)
        previousExit = Math.max(previousExit ?? 0, c.finishedAt);
    }
    if (previousExit === undefined) return;
    n.backoff = recordRestart(
      n.backoff,
      { podUid: tr.podUid, container: tr.container ?? '' },
      previousExit + n.clockOffset.ms,
      o.finishedAt,
    );
  }

  /**
   * Pods whose derived state depends on time: a back-off that ends, an eviction that falls due.
   * Each deadline is handed out once: a pod whose back-off ended but whose container has not
   * restarted yet keeps that past deadline, and re-deriving it every relist would change nothing
   * (on a node whose kubelet is gone, every crash-looping pod would be re-derived every second).
   */
  private duePods(node: string, now: number): string[] {
    const view = own(this.working.nodes, node);
    if (!view) return [];
    let handled = this.dueHandled.get(node);
    const out: string[] = [];
    for (const p of Object.values(view.pods)) {
      const restart = p.nextRestartAt ? Math.min(...Object.values(p.nextRestartAt)) : Infinity;
      const evict = p.evictionDueAt ?? Infinity;
      if (restart > now && evict > now) {
        handled?.delete(p.uid);
        continue;
      }
      const key = `${restart <= now ? restart : ''}|${evict <= now ? evict : ''}`;
      if (handled?.get(p.uid) === key) continue;
      if (!handled) this.dueHandled.set(node, (handled = new Map<string, string>()));
      handled.set(p.uid, key);
      out.push(p.uid);
    }
    if (handled && handled.size > 0)
      for (const uid of handled.keys()) if (!own(view.pods, uid)) handled.delete(uid);
    return out;
  }

  /** Node conditions from the runtime's Status, the relist heartbeat and the grace periods. */
  private evaluateNode(node: string, now: number): void {
    const n = this.nodesByName.get(node);
    const view = own(this.working.nodes, node);
    if (!n || !view) return;
    const result = generateNodeConditions({
      now,
      ...(n.runtimeConditions ? { runtimeConditions: n.runtimeConditions } : {}),
      ...(n.statusError ? { runtimeStatusError: n.statusError } : {}),
      ...(n.watcher.lastRelistAt !== undefined ? { lastRelistAt: n.watcher.lastRelistAt } : {}),
      ...(n.watcher.lastContactAt !== undefined ? { lastContactAt: n.watcher.lastContactAt } : {}),
      ...(n.resources ? { resources: n.resources } : {}),
      ...(n.lastStatusAt !== undefined ? { lastStatusAt: n.lastStatusAt } : {}),
      oldConditions: view.conditions,
      startedAt: this.startedAt,
      timings: this.timings,
      pressureObservedAt: n.pressureObservedAt,
    });
    n.pressureObservedAt = result.pressureObservedAt;
    const events = nodeEvents(view, result.conditions, result.why, { t: now, node });
    if (events.length === 0) return;
    this.record(events);
    if (result.ready.status !== n.ready.status) {
      n.ready = result.ready;
      // Node readiness changes every pod's Ready condition and eviction clock.
      this.rederive(new Set(Object.keys(own(this.working.nodes, node)?.pods ?? {})), node);
    }
  }

  /** Re-derives pods from the records the watchers hold (hint changes, node readiness). */
  private rederive(uids: Set<string>, onlyNode?: string): void {
    const now = this.clock.now();
    for (const [name, n] of this.nodesByName) {
      if (onlyNode && name !== onlyNode) continue;
      const view = own(this.working.nodes, name);
      if (!view) continue;
      const records = n.watcher.records();
      const events: UnsequencedEvent[] = [];
      for (const uid of uids) {
        const previous = own(view.pods, uid);
        if (!previous) continue;
        const runtime: RuntimePodStatus = {
          uid,
          name: previous.name,
          namespace: previous.namespace,
          sandboxes: records.sandboxes
            .filter((s) => s.uid === uid)
            .sort((a, b) => b.createdAt - a.createdAt),
          containers: records.containers.filter((c) => {
            const owner =
              c.labels['io.kubernetes.pod.uid'] ??
              records.sandboxes.find((s) => s.id === c.sandboxId)?.uid;
            return owner === uid;
          }),
        };
        events.push(...this.derivePod(n, name, runtime, previous, now));
      }
      this.record(events);
    }
  }

  /** Time-driven work for nodes whose relists are not arriving (grace periods, back-off ends). Public for tests. */
  tick(): void {
    const now = this.clock.now();
    for (const [name, n] of this.nodesByName) {
      this.evaluateNode(name, now);
      if (n.watcher.connected) continue; // its relists re-derive what falls due
      const due = this.duePods(name, now);
      if (due.length > 0) this.rederive(new Set(due), name);
    }
    this.flush();
  }

  // ── recording ─────────────────────────────────────────────────────────────

  private sequence<E extends UnsequencedEvent>(e: E): E & { seq: number } {
    return { ...e, seq: this.nextSeq++ };
  }

  /** Sequences, reduces and commits a batch of events that need no cause links. */
  record(events: UnsequencedEvent[]): void {
    if (events.length === 0) return;
    this.commit(events.map((e) => this.sequence(e)));
  }

  private commit(events: TimelineEvent[]): void {
    if (events.length === 0) return;
    for (const e of events) {
      this.working = reduce(this.working, e);
      this.instruments.eventsEmitted.inc({ kind: e.kind });
    }
    this.pending.push(...events);
    this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    let batch = this.pending;
    let stored: TimelineEvent[];
    try {
      stored = this.options.store.append(stripSeq(batch));
    } catch (err) {
      const shrunk =
        (err as { code?: unknown } | null)?.code === 'TOO_LARGE' ? this.appendShrunk() : undefined;
      if (shrunk) ({ batch, stored } = shrunk);
      else return this.holdPending(err);
    }
    if (this.storeError) this.log(`store: writing again; ${batch.length} held event(s) recorded`);
    this.storeError = undefined;
    this.storeErrorKind = undefined;
    this.pending = [];
    if (stored.length !== batch.length || stored[0]?.seq !== batch[0]?.seq) {
      // The store is the authority on seq; it must agree with the engine's numbering.
      throw new Error(
        `store assigned seqs ${stored[0]?.seq}… to a batch the engine numbered ${batch[0]?.seq}…`,
      );
    }
    // working = reduce(committed, pending) always holds (commit() folds every event into working
    // and queues it; only this line moves committed), and the whole of pending was just stored:
    // folding the batch into committed again would rebuild exactly `working`.
    this.committed = this.working;
    this.bus.publish(batch);
  }

  /** The store cannot write (disk full …): keep the events in memory, say so once per kind of failure. */
  private holdPending(err: unknown): void {
    const batch = this.pending;
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown } | null)?.code;
    const kind = typeof code === 'string' ? code : message;
    if (this.storeErrorKind !== kind)
      this.log(`store: ${message}; ${batch.length} event(s) held in memory and retried`);
    this.storeError = message;
    this.storeErrorKind = kind;
  }

  /**
   * A batch the store refused as too large (an enormous string from a runtime): its events shrunk
   * a step at a time (shrink.ts) until the store takes them; the working state is rebuilt from
   * the shrunk events so that replay still equals live. undefined when no step is enough.
   */
  private appendShrunk(): { batch: TimelineEvent[]; stored: TimelineEvent[] } | undefined {
    for (const limits of SHRINK_STEPS) {
      const batch = this.pending.map((e) => shrinkEvent(e, limits));
      let stored: TimelineEvent[];
      try {
        stored = this.options.store.append(stripSeq(batch));
      } catch (err) {
        if ((err as { code?: unknown } | null)?.code === 'TOO_LARGE') continue;
        return undefined;
      }
      this.pending = batch;
      this.working = reduceAll(this.committed, batch);
      const now = this.clock.now();
      if (this.shrinkLoggedAt === undefined || now - this.shrinkLoggedAt >= 3_600_000) {
        this.shrinkLoggedAt = now;
        this.log(
          `store: events too large for the timeline were recorded with strings cut to ${limits.maxChars} characters and lists to ${limits.maxItems} items`,
        );
      }
      return { batch, stored };
    }
    return undefined;
  }

  private collectGauges(): void {
    this.instruments.subscribers.set({}, this.bus.size);
    this.instruments.eventsDropped.setTotal({}, this.bus.dropped);
    this.instruments.pods.reset();
    this.instruments.nodes.reset();
    for (const node of Object.values(this.committed.nodes)) {
      const counts: Record<string, number> = { Pending: 0, Running: 0, Succeeded: 0, Failed: 0 };
      for (const p of Object.values(node.pods))
        counts[p.status.phase ?? 'Pending'] = (counts[p.status.phase ?? 'Pending'] ?? 0) + 1;
      for (const [phase, count] of Object.entries(counts))
        this.instruments.pods.set({ node: node.name, phase }, count);
      const ready = node.conditions.find((c) => c.type === 'Ready')?.status;
      this.instruments.nodes.set(
        { node: node.name },
        ready === 'True' ? 1 : ready === 'False' ? 0 : -1,
      );
    }
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => console.error(`[podscope] ${l}`)))(line);
  }

  /** The node view as recorded (for tests). */
  nodeView(name: string): NodeView | undefined {
    return own(this.working.nodes, name);
  }
}

function stripSeq(events: TimelineEvent[]): UnsequencedEvent[] {
  return events.map(({ seq: _seq, ...rest }) => rest);
}

const causeOf = (seq: number | undefined) => (seq === undefined ? {} : { cause: seq });

function criEvent(o: RelistOutcome, tr: Transition, t: number): Omit<CriEvent, 'seq'> {
  return {
    kind: 'cri',
    type: tr.type,
    source: o.source,
    node: o.node,
    t,
    podUid: tr.podUid,
    id: tr.id,
    ...(tr.container ? { container: tr.container } : {}),
    ...(tr.runtimeTime !== undefined ? { runtimeTime: tr.runtimeTime } : {}),
    detail: tr.detail,
  };
}

function conditionDetail(conditions: RuntimeCondition[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const c of conditions) {
    out[c.type] = c.status;
    if (!c.status && c.reason) out[`${c.type}.reason`] = c.reason;
  }
  return out;
}
