/**
 * The API server's view in cluster mode. Of all console replicas one — the holder of a
 * coordination.k8s.io Lease (server/kube/lease.ts) — watches the API server (server/kube KubeView:
 * list+watch of Nodes, Pods, Events and node Leases) and compares it with the cluster as its own
 * replica follows it from the bus, as the embedded console does (DriftBridge). What comes out —
 * API-server Events (kind 'k8s') and drift (NodeUpdated { drift }, PodUpdated { patch.drift }) —
 * it publishes on the event stream, on each node's subject, under an epoch of its own (`…-api`,
 * new for every term of leadership). So every replica applies the same events in the same stream
 * order under the same global ids: snapshot, watch, resume and the timeline database agree on
 * every replica, and the API server is watched once, not once per replica.
 *
 * Receivers treat an `…-api` epoch as a source apart from the node's agent (view.ts: its own
 * track per node, never replacing the agent's state) and refuse such a message unless every event
 * is an Event or drift (api-events.ts; counted and logged like any refused message). A newer
 * term's epoch sorts after an older one, so a deposed leader's late messages are dropped as stale.
 *
 * The same term also keeps the specs bucket (spec-publisher.ts): every pod's spec and posted
 * status per node, which each agent hands to its node engine as the 'apiserver' hint provider
 * (agent/specs.ts) — the agents need no API-server credentials, and derive as the embedded
 * engine does with KubeView.
 *
 *   const api = electApiView({ bus, source, kube: () => new KubeView({ kubeconfig }), lease });
 *   …
 *   await api.stop();   // releases the Lease: another replica takes over at once
 */
import type { K8sEvent, TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduce } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import { DriftBridge, type DriftBridgeOptions, type DriftSource } from '@/server/kube/bridge';
import type { NewK8sEvent } from '@/server/kube/events';
import { LeaseElector, type LeaseElectorOptions } from '@/server/kube/lease';
import { Gauge, Registry } from '@/server/metrics/registry';
import { checkApiEvents } from './api-events';
import type { BusConnection } from './bus/connection';
import { BusPublisher } from './bus/publisher';
import {
  ENVELOPE_VERSION,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  encodeMessage,
  newApiEpoch,
  type EventsMessage,
} from './envelope';
import type { GapRecord } from './global';
import { NODE_NAME } from './names';
import { SpecPublisher, type SpecSource, type SpecStats } from './spec-publisher';

/** The API server's view as the leader runs it (a KubeView). */
export interface ApiWatch extends DriftSource, SpecSource {
  start(): void;
  stop(): Promise<void>;
  /** Resolves once every collection has been listed. */
  synced(): Promise<boolean>;
}

/** What the publisher reads of its own replica: the state it compares, what it has applied. */
export interface ReplicaState {
  snapshot(): ClusterState;
  readonly view: {
    readonly stats: { readonly lastStreamSeq: number };
    onApplied(listener: (events: (TimelineEvent | GapRecord)[]) => void): () => void;
  };
}

export interface ApiViewOptions {
  bus: BusConnection;
  source: ReplicaState;
  /**
   * Makes the API server's view for one term of leadership (started and stopped here), with the
   * given options spread into KubeView's: the Events already there at its first list are wanted.
   */
  kube: (options: { emitInitialEvents: true }) => ApiWatch;
  /**
   * Events of the first list recorded at most this long before a term began are published
   * unless the stream already has them (default 60 s): those a dead leader had no time to
   * publish, recorded while nobody held the Lease.
   */
  eventLookbackMs?: number;
  /** Events waiting to be published, at most (default 20,000; the oldest are dropped, counted). */
  maxQueue?: number;
  bridge?: DriftBridgeOptions;
  log?: (line: string, level?: 'info' | 'warn' | 'error') => void;
  now?: () => number;
}

