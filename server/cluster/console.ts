/**
 * A console replica in cluster mode: what the tRPC routers read (EngineApi) when the console runs
 * no nodes of its own and follows the cluster from the bus.
 *
 *   const source = new ClusterSource({ reader, timeline, graceMs });
 *   await source.start();            // KV baselines, then the stream from its first message
 *   ctx.engine = source;             // the routers read it like the embedded engine
 *
 * Seqs here are global ids (global.ts: stream seq × 1024 + index): the same number names the same
 * event on every replica and in the timeline database, so a browser's Last-Event-ID means one
 * point of the cluster's timeline whichever replica it reaches.
 *
 * Where events come from:
 *  - live: the view (view.ts) applies every stream message in stream order and hands its events
 *    to subscribers (an EventBus, bounded per subscriber as in the embedded engine);
 *  - recent: a ring of the events the view applied since it caught up with the stream — complete
 *    for every gid in (floor, position];
 *  - older: the cluster timeline (PostgreSQL, written by the writers), read only up to where the
 *    writers' shared consumer has acknowledged every message (its ack floor): below that point
 *    the database holds everything, above it a writer may still be committing.
 * So a resume after gid G is served from the database up to the ring's floor and from the ring
 * after it, and then from the live bus — no gap, and (the router skips what it already sent) no
 * duplicate.
 *
 * Node contact is judged here from heartbeat age (view.ts has the rule); a change of judgement has
 * no event of its own, so `rejudged()` tells watchers to send a fresh snapshot.
 */
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import { EventBus, type Subscription } from '@/server/engine/bus';
import type { EngineApi, Health, NodeSummary, RangeQuery } from '@/server/engine/api';
import { exposition, Gauge, processRegistry, Registry } from '@/server/metrics/registry';
import type { ReplicaReader } from './bus/reader';
import { GID_SLOTS, gidOf, streamSeqOfGid, type GapRecord } from './global';
import { ClusterCheckpoints, stateAt } from './timeline/checkpoints';
import type { ClusterTimeline } from './timeline/timeline';
import { ClusterView, followBus } from './view';
import type { ClusterWriter } from './writer';

export interface ClusterSourceOptions {
  /** The replica's reader of the bus (the one its writer reads through). */
  reader: ReplicaReader;
  timeline: ClusterTimeline;
  /** The writer this replica runs (its failures are the store error health reports). */
  writer?: ClusterWriter;
  /** PODSCOPE_NODE_MONITOR_GRACE_MS: no heartbeat for this long → Ready=Unknown. */
  graceMs: number;
  /**
   * Events kept in memory for resumes (default 20,000): enough to cover the writers' lag behind
   * the bus; older resumes read the database.
   */
  ringSize?: number;
  /** How often node contact is re-judged (default 500 ms). */
  judgeEveryMs?: number;
  /** Per-subscriber queue bound (default 10,000 events). */
  subscriberCapacity?: number;
  clock?: () => number;
}

/**
 * How long a backfill waits for the writers to commit what this replica has seen: longer than the
 * writers' ack wait (30 s), because a writer killed mid-batch holds the writers' acknowledgement
 * floor back until JetStream redelivers its batch to another writer after that wait. (The bench
 * hit it: replica A killed with a batch fetched, a subscriber on B resuming from before B's ring
 * 15 s later was refused.)
 */
const COMMIT_WAIT_MS = 45_000;

const isEvent = (e: TimelineEvent | GapRecord): e is TimelineEvent => e.kind !== 'gap';
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The last gid a stream message can hold: every event of messages ≤ streamSeq. */
export const positionOf = (streamSeq: number) => gidOf(streamSeq, GID_SLOTS - 1);

export class ClusterSource implements EngineApi {
  readonly mode = 'cluster' as const;
  readonly view: ClusterView;
  private readonly live: EventBus;
  private readonly clock: () => number;
  private readonly startedAt: number;
  private ring: TimelineEvent[] = [];
  /** The ring holds every event with gid in (floor, position] (none until it records). */
  private floor = Infinity;
  /** Stream messages up to this were in the stream when the view read the KV baselines. */
  private catchUpUntil = Infinity;
  private readonly ac = new AbortController();
  private following: Promise<void> | undefined;
  private judge: NodeJS.Timeout | undefined;
  private contact = '';
  private readonly rejudgeWaiters = new Set<() => void>();
  private ackFloor = { at: 0, seq: 0 };
  private readonly registry = new Registry();
  private readonly more: Registry[] = [];
  private readonly checkpoints: ClusterCheckpoints;

  constructor(private readonly options: ClusterSourceOptions) {
    this.checkpoints = new ClusterCheckpoints(options.timeline);
    this.clock = options.clock ?? Date.now;
    this.startedAt = this.clock();
    this.view = new ClusterView({
      graceMs: options.graceMs,
      startedAt: this.startedAt,
      clock: this.clock,
    });
    this.live = new EventBus(options.subscriberCapacity ?? 10_000);
    this.view.onApplied((applied) => this.onApplied(applied));
    this.gauges();
  }

