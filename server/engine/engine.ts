/**
 * The engine: the server's façade over one NodeEngine per node (node-engine.ts) and one
 * Recorder (recorder.ts). It is what the transports read (EngineApi) and nothing more.
 *
 * Every change goes the same way: watcher outcome → CRI events → lib/kubelet rules → derived
 * events (node engine) → seq → reduce into the state → store → bus (recorder). The state is never
 * edited in any other way, so `reduce(recorded events)` equals what the engine holds
 * (replay == live).
 *
 * Module boundaries:
 * - node-engine.ts: per-node kubelet state and derivation; no store, no bus (a cluster-mode agent
 *   runs it alone);
 * - recorder.ts: sequence, commit, flush, hold on store failure, shrink oversized events;
 * - this file: the node table, hint providers' re-derivations, the housekeeping tick, health and
 *   the gauges read at each scrape.
 */
import {
  crashLoopBackOffPeriods,
  KUBELET_DEFAULTS,
  type BackoffState,
  type FeatureGates,
} from '@/lib/kubelet';
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { sameEndpoint } from '@/server/cri/endpoint';
import { own, type ClusterState, type NodeView } from '@/lib/timeline/state';
import type { EngineApi, Health, NodeSummary, RangeQuery } from './api';
import { EventBus, type Subscription } from './bus';
import type { HintProvider } from './hints';
import { logFn, rootLogger, type LogFn, type LogLevel } from '@/server/log';
import { exposition, processRegistry } from '@/server/metrics/registry';
import { createEngineMetrics, type EngineMetrics } from './metrics';
import { detectHostIPs } from './host-ips';
import { createNodeEngine, NodeEngine } from './node-engine';
import type { Clock, NodeWatcher } from './node-watcher';
import { Recorder, type EngineStore } from './recorder';
import type { RuntimeClient } from './runtime-client';
import type { EngineTimings } from './timings';
import { availableParallelism } from 'node:os';
import { RelistPool, type RemoteNode } from './workers/pool';

export type { EngineStore } from './recorder';
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
  /** The kubelet's container back-off for each node, given its maximum (default containerBackoff). */
  backoff?: (maxContainerRestartPeriodMs: number) => BackoffState;
  /**
   * crashLoopBackOff.maxContainerRestartPeriod (ms): for every node, and per node (default 300 s).
   * Values outside 1 s–300 s make adding that node fail, as the kubelet refuses them.
   */
  maxContainerRestartPeriodMs?: { all?: number; byNode?: Readonly<Record<string, number>> };
  /** Configured node IPs (PODSCOPE_NODE_IP): for every node, and per node. */
  nodeIPs?: { all: string[]; byNode: Record<string, string[]> };
  /** This machine's IPs, the host IPs of last resort (default: detected from its interfaces). */
  detectedIPs?: string[];
  /** Initial state when restarting on an existing timeline (the store's latest state). */
  initialState?: ClusterState;
  /**
   * Relist loops in worker threads (workers/pool.ts) for nodes added with `watch()`: a number of
   * workers (0: none), or 'auto' — max(1, cores − 1) workers once `fromNodes` nodes are watched
   * (nodes added before stay in-thread). Nodes need the default clock and back-off and no hint
   * providers to go to a worker; others stay in-thread.
   */
  relistWorkers?: { count: number | 'auto'; fromNodes?: number; criTimeoutMs?: number };
  log?: LogFn;
}

/** 'auto' relist workers start when this many nodes are watched. */
export const AUTO_RELIST_WORKERS_FROM_NODES = 32;

interface WatchedNode {
  /** The node's loop: in this thread, or in a relist worker. */
  loop: NodeEngine | RemoteNode;
  endpoint: string;
  lab: boolean;
}

/** The node's engine when it runs in this thread. */
const local = (n: WatchedNode): NodeEngine | undefined =>
  n.loop instanceof NodeEngine ? n.loop : undefined;

const HOUSEKEEPING_MS = 1_000;