export interface ApiViewStats extends SpecStats {
  /** Terms of leadership this replica has had. */
  terms: number;
  published: number;
  messages: number;
  /** Events dropped before publishing: the queue was full, or the event was not publishable. */
  dropped: number;
  publishFailures: number;
}

const RETRY_MS = [100, 250, 500, 1_000, 2_000];
const SEEN_EVENTS = 10_000;

/** One API-server Event as the stream holds it: the same occurrence from any leader. */
const eventKey = (e: K8sEvent | NewK8sEvent) =>
  [
    e.involvedObject.uid ?? `${e.involvedObject.namespace}/${e.involvedObject.name}`,
    e.reason,
    e.count,
    e.lastTimestamp ?? e.firstTimestamp ?? '',
    e.message,
  ].join('\u0000');

/** The Events the stream has carried lately (bounded, oldest forgotten first). */
class SeenEvents {
  private readonly keys = new Set<string>();
  add(key: string): void {
    this.keys.delete(key);
    this.keys.add(key);
    if (this.keys.size > SEEN_EVENTS) {
      const oldest = this.keys.values().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
  }
  has(key: string): boolean {
    return this.keys.has(key);
  }
}
const isNodeName = (n: string) => n.length <= 253 && NODE_NAME.test(n);

/** One term of leadership: its epoch, its API watch, its queue. */
class Term {
  readonly epoch: string;
  private readonly kube: ApiWatch;
  private readonly bridge: DriftBridge;
  private readonly seqs = new Map<string, number>();
  private queue: UnsequencedEvent[] = [];
  /** Published, not yet applied by this replica: overlaid on the state the drift compares with. */
  private pending: { streamSeq: number; events: TimelineEvent[] }[] = [];
  private flushing: Promise<void> | undefined;
  private running = true;
  /** Until the first lists are in: Events may be history, published only when recent and new. */
  private listing = true;
  private readonly startedAt: number;
  /** The specs bucket's writer, from the first complete list on. */
  private specs: SpecPublisher | undefined;
  private readonly publisher: BusPublisher;

  constructor(
    private readonly options: ApiViewOptions,
    private readonly stats: ApiViewStats,
    private readonly seen: SeenEvents,
  ) {
    const now = options.now ?? Date.now;
    this.publisher = new BusPublisher(options.bus);
    this.startedAt = now();
    this.epoch = newApiEpoch(this.startedAt);
    this.kube = options.kube({ emitInitialEvents: true });
    this.bridge = new DriftBridge(
      this.kube,
      { state: () => this.state(), append: (events) => this.enqueue(events), now },
      {
        onError: (err) =>
          options.log?.(`api view: drift: ${err instanceof Error ? err.message : String(err)}`),
        ...options.bridge,
      },
    );
    void this.caughtUp().then(() => {
      if (!this.running) return;
      this.kube.start();
      this.bridge.start();
      void this.kube.synced().then(() => {
        this.listing = false;
        if (!this.running) return;
        this.specs = new SpecPublisher({
          bus: options.bus,
          source: this.kube,
          epoch: this.epoch,
          stats,
          ...(options.log ? { log: options.log } : {}),
          now,
        });
      });
    });
  }

