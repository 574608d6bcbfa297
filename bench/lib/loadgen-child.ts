/**
 * The cluster benchmark's load generator: one process publishing to a real NATS JetStream as N
 * synthetic agents (synthetic-nodes.ts) — first relists, heartbeats every `heartbeatMs`, latest
 * node state when it changed (at most every 10 s, as the agent does), churn relists — through the
 * cluster bus (server/cluster/bus/publisher.ts), exactly the calls the agent makes — but for the ingest
 * flood's messages made ahead, which go out pipelined (pipelined-publisher.ts), as a hundred
 * agents' publishes would from a hundred processes. Driven over IPC by loadgen-process.ts.
 *
 *   node --import tsx bench/lib/loadgen-child.ts
 */
import { DEFAULT_STATE_MS } from '@/server/agent/config';
import { connectBus } from '@/server/cluster/bus/connection';
import { BusPublisher } from '@/server/cluster/bus/publisher';
import { encodeMessage, messageId, type BusMessage } from '@/server/cluster/envelope';
import { clusterNames } from '@/server/cluster/names';
import type { LoadEnvelope, LoadReply, LoadRequest, LoadStats } from './loadgen-protocol';
import { PipelinedPublisher } from './pipelined-publisher';
import { quantile } from './stats';
import { recordTemplates, SyntheticNode, type NodeMark, type Templates } from './synthetic-nodes';

/** Unacknowledged publishes and KV puts at once (background traffic). */
const MAX_IN_FLIGHT = 512;
const TICK_MS = 50;

let bus: BusPublisher | undefined;
let publisher: PipelinedPublisher | undefined;
let templates: Templates | undefined;
let config: Extract<LoadRequest, { op: 'start' }> | undefined;
const nodes: SyntheticNode[] = [];
/** Per node: next heartbeat due, next churn due, when its state was last put, seq it was put at. */
const due: { hb: number; churn: number; stateAt: number; stateSeq: number }[] = [];
let churnEveryMs = 0;
let ticker: ReturnType<typeof setInterval> | undefined;
let inFlight = 0;
const stats = { messages: 0, events: 0, heartbeats: 0, publishErrors: 0, lastStreamSeq: 0 };
let lags: number[] = [];
let lastError = '';

/**
 * A flood's message made ahead (prepare): its bytes, and where its node goes back to when it is
 * not published (before its relist, with the seqs of the relist's earlier messages kept).
 */
interface Prepared {
  subject: string;
  msgID: string;
  data: Uint8Array;
  events: number;
  node: number;
  unsent: NodeMark;
}
let prepared: Prepared[] = [];
let preparedStats = { messages: 0, events: 0, ms: 0 };
let floodExhausted = false;

const node = (i: number) => nodes[i] as SyntheticNode;

/** Publishes in order on the one connection (JetStream keeps the order); counts what it acked. */
function publish(m: BusMessage): Promise<void> {
  const b = bus as BusPublisher;
  inFlight++;
  return b
    .publish(m, 30_000)
    .then((ack) => {
      stats.lastStreamSeq = Math.max(stats.lastStreamSeq, ack.streamSeq);
      stats.messages++;
      if (m.type === 'events') stats.events += m.events.length;
    })
    .catch((err: unknown) => {
      stats.publishErrors++;
      lastError = err instanceof Error ? err.message : String(err);
    })
    .finally(() => inFlight--);
}

function put(p: Promise<unknown>, heartbeat: boolean): void {
  inFlight++;
  p.then(() => {
    if (heartbeat) stats.heartbeats++;
  })
    .catch((err: unknown) => {
      stats.publishErrors++;
      lastError = err instanceof Error ? err.message : String(err);
    })
    .finally(() => inFlight--);
}

/** Heartbeats, states and churn that are due; what is late is measured (the generator's own lag). */
function tick(): void {
  const b = bus;
  if (!b || !config) return;
  const now = Date.now();
  for (let i = 0; i < nodes.length; i++) {
    const d = due[i];
    if (!d || inFlight >= MAX_IN_FLIGHT) break;
    const n = node(i);
    if (now >= d.hb) {
      lags.push(now - d.hb);
      put(b.putHeartbeat(n.heartbeat(now)), true);
      d.hb += config.heartbeatMs;
      if (n.lastSeq !== d.stateSeq && now - d.stateAt >= DEFAULT_STATE_MS) {
        d.stateAt = now;
        d.stateSeq = n.lastSeq;
        put(b.putState(n.state(now)), false);
      }
    }
    if (churnEveryMs > 0 && now >= d.churn) {
      lags.push(now - d.churn);
      for (const m of n.churn(now)) void publish(m);
      // Exponential gaps: relists that find a change arrive as a Poisson process per node.
      d.churn += -Math.log(1 - Math.random()) * churnEveryMs;
    }
  }
  if (lags.length > 100_000) lags = lags.slice(-50_000);
}