export class Engine implements EngineApi {
  readonly instruments: EngineMetrics = createEngineMetrics();
  private readonly bus = new EventBus();
  private readonly clock: Clock;
  private readonly nodesByName = new Map<string, WatchedNode>();
  /** Every endpoint ever watched (configured or connected), and whether it was a lab. */
  private readonly known = new Map<string, boolean>();
  private readonly recorder: Recorder;
  private readonly unsubscribers: (() => void)[] = [];
  private housekeeping: ReturnType<typeof setInterval> | undefined;
  private pool: RelistPool | undefined;
  readonly startedAt: number;

  constructor(private readonly options: EngineOptions) {
    this.clock = options.clock ?? { now: () => Date.now() };
    this.recorder = new Recorder({
      store: options.store,
      clock: this.clock,
      publish: (batch) => this.bus.publish(batch),
      ...(options.initialState ? { initialState: options.initialState } : {}),
      counted: (e) => this.instruments.eventsEmitted.inc({ kind: e.kind }),
      rebuilt: (working) => {
        for (const [name, n] of this.nodesByName) {
          const view = own(working.nodes, name);
          const engine = local(n);
          if (engine) engine.adopt(view);
          else this.pool?.adopt(name, view);
        }
      },
      log: (line, level) => this.log(line, level),
    });
    this.startedAt = this.clock.now();
    // Pod uid → seq of a provider event recorded in this turn: the cause of the hint change
    // that follows it (the driver tells "readiness probe failed 3 times", then its hints change).
    const causes = new Map<string, number>();
    for (const p of options.providers ?? []) {
      const offEvents = p.onKubeletEvents?.((events) => {
        const batch = this.recorder.record(events);
        if (batch.length === 0) return;
        for (const n of this.nodesByName.values()) local(n)?.observe(batch);
        this.pool?.observe(batch);
        if (causes.size === 0) queueMicrotask(() => causes.clear());
        for (const e of batch) if (e.kind === 'k8s' && e.podUid) causes.set(e.podUid, e.seq);
      });
      if (offEvents) this.unsubscribers.push(offEvents);
      const off = p.onChange?.((uids) => {
        const set = new Set(uids);
        const caused = new Map(
          uids.flatMap((u) => {
            const seq = causes.get(u);
            return seq === undefined ? [] : [[u, seq] as const];
          }),
        );
        for (const n of this.nodesByName.values())
          local(n)?.rederive(set, undefined, caused.size > 0 ? caused : undefined);
      });
      if (off) this.unsubscribers.push(off);
    }
  }

  start(): void {
    this.housekeeping ??= setInterval(() => this.tick(), HOUSEKEEPING_MS);
  }

  async stop(): Promise<void> {
    if (this.housekeeping) clearInterval(this.housekeeping);
    this.housekeeping = undefined;
    for (const off of this.unsubscribers) off();
    for (const n of this.nodesByName.values()) n.loop.stop();
    this.nodesByName.clear();
    await this.pool?.stop();
    this.pool = undefined;
    this.recorder.flush();
    await Promise.resolve();
  }

  // ── EngineApi ──────────────────────────────────────────────────────────────

  snapshot(): ClusterState {
    return this.recorder.committed;
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
    const committed = this.recorder.committed;
    return t >= committed.t ? committed : this.options.store.stateAt(t);
  }

  nodes(): NodeSummary[] {
    return [...this.nodesByName.entries()].map(([name, n]) => {
      const w = n.loop.watcher;
      return {
        name,
        endpoint: n.endpoint,
        lab: n.lab,
        connected: w.connected,
        mode: w.mode,
        ...(w.lastRelistAt !== undefined ? { lastRelistAt: w.lastRelistAt } : {}),
        ...(w.lastError !== undefined ? { lastError: w.lastError } : {}),
        skippedTicks: w.skipped,
        relists: w.relists,
      };
    });
  }

  /**
   * Configured or allow-listed. Configured endpoints stay allowed after a disconnect, so a node
   * that was disconnected can be connected again (issue 17).
   */
  endpointAllowed(endpoint: string): boolean {
    return (this.options.allowEndpoints ?? []).includes(endpoint) || this.known.has(endpoint);
  }

