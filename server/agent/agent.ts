/**
 * `podscope agent`: one per node. Runs the per-node engine (server/engine/node/node-engine.ts) on the
 * node's one CRI endpoint and publishes what it derives to the cluster bus.
 *
 *   relist ─▶ NodeEngine ─▶ outbox (bounded, never blocks) ─▶ publisher ─▶ JetStream
 *                     └──▶ heartbeat + latest node state ───────────────▶ KV
 *
 * - Epoch: new on every start; seqs restart at 1 within it. The centre tells runs apart and drops
 *   duplicates by (node, epoch, seq); a restarted agent rebuilds its node's state by relisting.
 * - The relist loop never waits on the network: a NATS outage only fills the outbox (capped;
 *   the oldest are replaced by an explicit gap message, counted in the metrics).
 * - CRI: only read methods (cri-allowlist.ts). Listens only on /metrics and /healthz, loopback
 *   by default.
 * - The API server's pod specs and posted hints come from the specs bucket, its own node's keys
 *   only (specs.ts), written by the console replica that watches the API server: its engine
 *   derives pods with the same provider the embedded console's engine has, and the agent holds
 *   no API-server credentials.
 */
import { hostname } from 'node:os';
import type { TimelineEvent } from '@/lib/timeline/events';
import { connectBus, type BusConnection } from '@/server/cluster/bus/connection';
import { BusPublisher } from '@/server/cluster/bus/publisher';
import { ENVELOPE_VERSION, newEpoch, type BusMessage } from '@/server/cluster/envelope';
import { checkClusterName, checkNodeName } from '@/server/cluster/names';
import { Refusals } from '@/server/cluster/refusals';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { createNodeEngine, type NodeEngine } from '@/server/engine/node/node-engine';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import type { EngineTimings } from '@/server/engine/timings';
import { criAllowList } from './cri-allowlist';
import { startAgentHttp, type AgentHttp } from './http';
import { createAgentMetrics, type AgentMetrics } from './metrics';
import { Outbox } from './outbox';
import { AgentSpecs } from './specs';

export interface AgentConfig {
  node: string;
  endpoint: string;
  nats: string;
  cluster: string;
  /** /metrics and /healthz; port 0 picks a free one. */
  listen: { host: string; port: number };
  outboxBytes: number;
  heartbeatMs: number;
  /** Latest full node state to KV at most this often (and only when it changed). */
  stateMs: number;
  timings: EngineTimings;
  criTimeoutMs: number;
  /** The node's kubelet version (--kubelet-version), when the API server's Node does not say. */
  kubeletVersion?: string;
}

export interface AgentDeps {
  log?: (line: string) => void;
  /** Builds the runtime client (tests may wrap it); default: gRPC with the allow-list. */
  dial?: (endpoint: string, metrics: AgentMetrics) => RuntimeClient;
}

const HOUSEKEEPING_MS = 1_000;
const PUBLISH_TIMEOUT_MS = 5_000;

export class Agent {
  readonly epoch = newEpoch();
  readonly metrics = createAgentMetrics();
  readonly outbox: Outbox;
  /** The API server's specs of this node's pods (the engine's 'apiserver' provider). */
  readonly specs: AgentSpecs;
  /** Bus entries refused (the specs bucket's), at /metrics as podscope_cluster_refused_total. */
  readonly refusals: Refusals;
  private readonly engine: NodeEngine;
  private readonly client: RuntimeClient;
  private bus: BusConnection | undefined;
  private publisher: BusPublisher | undefined;
  private http: AgentHttp | undefined;
  private seq = 0;
  private lastStateSeq = -1;
  private lastStateAt = 0;
  private readonly stop$ = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private timers: ReturnType<typeof setInterval>[] = [];
  private lastPublishError: string | undefined;
  private lastRelistOk = Date.now();
  private natsUp = false;
  private beating = false;
  private readonly log: (line: string) => void;