  /**
   * Until the replica has applied what the stream held when the term began: the drift is
   * compared with that state, and the Events another term published are known by then.
   */
  private async caughtUp(): Promise<void> {
    let target: number | undefined;
    while (this.running) {
      try {
        target ??= await this.options.bus.lastStreamSeq();
        if (this.options.source.view.stats.lastStreamSeq >= target) return;
      } catch {
        // NATS unreachable: asked again below.
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** An Event another term (or this one) already published, or history from before the gap. */
  private known(e: NewK8sEvent): boolean {
    const key = eventKey(e);
    if (this.seen.has(key)) return true;
    const at = e.lastTimestamp ?? e.firstTimestamp;
    const lookback = this.options.eventLookbackMs ?? 60_000;
    if (this.listing && (at === undefined || at < this.startedAt - lookback)) return true;
    this.seen.add(key);
    return false;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.bridge.stop();
    this.queue = [];
    await this.specs?.stop();
    await this.kube.stop();
    await this.flushing;
  }

  /**
   * The replica's state with what this term has published (or queued) but the replica has not
   * applied yet: so a drift already on its way is not sent twice.
   */
  private state(): ClusterState {
    let state = this.options.source.snapshot();
    const applied = this.options.source.view.stats.lastStreamSeq;
    this.pending = this.pending.filter((p) => p.streamSeq > applied);
    const ahead = [...this.pending.flatMap((p) => p.events), ...this.queue];
    for (const e of ahead) state = reduce(state, { ...e, seq: state.seq + 1 });
    return state;
  }

  private enqueue(events: UnsequencedEvent[]): void {
    if (!this.running) return;
    for (const e of events) {
      if (e.kind === 'k8s' && this.known(e)) continue;
      // Checked as receivers check it: one odd Event must not get a whole message refused.
      const why = !isNodeName(e.node)
        ? `node "${e.node.slice(0, 80)}" is not a node name`
        : checkApiEvents([{ ...e, seq: 1 }]);
      if (why) {
        this.stats.dropped++;
        this.options.log?.(`api view: not published: ${why}`, 'warn');
        continue;
      }
      this.queue.push(e);
    }
    const max = this.options.maxQueue ?? 20_000;
    if (this.queue.length > max) {
      const cut = this.queue.length - max;
      this.queue.splice(0, cut);
      this.stats.dropped += cut;
      this.options.log?.(`api view: ${cut} event(s) dropped, the bus is not keeping up`, 'warn');
    }
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
  }

  /** Publishes the queue in order, one node's run per message, each retried until it is in. */
  private async flush(): Promise<void> {
    while (this.running && this.queue.length > 0) {
      const node = this.queue[0]?.node as string;
      const run: UnsequencedEvent[] = [];
      const rest: UnsequencedEvent[] = [];
      for (const e of this.queue)
        (e.node === node && run.length < MAX_EVENTS_PER_MESSAGE ? run : rest).push(e);
      let take = run.length;
      let msg = this.message(node, run, take);
      while (take > 1 && encodeMessage(msg).byteLength > MAX_MESSAGE_BYTES) {
        take = Math.ceil(take / 2);
        msg = this.message(node, run, take);
      }
      this.queue = [...run.slice(take), ...rest];
      this.seqs.set(node, msg.seq + take - 1);
      const streamSeq = await this.publish(msg);
      if (streamSeq === undefined) return;
      this.pending.push({ streamSeq, events: msg.events });
      this.stats.published += take;
      this.stats.messages++;
    }
  }

  private message(node: string, run: UnsequencedEvent[], take: number): EventsMessage {
    const seq = (this.seqs.get(node) ?? 0) + 1;
    const t = (this.options.now ?? Date.now)();
    return {
      v: ENVELOPE_VERSION,
      type: 'events',
      cluster: this.options.bus.names.cluster,
      node,
      epoch: this.epoch,
      seq,
      t,
      events: run.slice(0, take).map((e, i) => ({ ...e, seq: seq + i })),
    };
  }

  /** The stream seq it landed at; undefined when the term ended first. Same id on every retry. */
  private async publish(msg: EventsMessage): Promise<number | undefined> {
    for (let attempt = 0; this.running; attempt++) {
      try {
        return (await this.publisher.publish(msg)).streamSeq;
      } catch (err) {
        this.stats.publishFailures++;
        if (attempt === 0)
          this.options.log?.(
            `api view: publishing for ${msg.node} failed, retrying: ${err instanceof Error ? err.message : String(err)}`,
            'warn',
          );
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
    return undefined;
  }
}

/** Publishes the API server's view while this replica leads (start/stop from the elector). */
export class ApiViewPublisher {
  readonly stats: ApiViewStats = {
    terms: 0,
    published: 0,
    messages: 0,
    dropped: 0,
    publishFailures: 0,
    specsWritten: 0,
    specsDeleted: 0,
    specsDropped: 0,
    specFailures: 0,
  };
  private term: Term | undefined;
  private stopping: Promise<void> = Promise.resolve();
  private readonly seen = new SeenEvents();
  /** podscope_cluster_api_view_* (served with the replica's series, ClusterSource.addMetrics). */
  readonly registry = new Registry();

  constructor(private readonly options: ApiViewOptions) {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name: `podscope_cluster_api_view_${name}`,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    gauge('leading', '1 while this replica holds the Lease and watches the API server.', () =>
      this.term ? 1 : 0,
    );
    gauge('terms', 'Terms of leadership this replica has had.', () => this.stats.terms);
    gauge(
      'published',
      'API-server Events and drift this replica published.',
      () => this.stats.published,
    );
    gauge(
      'dropped',
      'Events not published: the queue was full, or the event was not publishable.',
      () => this.stats.dropped,
    );
    gauge(
      'publish_failures',
      'Failed publications (each retried with the same message id).',
      () => this.stats.publishFailures,
    );
    gauge(
      'specs_written',
      'Pod specs and node IPs written to the specs bucket.',
      () => this.stats.specsWritten,
    );
    gauge(
      'specs_deleted',
      'Specs-bucket keys deleted (pods gone from the API server).',
      () => this.stats.specsDeleted,
    );
    gauge(
      'specs_dropped',
      'Pod specs too large for a record, not written.',
      () => this.stats.specsDropped,
    );
    gauge(
      'spec_failures',
      'Failed specs-bucket reads and writes (each retried).',
      () => this.stats.specFailures,
    );
    // What the stream carries, from any leader: a new term does not publish those again.
    options.source.view.onApplied((events) => {
      for (const e of events) if (e.kind === 'k8s') this.seen.add(eventKey(e));
    });
  }

  /** True while this replica watches the API server. */
  get watching(): boolean {
    return this.term !== undefined;
  }

  get epoch(): string | undefined {
    return this.term?.epoch;
  }

  start(): void {
    if (this.term) return;
    this.stats.terms++;
    this.term = new Term(this.options, this.stats, this.seen);
    this.options.log?.(`api view: watching the API server (epoch ${this.term.epoch})`);
  }

  /** Stops watching and publishing; resolves once the API watches are closed. */
  stop(): Promise<void> {
    const term = this.term;
    this.term = undefined;
    if (term) this.stopping = this.stopping.then(() => term.stop());
    return this.stopping;
  }
}

export interface ApiViewElection {
  readonly elector: LeaseElector;
  readonly publisher: ApiViewPublisher;
  /** Stops watching and releases the Lease (another replica takes over at once). */
  stop(): Promise<void>;
  /** Stops as a killed process would: no release, so the Lease expires (tests). */
  abandon(): Promise<void>;
}

export type ApiLeaseOptions = Omit<
  LeaseElectorOptions,
  'onStartedLeading' | 'onStoppedLeading' | 'onNewLeader' | 'log'
>;

/** Runs the election; the holder publishes the API server's view, the others only follow it. */
export function electApiView(
  options: ApiViewOptions & { lease: ApiLeaseOptions },
): ApiViewElection {
  const duration = options.lease.leaseDurationMs ?? 15_000;
  const publisher = new ApiViewPublisher({
    eventLookbackMs: 2 * duration + 30_000,
    ...options,
  });
  const elector = new LeaseElector({
    ...options.lease,
    onStartedLeading: () => publisher.start(),
    onStoppedLeading: () => void publisher.stop(),
    onNewLeader: (id) => options.log?.(`api view: the Lease names ${id}`),
  });
  elector.start();
  return {
    elector,
    publisher,
    async stop() {
      await elector.stop();
      await publisher.stop();
    },
    async abandon() {
      elector.abandon();
      await publisher.stop();
    },
  };
}