  /** The node already watching this endpoint's socket, if any. */
  watcherOf(endpoint: string): string | undefined {
    for (const [name, n] of this.nodesByName) if (sameEndpoint(n.endpoint, endpoint)) return name;
    return undefined;
  }

  async connect(node: { name: string; endpoint: string; lab?: boolean }): Promise<NodeSummary> {
    // One node per endpoint: a second name would double the runtime's load and the timeline.
    const holder = this.watcherOf(node.endpoint);
    if (holder !== undefined)
      throw new Error(`endpoint ${node.endpoint} is already watched as ${holder}`);
    // A configured endpoint comes back as configured (lab or not); others are read-only.
    this.watch(node.name, node.endpoint, node.lab ?? this.known.get(node.endpoint) ?? false);
    await Promise.resolve();
    const summary = this.nodes().find((n) => n.name === node.name);
    if (!summary) throw new Error(`node ${node.name} vanished while connecting`);
    return summary;
  }

  async disconnect(name: string): Promise<void> {
    const n = this.nodesByName.get(name);
    if (!n) return;
    n.loop.stop();
    this.nodesByName.delete(name);
    this.record([{ kind: 'node', type: 'NodeRemoved', node: name, t: this.clock.now() }]);
    await Promise.resolve();
  }

  health(): Health {
    const now = this.clock.now();
    const nodes: Record<string, number | null> = {};
    const storeError = this.recorder.storeError;
    let ok = storeError === undefined;
    for (const [name, n] of this.nodesByName) {
      const last = n.loop.watcher.lastRelistAt;
      nodes[name] = last === undefined ? null : now - last;
    }
    // The server is healthy while it serves; stale nodes are reported, not fatal (they are the news).
    if (
      this.nodesByName.size > 0 &&
      Object.values(nodes).every((v) => v === null) &&
      now - this.startedAt > this.options.timings.plegThresholdMs
    )
      ok = false;
    return {
      ok,
      nodes,
      seq: this.recorder.committed.seq,
      subscribers: this.bus.size,
      startedAt: this.startedAt,
      ...(storeError ? { storeError, heldEvents: this.recorder.held } : {}),
    };
  }

  metrics(): Promise<string> {
    this.collectGauges();
    return exposition([processRegistry(), this.instruments.registry]);
  }

  // ── nodes ──────────────────────────────────────────────────────────────────

  /**
   * Starts watching a node: in a relist worker when the engine runs workers and the node can go
   * to one (see `relistWorkers`), else in this thread.
   */
  watch(name: string, endpoint: string, lab = false): void {
    if (this.nodesByName.has(name)) throw new Error(`node ${name} is already watched`);
    const pool = this.poolFor();
    if (!pool) {
      this.addNode(name, endpoint, lab);
      return;
    }
    const initial = own(this.recorder.working.nodes, name);
    const remote = pool.add({
      name,
      endpoint,
      lab,
      startedAt: this.startedAt,
      nodeIPs: this.options.nodeIPs?.byNode[name] ?? this.options.nodeIPs?.all ?? [],
      detectedIPs: this.options.detectedIPs ?? this.detected(),
      maxContainerRestartPeriodMs: this.restartPeriodOf(name),
      ...(initial ? { initial } : {}),
    });
    this.nodesByName.set(name, { loop: remote, endpoint, lab });
  }

  /** The node's crashLoopBackOff.maxContainerRestartPeriod: its own, else every node's, else 300 s. */
  private restartPeriodOf(name: string): number {
    const c = this.options.maxContainerRestartPeriodMs;
    const own =
      c?.byNode && Object.prototype.hasOwnProperty.call(c.byNode, name)
        ? c.byNode[name]
        : undefined;
    const ms = own ?? c?.all ?? KUBELET_DEFAULTS.maxContainerRestartPeriodMs;
    crashLoopBackOffPeriods(ms); // a RangeError now rather than inside the node's loop
    return ms;
  }