  /** The replica's series at /metrics, read at each scrape. */
  private gauges(): void {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    const { view } = this;
    const writer = () => this.options.writer?.stats;
    gauge(
      'podscope_cluster_stream_seq',
      'Last stream sequence this replica applied.',
      () => view.stats.lastStreamSeq,
    );
    gauge(
      'podscope_cluster_events_applied',
      'Events this replica applied from the bus.',
      () => view.stats.applied,
    );
    gauge(
      'podscope_cluster_duplicates',
      'Events dropped as already applied (node, epoch, seq).',
      () => view.stats.duplicates,
    );
    gauge(
      'podscope_cluster_gaps',
      "Gaps in agents' seqs seen (explicit and unexplained).",
      () => view.gaps.length,
    );
    gauge(
      'podscope_cluster_writer_inserted',
      "Events this replica's writer committed.",
      () => writer()?.inserted ?? 0,
    );
    gauge(
      'podscope_cluster_writer_failures',
      "Failed commits of this replica's writer (each retried).",
      () => writer()?.failures ?? 0,
    );
    gauge(
      'podscope_cluster_subscribers',
      'Open cluster.watch streams on this replica.',
      () => this.live.size,
    );
    gauge(
      'podscope_cluster_nodes_unknown',
      'Nodes whose agent has not heartbeated within the grace period.',
      () => [...view.outOfContact(this.clock())].length,
    );
  }

  /** Follows the bus; resolves once the KV baselines are in and the stream is being read. */
  async start(): Promise<this> {
    const { done } = await followBus(this.options.reader, this.view, {
      signal: this.ac.signal,
      clock: this.clock,
    });
    this.following = done.catch(() => undefined);
    // The view read the KV baselines before the stream: what it drops from messages that were
    // already in the stream may be covered by a baseline rather than by an event, so the ring
    // records only messages published after that read.
    this.catchUpUntil = await this.options.reader.bus.lastStreamSeq();
    this.contact = this.contactKey();
    this.judge = setInterval(() => this.rejudge(), this.options.judgeEveryMs ?? 500);
    this.judge.unref();
    return this;
  }

  async stop(): Promise<void> {
    if (this.judge) clearInterval(this.judge);
    this.ac.abort();
    for (const wake of this.rejudgeWaiters) wake();
    await this.following;
  }

  private onApplied(applied: (TimelineEvent | GapRecord)[]): void {
    const events = applied.filter(isEvent);
    const streamSeq = this.view.stats.lastStreamSeq;
    if (streamSeq > this.catchUpUntil) {
      if (this.floor === Infinity) this.floor = streamSeq > 1 ? positionOf(streamSeq - 1) : 0;
      for (const e of events) this.ring.push(e);
      const cap = this.options.ringSize ?? 20_000;
      if (this.ring.length > cap) {
        const cut = this.ring.length - Math.floor(cap * 0.9);
        this.floor = this.ring[cut - 1]?.seq ?? this.floor;
        this.ring = this.ring.slice(cut);
      }
    }
    if (events.length > 0) this.live.publish(events);
  }

  /** The view's position: every event with a gid up to this has been applied (or dropped as known). */
  position(): number {
    const s = this.view.stats.lastStreamSeq;
    return s === 0 ? 0 : positionOf(s);
  }

  /** What the judged state depends on besides events: nodes out of contact, name conflicts. */
  private contactKey(): string {
    const now = this.clock();
    const lost = [...this.view.outOfContact(now)];
    const claimed = this.view.conflicts(now).map((c) => `${c.node}×${c.instances.length}`);
    return [...lost.sort(), '|', ...claimed.sort()].join('\n');
  }

  private rejudge(): void {
    const key = this.contactKey();
    if (key === this.contact) return;
    this.contact = key;
    for (const wake of this.rejudgeWaiters) wake();
    this.rejudgeWaiters.clear();
  }

