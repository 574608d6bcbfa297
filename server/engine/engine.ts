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
 * - engine-options.ts: EngineOptions, a node's restart period, relist worker counts;
 * - node-table.ts: the watched nodes and every endpoint ever watched;
 * - provider-links.ts: hint providers' events and re-derivations;
 * - metrics.ts: the series, and the gauges set at each scrape;
 * - this file: EngineApi over those, connecting and disconnecting nodes (in this thread or in a
 *   relist worker), the housekeeping tick and health.
 */
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { own, type ClusterState, type NodeView } from '@/lib/timeline/state';
import { logFn, rootLogger, type LogLevel } from '@/server/log';
import { exposition, processRegistry } from '@/server/metrics/registry';
import type { EngineApi, Health, NodeSummary, RangeQuery } from './api';
import { EventBus, type Subscription } from './bus';
import {
  nodeIPsOf,
  relistWorkerCount,
  kubeletVersionOf,
  restartPeriodOf,
  type EngineOptions,
} from './engine-options';
import { detectHostIPs } from './node/host-ips';
import { createEngineMetrics, setGauges, type EngineMetrics } from './metrics';
import { createNodeEngine } from './node/node-engine';
import { local, NodeTable } from './node/node-table';
import type { Clock, NodeWatcher } from './relist/node-watcher';
import { linkProviders } from './provider-links';
import { Recorder } from './recorder';
import { RelistPool } from './workers/pool';

export type { EngineStore } from './recorder';
export type { EngineTimings } from './timings';
export { AUTO_RELIST_WORKERS_FROM_NODES, type EngineOptions } from './engine-options';

const HOUSEKEEPING_MS = 1_000;

export class Engine implements EngineApi {
  readonly instruments: EngineMetrics = createEngineMetrics();
  private readonly bus = new EventBus();
  private readonly clock: Clock;
  private readonly nodesByName = new NodeTable();
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
        for (const [name, n] of this.nodesByName.entries()) {
          const view = own(working.nodes, name);
          const engine = local(n);
          if (engine) engine.adopt(view);
          else this.pool?.adopt(name, view);
        }
      },
      log: (line, level) => this.log(line, level),
    });
    this.startedAt = this.clock.now();
    this.unsubscribers.push(
      ...linkProviders(options.providers ?? [], {
        record: (events) => this.recordAndObserve(events),
        rederive: (uids, caused) => {
          for (const engine of this.nodesByName.locals()) engine.rederive(uids, undefined, caused);
        },
      }),
    );
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
    return this.nodesByName.summaries();
  }

  /**
   * Configured or allow-listed. Configured endpoints stay allowed after a disconnect, so a node
   * that was disconnected can be connected again (issue 17).
   */
  endpointAllowed(endpoint: string): boolean {
    return (
      (this.options.allowEndpoints ?? []).includes(endpoint) ||
      this.nodesByName.knownLab(endpoint) !== undefined
    );
  }

  /** The node already watching this endpoint's socket, if any. */
  watcherOf(endpoint: string): string | undefined {
    return this.nodesByName.watcherOf(endpoint);
  }

  async connect(node: { name: string; endpoint: string; lab?: boolean }): Promise<NodeSummary> {
    // One node per endpoint: a second name would double the runtime's load and the timeline.
    const holder = this.watcherOf(node.endpoint);
    if (holder !== undefined)
      throw new Error(`endpoint ${node.endpoint} is already watched as ${holder}`);
    // A configured endpoint comes back as configured (lab or not); others are read-only.
    this.watch(
      node.name,
      node.endpoint,
      node.lab ?? this.nodesByName.knownLab(node.endpoint) ?? false,
    );
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
    const nodes = this.nodesByName.relistAges(now);
    const storeError = this.recorder.storeError;
    let ok = storeError === undefined;
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
    setGauges(this.instruments, {
      subscribers: this.bus.size,
      dropped: this.bus.dropped,
      committed: this.recorder.committed,
    });
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
      nodeIPs: nodeIPsOf(this.options, name),
      detectedIPs: this.options.detectedIPs ?? this.detected(),
      maxContainerRestartPeriodMs: restartPeriodOf(this.options, name),
      ...kubeletVersionField(this.options, name),
      ...(initial ? { initial } : {}),
    });
    this.nodesByName.set(name, { loop: remote, endpoint, lab });
  }

  /** The worker pool a new node should go to, started on first use; undefined: in-thread. */
  private poolFor(): RelistPool | undefined {
    const w = this.options.relistWorkers;
    const count = relistWorkerCount(this.options, this.nodesByName.size);
    if (!w || count <= 0) return undefined;
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
    // 'auto' grows the pool with the nodes; a new node goes to the least loaded worker.
    this.pool.grow(count);
    return this.pool;
  }

  /** Adds a node in this thread and starts watching it. Returns the watcher (tests drive relist() directly). */
  addNode(name: string, endpoint: string, lab = false, autostart = true): NodeWatcher {
    if (this.nodesByName.has(name)) throw new Error(`node ${name} is already watched`);
    this.nodesByName.remember(endpoint, lab);
    const initial = own(this.recorder.working.nodes, name);
    const engine = createNodeEngine({
      name,
      client: this.options.dial(endpoint),
      timings: this.options.timings,
      onEvents: (batch, folded) => this.recorder.commit(batch, folded),
      ...(this.options.providers ? { providers: this.options.providers } : {}),
      ...(this.options.gates ? { gates: this.options.gates } : {}),
      clock: this.clock,
      lab,
      ...(this.options.backoff ? { backoff: this.options.backoff } : {}),
      maxContainerRestartPeriodMs: restartPeriodOf(this.options, name),
      ...kubeletVersionField(this.options, name),
      ...(initial ? { initial } : {}),
      seq: this.recorder.nextSeq,
      startedAt: this.startedAt,
      nodeIPs: nodeIPsOf(this.options, name),
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
    for (const engine of this.nodesByName.locals()) engine.tick(now);
    this.recorder.flush();
  }

  /** One ListContainerStats round on every in-thread node (the nodes' stats loops do it by themselves). Public for tests. */
  async sampleUsage(): Promise<void> {
    const rounds: Promise<void>[] = [];
    for (const engine of this.nodesByName.locals()) rounds.push(engine.sampleUsage());
    await Promise.all(rounds);
    this.recorder.flush();
  }

  /** Numbers and records events from outside the node engines (drift, the driver). */
  record(events: UnsequencedEvent[]): void {
    this.recordAndObserve(events);
  }

  private recordAndObserve(events: UnsequencedEvent[]): TimelineEvent[] {
    const batch = this.recorder.record(events);
    if (batch.length === 0) return batch;
    for (const engine of this.nodesByName.locals()) engine.observe(batch);
    this.pool?.observe(batch);
    return batch;
  }

  /** The node view as recorded (for tests). */
  nodeView(name: string): NodeView | undefined {
    return own(this.recorder.working.nodes, name);
  }

  private log(line: string, level?: LogLevel): void {
    (this.options.log ?? logFn(rootLogger()))(line, level);
  }
}

/** The node's configured kubelet version, as an options field (none when not configured). */
function kubeletVersionField(options: EngineOptions, name: string): { kubeletVersion?: string } {
  const v = kubeletVersionOf(options, name);
  return v !== undefined ? { kubeletVersion: v } : {};
}