  constructor(
    readonly config: AgentConfig,
    deps: AgentDeps = {},
  ) {
    checkNodeName(config.node);
    checkClusterName(config.cluster);
    this.log = deps.log ?? ((l) => console.error(l));
    this.refusals = new Refusals(this.log);
    this.specs = new AgentSpecs(config.node, config.cluster, this.refusals, this.log);
    this.outbox = new Outbox(
      { cluster: config.cluster, node: config.node, epoch: this.epoch },
      config.outboxBytes,
    );
    this.client =
      deps.dial?.(config.endpoint, this.metrics) ??
      criRuntime(config.endpoint, {
        timeoutMs: config.criTimeoutMs,
        interceptors: [criAllowList(this.metrics.criRefused, this.log)],
      });
    this.engine = createNodeEngine({
      name: config.node,
      client: this.client,
      timings: config.timings,
      seq: () => ++this.seq,
      metrics: this.metrics.engine,
      providers: [this.specs],
      ...(config.kubeletVersion !== undefined ? { kubeletVersion: config.kubeletVersion } : {}),
      onEvents: (batch) => this.onEvents(batch),
      log: (line) => this.log(line),
    });
    // As the embedded engine's provider links do (server/engine/provider-links.ts): a changed
    // spec re-derives its pods.
    this.specs.onChange((uids) => this.engine.rederive(new Set(uids)));
  }

  /** This node's latest derived state (what its last node-state record says). */
  view() {
    return this.engine.view();
  }

  /** The last seq this epoch assigned. */
  get lastSeq(): number {
    return this.seq;
  }

  get address(): string | undefined {
    return this.http?.address;
  }

  get connected(): boolean {
    return !!this.bus && !this.bus.nc.isClosed() && this.natsUp;
  }

  private onEvents(batch: TimelineEvent[]): void {
    if (batch.some((e) => e.kind === 'cri' && e.type === 'RelistFailed')) this.lastRelistOk = 0;
    else this.lastRelistOk = Date.now();
    const before = { dropped: this.outbox.stats.droppedEvents, gaps: this.outbox.stats.gaps };
    this.outbox.add(batch);
    this.countOutbox(before);
  }

  private countOutbox(before: { dropped: number; gaps: number }): void {
    const s = this.outbox.stats;
    if (s.droppedEvents > before.dropped)
      this.metrics.droppedEvents.inc(s.droppedEvents - before.dropped);
    if (s.gaps > before.gaps) this.metrics.gaps.inc(s.gaps - before.gaps);
    this.metrics.outboxMessages.set(s.queuedMessages);
    this.metrics.outboxBytes.set(s.queuedBytes);
  }

  async start(): Promise<this> {
    this.http = await startAgentHttp(this.config.listen, {
      metrics: () => this.metrics.render([this.refusals.registry]),
      health: () => this.health(),
    });
    this.engine.start();
    this.timers.push(setInterval(() => this.engine.tick(Date.now()), HOUSEKEEPING_MS));
    this.loops.push(this.connectAndPublish());
    this.log(
      `agent: node ${this.config.node} (${this.config.endpoint}) epoch ${this.epoch} → ${this.config.nats} cluster ${this.config.cluster}; /metrics and /healthz on http://${this.http.address}`,
    );
    return this;
  }

  health(): { ok: boolean; detail: Record<string, unknown> } {
    const relistOk =
      Date.now() - this.lastRelistOk < Math.max(3 * this.config.timings.relistMs, 10_000);
    return {
      ok: relistOk,
      detail: {
        node: this.config.node,
        epoch: this.epoch,
        seq: this.seq,
        relist: relistOk ? 'ok' : 'failing',
        nats: this.connected ? 'connected' : 'disconnected',
        outbox: { ...this.outbox.stats },
        specs: { ...this.specs.stats, ready: this.specs.ready },
      },
    };
  }