  /** The worker pool a new node should go to, started on first use; undefined: in-thread. */
  private poolFor(): RelistPool | undefined {
    const w = this.options.relistWorkers;
    if (!w) return undefined;
    if (this.options.clock || this.options.backoff || (this.options.providers?.length ?? 0) > 0)
      return undefined;
    const count =
      w.count === 'auto'
        ? this.nodesByName.size + 1 >= (w.fromNodes ?? AUTO_RELIST_WORKERS_FROM_NODES)
          ? Math.max(1, availableParallelism() - 1)
          : 0
        : w.count;
    if (count <= 0) return undefined;
    this.pool ??= new RelistPool({
      size: count,
      timings: this.options.timings,
      ...(this.options.gates ? { gates: this.options.gates } : {}),
      ...(w.criTimeoutMs !== undefined ? { criTimeoutMs: w.criTimeoutMs } : {}),
      nextSeq: this.recorder.nextSeq,
      commit: (events) => this.recorder.commit(events),
      viewOf: (name) => own(this.recorder.working.nodes, name),
      metrics: this.instruments,
      log: (line, level) => this.log(line, level),
    });
    return this.pool;
  }

  /** Adds a node in this thread and starts watching it. Returns the watcher (tests drive relist() directly). */
  addNode(name: string, endpoint: string, lab = false, autostart = true): NodeWatcher {
    if (this.nodesByName.has(name)) throw new Error(`node ${name} is already watched`);
    if (!this.known.has(endpoint)) this.known.set(endpoint, lab);
    const initial = own(this.recorder.working.nodes, name);
    const engine = createNodeEngine({
      name,
      client: this.options.dial(endpoint),
      timings: this.options.timings,
      onEvents: (batch) => this.recorder.commit(batch),
      ...(this.options.providers ? { providers: this.options.providers } : {}),
      ...(this.options.gates ? { gates: this.options.gates } : {}),
      clock: this.clock,
      lab,
      ...(this.options.backoff ? { backoff: this.options.backoff } : {}),
      maxContainerRestartPeriodMs: this.restartPeriodOf(name),
      ...(initial ? { initial } : {}),
      seq: this.recorder.nextSeq,
      startedAt: this.startedAt,
      nodeIPs: this.options.nodeIPs?.byNode[name] ?? this.options.nodeIPs?.all ?? [],
      detectedIPs: this.options.detectedIPs ?? this.detected(),
      metrics: this.instruments,
      log: (line, level) => this.log(line, level),
    });
    this.nodesByName.set(name, { loop: engine, endpoint, lab });
    if (autostart) engine.start();
    return engine.watcher;
  }

  private detectedCache: string[] | undefined;
  private detected(): string[] {
    this.detectedCache ??= detectHostIPs();
    return this.detectedCache;
  }

  /** Time-driven work for nodes whose relists are not arriving (grace periods, back-off ends). Public for tests. */
  tick(): void {
    const now = this.clock.now();
    for (const n of this.nodesByName.values()) local(n)?.tick(now);
    this.recorder.flush();
  }

  /** One ListContainerStats round on every in-thread node (the nodes' stats loops do it by themselves). Public for tests. */
  async sampleUsage(): Promise<void> {
    const rounds: Promise<void>[] = [];
    for (const n of this.nodesByName.values()) {
      const engine = local(n);
      if (engine) rounds.push(engine.sampleUsage());
    }
    await Promise.all(rounds);
    this.recorder.flush();
  }

  /** Numbers and records events from outside the node engines (drift, the driver). */
  record(events: UnsequencedEvent[]): void {
    const batch = this.recorder.record(events);
    if (batch.length === 0) return;
    for (const n of this.nodesByName.values()) local(n)?.observe(batch);
    this.pool?.observe(batch);
  }

  /** The node view as recorded (for tests). */
  nodeView(name: string): NodeView | undefined {
    return own(this.recorder.working.nodes, name);
  }

  private collectGauges(): void {
    this.instruments.subscribers.set(this.bus.size);
    // The bus keeps the total; the counter shows it.
    this.instruments.eventsDropped.reset();
    this.instruments.eventsDropped.inc(this.bus.dropped);
    this.instruments.pods.reset();
    this.instruments.nodes.reset();
    for (const node of Object.values(this.recorder.committed.nodes)) {
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

  private log(line: string, level?: LogLevel): void {
    (this.options.log ?? logFn(rootLogger()))(line, level);
  }
}