  rejudged(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return;
      const wake = () => {
        this.rejudgeWaiters.delete(wake);
        resolve();
      };
      this.rejudgeWaiters.add(wake);
      signal?.addEventListener('abort', () => this.rejudgeWaiters.delete(wake), { once: true });
    });
  }

  /**
   * The state now: node contact judged by heartbeat age, and a node name claimed by two agent
   * runs shown on that node (its health's lastError names both), never merged.
   */
  snapshot(): ClusterState {
    const now = this.clock();
    const state = this.view.snapshot(now);
    let nodes = state.nodes;
    for (const c of this.view.conflicts(now)) {
      const view = nodes[c.node];
      if (!view) continue;
      const who = c.instances.map((i) => `${i.host}/${i.pid} (${i.endpoint}, epoch ${i.epoch})`);
      nodes = {
        ...nodes,
        [c.node]: {
          ...view,
          health: {
            ...view.health,
            lastError: `${c.instances.length} agents claim the node name ${c.node}: ${who.join('; ')}`,
            lastErrorAt: Math.max(...c.instances.map((i) => i.heardAt)),
          },
        },
      };
    }
    return { ...state, nodes, seq: Math.max(state.seq, this.position()) };
  }

  subscribe(signal?: AbortSignal): Subscription {
    return this.live.subscribe(signal);
  }

  async reach(seq: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const want = streamSeqOfGid(seq);
    if (want <= this.view.stats.lastStreamSeq) return true;
    if (want > (await this.options.reader.bus.lastStreamSeq())) return false;
    const deadline = this.clock() + timeoutMs;
    while (this.view.stats.lastStreamSeq < want) {
      if (signal?.aborted || this.clock() > deadline) return false;
      await sleep(25, signal);
    }
    return true;
  }

  /** Every event with a gid up to this is committed to the timeline database. */
  async committedThrough(): Promise<number> {
    const now = this.clock();
    if (now - this.ackFloor.at > 200) {
      this.ackFloor = { at: now, seq: await this.options.reader.writerAckFloor() };
    }
    return this.ackFloor.seq === 0 ? 0 : positionOf(this.ackFloor.seq);
  }

  async eventsAfter(afterSeq: number, limit: number): Promise<TimelineEvent[]> {
    let after = afterSeq;
    const deadline = this.clock() + COMMIT_WAIT_MS;
    for (;;) {
      // Nothing applied after it yet: what comes next comes live.
      if (after >= this.position()) return [];
      if (after >= this.floor) return this.ringAfter(after, limit);
      const committed = await this.committedThrough();
      if (committed <= after) {
        if (this.clock() > deadline)
          throw new Error(
            `the cluster timeline (${this.options.timeline.where}) is behind the bus: no writer has committed past ${after}`,
          );
        this.ackFloor.at = 0;
        await sleep(100);
        continue;
      }
      const upTo = Math.min(committed, this.floor);
      const rows = await this.options.timeline.eventsAfter(after, limit, upTo);
      const events = rows.filter(isEvent);
      if (events.length > 0) return events;
      // Nothing (or only gap records) in (after, upTo]: go on from there.
      after = rows.length === limit ? (rows[rows.length - 1]?.seq ?? upTo) : upTo;
    }
  }

  private ringAfter(after: number, limit: number): TimelineEvent[] {
    // Binary search for the first event with seq > after.
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.ring[mid]?.seq ?? 0) <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.ring.slice(lo, lo + limit);
  }

  async oldestSeq(): Promise<number> {
    const oldest = await this.options.timeline.oldestGid();
    return oldest ?? this.ring[0]?.seq ?? this.position() + 1;
  }

  async range(q: RangeQuery): Promise<TimelineEvent[]> {
    const rows = await this.options.timeline.range(q);
    return rows.filter(isEvent);
  }

  /**
   * The state at `t` from the timeline database: its newest checkpoint before t and the events
   * after it (timeline/checkpoints.ts), with the view's rule for agent runs.
   */
  async stateAt(t: number): Promise<ClusterState> {
    const now = this.snapshot();
    if (t >= now.t && now.t > 0) return now;
    return stateAt(this.options.timeline, this.checkpoints, t);
  }

  nodes(): NodeSummary[] {
    const state = this.snapshot();
    return Object.values(state.nodes)
      .map((n): NodeSummary => {
        const hb = this.view.track(n.name)?.heartbeat;
        return {
          name: n.name,
          endpoint: hb?.instance.endpoint ?? n.endpoint,
          lab: false,
          connected: n.health.connected,
          mode: 'events',
          ...(n.health.lastRelistAt !== undefined ? { lastRelistAt: n.health.lastRelistAt } : {}),
          ...(n.health.lastError !== undefined ? { lastError: n.health.lastError } : {}),
          skippedTicks: 0,
          relists: 0,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  connect(): Promise<NodeSummary> {
    return Promise.reject(new Error(CLUSTER_NODES));
  }

  disconnect(): Promise<void> {
    return Promise.reject(new Error(CLUSTER_NODES));
  }

  endpointAllowed(): boolean {
    return false;
  }

  health(): Health {
    const now = this.clock();
    const nodes: Record<string, number | null> = {};
    for (const name of this.view.nodeNames()) {
      const heardAt = this.view.track(name)?.heardAt;
      nodes[name] = heardAt === undefined ? null : now - heardAt;
    }
    const writer = this.options.writer?.stats;
    const failing = writer?.failing === true ? writer.lastError : undefined;
    const connected = !this.options.reader.bus.nc.isClosed();
    return {
      ok: connected && failing === undefined,
      nodes,
      seq: this.position(),
      subscribers: this.live.size,
      startedAt: this.startedAt,
      ...(failing !== undefined ? { storeError: failing } : {}),
      ...(!connected ? { storeError: 'the NATS connection is closed' } : {}),
    };
  }

  /** Another part's series (the API view's) served with the replica's at /metrics. */
  addMetrics(registry: Registry): void {
    this.more.push(registry);
  }

  metrics(): Promise<string> {
    return exposition([
      this.registry,
      this.options.reader.bus.refusals.registry,
      ...this.more,
      processRegistry(),
    ]);
  }
}

/** Why nodes cannot be connected from a cluster-mode console. */
export const CLUSTER_NODES =
  'in cluster mode nodes join by running `podscope agent --cri … --nats …` on them';