  private async connectAndPublish(): Promise<void> {
    const signal = this.stop$.signal;
    // The first connection may take a while (NATS not up yet): the engine runs meanwhile.
    while (!signal.aborted && !this.bus) {
      try {
        this.bus = await connectBus({
          servers: this.config.nats,
          cluster: this.config.cluster,
          name: `podscope-agent ${this.config.node}`,
          log: this.log,
          refusals: this.refusals,
          waitOnFirstConnect: true,
        });
      } catch (err) {
        this.note(`connecting to ${this.config.nats}`, err);
        await sleep(1_000, signal);
      }
    }
    const bus = this.bus;
    if (!bus) return;
    const publisher = (this.publisher = new BusPublisher(bus));
    const up = (v: boolean) => {
      this.natsUp = v;
      this.metrics.natsConnected.set(v ? 1 : 0);
    };
    up(true);
    this.loops.push(this.specs.follow(bus, signal));
    void (async () => {
      for await (const s of bus.nc.status()) {
        if (s.type === 'disconnect') up(false);
        if (s.type === 'reconnect') up(true);
      }
    })().catch(() => {});
    this.timers.push(setInterval(() => void this.beat(), this.config.heartbeatMs));
    void this.beat();
    let backoff = 100;
    while (!signal.aborted) {
      await this.outbox.ready(signal);
      const msg = this.outbox.take();
      if (!msg) continue;
      try {
        await publisher.publish(msg, PUBLISH_TIMEOUT_MS);
        this.outbox.done();
        this.counted(msg);
        backoff = 100;
        this.lastPublishError = undefined;
      } catch (err) {
        this.metrics.publishErrors.inc();
        this.note('publishing', err);
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 2_000);
      }
      this.countOutbox({ dropped: this.outbox.stats.droppedEvents, gaps: this.outbox.stats.gaps });
    }
  }

  private counted(msg: BusMessage): void {
    this.metrics.published.inc({ type: msg.type });
    if (msg.type === 'events') this.metrics.publishedEvents.inc(msg.events.length);
  }

  /** Heartbeat every period; the full node state when it changed (at most every stateMs). */
  private async beat(): Promise<void> {
    const publisher = this.publisher;
    if (!publisher || this.beating) return;
    this.beating = true;
    const t = Date.now();
    const { config } = this;
    try {
      await publisher.putHeartbeat({
        v: ENVELOPE_VERSION,
        cluster: config.cluster,
        node: config.node,
        epoch: this.epoch,
        seq: this.seq,
        t,
        instance: { host: hostname(), pid: process.pid, endpoint: config.endpoint },
        dropped: this.outbox.stats.droppedEvents,
      });
      const view = this.engine.view();
      if (view && this.seq !== this.lastStateSeq && t - this.lastStateAt >= config.stateMs) {
        const seq = this.seq;
        await publisher.putState({
          v: ENVELOPE_VERSION,
          cluster: config.cluster,
          node: config.node,
          epoch: this.epoch,
          seq,
          t,
          view,
        });
        this.lastStateSeq = seq;
        this.lastStateAt = t;
      }
    } catch (err) {
      this.note('heartbeat', err);
    } finally {
      this.beating = false;
    }
  }

  private note(what: string, err: unknown): void {
    const msg = `${what}: ${err instanceof Error ? err.message : String(err)}`;
    if (msg !== this.lastPublishError) this.log(`agent: ${msg}`);
    this.lastPublishError = msg;
  }

  /** Stops relisting, publishes what is queued for up to `drainMs`, closes everything. */
  async stop(drainMs = 2_000): Promise<void> {
    this.engine.stop();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const deadline = Date.now() + drainMs;
    while (this.connected && this.outbox.stats.queuedMessages > 0 && Date.now() < deadline)
      await sleep(50);
    this.stop$.abort();
    await Promise.allSettled(this.loops);
    await this.bus?.close();
    await this.http?.close();
    this.client.close();
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function startAgent(config: AgentConfig, deps: AgentDeps = {}): Promise<Agent> {
  return new Agent(config, deps).start();
}

/** NAME defaults to the host name (lower-cased), as the kubelet's does. */
export function defaultNodeName(): string {
  return hostname().toLowerCase();
}