async function grow(total: number): Promise<void> {
  if (!config || !templates) throw new Error('not started');
  const now = Date.now();
  const pending: Promise<void>[] = [];
  for (let i = nodes.length; i < total; i++) {
    const n = new SyntheticNode(
      config.cluster,
      `${config.prefix}-${String(i + 1).padStart(5, '0')}`,
      templates,
      i * 7,
    );
    nodes.push(n);
    // Heartbeats spread over the period; a first state once the first relist is out.
    due.push({
      hb: now + Math.random() * config.heartbeatMs,
      churn: now + Math.random() * (churnEveryMs || 1),
      stateAt: 0,
      stateSeq: -1,
    });
    for (const m of n.initial(Date.now())) pending.push(publish(m));
    while (inFlight >= MAX_IN_FLIGHT) await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(pending);
}

/**
 * Makes at least `events` events of churn relists, round robin over the nodes, as the agent
 * sends them (encodeMessage: the lean wire inside the envelope, the message id): the flood then
 * only publishes bytes. On a real cluster each agent makes its own messages on its own node; here
 * one process makes them all on the machine the benchmark measures, so they are made before the
 * measured window rather than inside it.
 */
function prepare(events: number): void {
  if (!config) throw new Error('not started');
  const names = clusterNames(config.cluster);
  const started = Date.now();
  prepared = [];
  let made = 0;
  for (let i = 0; made < events; i++) {
    const k = i % nodes.length;
    const n = node(k);
    const before = n.mark();
    for (const m of n.churn(Date.now())) {
      prepared.push({
        subject: names.eventSubject(m.node),
        msgID: messageId(m),
        data: encodeMessage(m),
        events: m.events.length,
        node: k,
        unsent: { ...before, seq: m.seq - 1 },
      });
      made += m.events.length;
    }
  }
  preparedStats = { messages: prepared.length, events: made, ms: Date.now() - started };
}

/**
 * Publishes one prepared message (in order on the one connection, as `publish`), pipelined: the
 * flood is a hundred agents' worth of messages from one process (pipelined-publisher.ts).
 */
function publishPrepared(p: Prepared): void {
  const b = bus as BusPublisher;
  publisher ??= new PipelinedPublisher(b.bus.nc);
  inFlight++;
  publisher.publish(p.subject, p.data, p.msgID, (err, ack) => {
    inFlight--;
    if (err || !ack) {
      stats.publishErrors++;
      lastError = err?.message ?? 'no PubAck';
      return;
    }
    stats.lastStreamSeq = Math.max(stats.lastStreamSeq, ack.seq);
    stats.messages++;
    stats.events += p.events;
  });
}

async function flood(ms: number, cap: number, eventsPerS = 0): Promise<void> {
  const start = Date.now();
  const end = start + ms;
  const made = prepared;
  prepared = [];
  floodExhausted = false;
  let i = 0;
  let sent = 0;
  while (Date.now() < end) {
    if (inFlight >= cap) {
      await new Promise((r) => setImmediate(r));
      continue;
    }
    // Paced: no further ahead of the schedule than one message.
    if (eventsPerS > 0) {
      const dueMs = (sent / eventsPerS) * 1000 - (Date.now() - start);
      if (dueMs > 1) {
        await new Promise((r) => setTimeout(r, Math.min(dueMs, 20)));
        continue;
      }
    }
    if (made.length > 0) {
      const p = made[i];
      if (!p) {
        floodExhausted = true;
        break;
      }
      publishPrepared(p);
      sent += p.events;
    } else
      for (const m of node(i % nodes.length).churn(Date.now())) {
        void publish(m);
        sent += m.events.length;
      }
    i++;
  }
  // Prepared messages left unpublished were never sent: each node goes back to where its last
  // published message left it (its seqs stay consecutive on the stream, its state matches them).
  const rewound = new Set<number>();
  for (const p of made.slice(i)) {
    if (rewound.has(p.node)) continue;
    rewound.add(p.node);
    node(p.node).restore(p.unsent);
  }
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
}

function currentStats(): LoadStats {
  const u = process.cpuUsage();
  return {
    nodes: nodes.length,
    ...stats,
    selfLagMsP99: lags.length > 0 ? Math.round(quantile(lags, 0.99)) : 0,
    cpuMs: (u.user + u.system) / 1000,
    eventsPerChurn: templates?.eventsPerChurn ?? 0,
    eventsInitial: templates?.eventsInitial ?? 0,
    prepared: preparedStats,
    floodExhausted,
  };
}

async function handle(req: LoadRequest): Promise<LoadReply> {
  switch (req.op) {
    case 'start':
      config = req;
      templates = await recordTemplates({
        pods: req.pods,
        containers: req.containers,
        churnSteps: 60,
      });
      bus = new BusPublisher(
        await connectBus({
          servers: req.servers,
          cluster: req.cluster,
          name: 'podscope-bench-loadgen',
          log: () => undefined,
        }),
      );
      ticker = setInterval(tick, TICK_MS);
      return { ok: true, ...currentStats() };
    case 'grow':
      await grow(req.nodes);
      return { ok: true, ...currentStats() };
    case 'churn': {
      churnEveryMs = req.everyMs;
      const now = Date.now();
      for (const d of due) d.churn = now + Math.random() * (req.everyMs || 1);
      lags = [];
      return { ok: true };
    }
    case 'prepare':
      prepare(req.events);
      return { ok: true, ...currentStats() };
    case 'flood':
      await flood(req.ms, req.inFlight, req.eventsPerS);
      return { ok: true, ...currentStats() };
    case 'stats':
      return stats.publishErrors > 0 && stats.messages === 0
        ? { ok: false, error: `every publish failed: ${lastError}` }
        : { ok: true, ...currentStats() };
    case 'stop':
      if (ticker) clearInterval(ticker);
      publisher?.close();
      await bus?.bus.close();
      setTimeout(() => process.exit(0), 10);
      return { ok: true };
  }
}

process.on('message', (raw: LoadEnvelope<LoadRequest>) => {
  void Promise.resolve()
    .then(() => handle(raw.body))
    .catch((err: unknown) => ({
      ok: false as const,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    }))
    .then((body) => process.send?.({ id: raw.id, body } satisfies LoadEnvelope<LoadReply>));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ id: 0, body: { ok: true } } satisfies LoadEnvelope<LoadReply>);
