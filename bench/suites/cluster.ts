/**
 * cluster_ingest_events_per_s, cluster_nodes_held and replica_failover_gap_ms: the console in
 * cluster mode (`next start` with PODSCOPE_NATS_URL and PODSCOPE_DATABASE_URL) on a real loopback
 * nats-server (JetStream) and PostgreSQL 15 (test/cluster/harness), fed by one load-generator
 * process publishing as N synthetic agents (bench/lib/loadgen-child.ts: real engine events,
 * heartbeats every 5 s, node states when changed, churn), read by one SSE subscriber
 * (cluster.watch with the lean wire, as the browser reads it).
 *
 * - ingest: 100 nodes of 30 pods × 2 containers; churn relists offered at 25,000 events a second
 *   (at most 256 unacknowledged) for the window, made and encoded before it (each agent makes its
 *   own on its own node; here one process would otherwise take a core of the two measured); the
 *   figure is the events published over the time until the last of them has reached both the
 *   subscriber and PostgreSQL (the writers' commit) — the rate the whole path sustains, backlog
 *   included.
 * - nodes held: nodes of 10 pods × 2 containers added along a ladder, each churning once every
 *   30 s on average (Poisson); a level is held when, over the window, the p99 of (arrival at the
 *   subscriber − event time) is under 2 s, the generator itself kept its schedule, and the console
 *   judged every node reachable (no false Ready=Unknown from late heartbeats).
 * - failover: a second replica, once it has caught up with the first (it replays the stream from
 *   its start); the subscriber follows replica A under churn, A is SIGKILLed, the
 *   subscriber reconnects to B at once with its last event id; the figure is the time from the
 *   kill to the first new event from B (none may repeat an id already received).
 */
import type { NodeSummary } from '@/server/engine/api';
import { startNatsAndPostgres } from '@/test/cluster/harness';
import { WireDecoder } from '@/lib/timeline/wire';
import { streamSeqOfGid } from '@/server/cluster/global';
import { summarizeFile, type FlameLine } from '../lib/profile';
import { ConsoleServer, procCpuMs, ROOT, treeCpuMs } from '../lib/server';
import { LoadGenerator } from '../lib/loadgen-process';
import { nodeOption, processTuning } from '@/deploy/kubernetes/testing/process-tuning';
import { SseReader, watchFrame, watchUrl } from '../lib/sse';
import { quantile, round, sleep } from '../lib/stats';
import pg from 'pg';

export interface ClusterOptions {
  appDir?: string | undefined;
  log?: (line: string) => void;
  ingestWindowS?: number;
  ladder?: number[];
  windowS?: number;
  /** CPU profiles of the console (ingest: replica A; nodes held: replica B) into this folder. */
  profileDir?: string;
  /**
   * Only the ingest part (`--cluster-parts ingest`): cluster_ingest_events_per_s and its details;
   * the failover and nodes-held keys are then not measured (null).
   */
  ingestOnly?: boolean;
}

const CLUSTER = 'bench';
const LAG_P99_MS = 2_000;
/**
 * The ingest flood offers this many events a second for its window (above the target: what the
 * path sustains is what comes through), made ahead of it.
 */
const OFFERED_EVENTS_PER_S = 25_000;

/** A cluster.watch subscriber that decodes everything and keeps what the benchmark reads. */
class Subscriber {
  reader: SseReader;
  private readonly decoder = new WireDecoder();
  events = 0;
  snapshots = 0;
  lastId: string | undefined;
  lags: number[] = [];
  ids = new Set<string>();
  repeated = 0;
  /** Times the server ended the stream because this subscriber fell behind (it then resumes). */
  resumes = 0;
  /** Streams that ended otherwise (it reconnects then too), and how. */
  ended: string[] = [];
  /** When this subscriber first connected (ms). */
  private readonly since = Date.now();
  /** Bytes of the streams read before the current one: on the wire, and decoded. */
  private closedBytes = { wire: 0, decoded: 0 };

  constructor(
    private readonly base: string,
    lastEventId?: string,
  ) {
    this.reader = new SseReader(watchUrl(base, lastEventId));
  }

  /** Every stream's bytes so far: on the wire (compressed as the server sent them), and decoded. */
  bytes(): { wire: number; decoded: number } {
    return {
      wire: this.closedBytes.wire + this.reader.totalBytes,
      decoded: this.closedBytes.decoded + this.reader.decodedBytes,
    };
  }

  private reopen(): Promise<void> {
    this.reader.close();
    this.closedBytes.wire += this.reader.totalBytes;
    this.closedBytes.decoded += this.reader.decodedBytes;
    this.reader = new SseReader(watchUrl(this.base, this.lastId));
    return this.reader.open();
  }

  /** Reads what arrived; returns the number of events in it. */
  async pump(waitMs: number): Promise<number> {
    await this.reader.next(waitMs);
    let n = 0;
    for (const f of this.reader.take()) {
      if (f.event === 'serialized-error') {
        // As the console's tRPC client does: resume from the last event id (from the timeline).
        if (!/fell behind/.test(f.data ?? '')) throw new Error(`cluster.watch: ${f.data ?? ''}`);
        await this.reopen();
        this.resumes++;
        return n;
      }
      const w = watchFrame(f, this.decoder);
      if (f.id) {
        if (this.ids.has(f.id)) this.repeated++;
        this.ids.add(f.id);
        this.lastId = f.id;
      }
      if (w.type === 'snapshot') this.snapshots++;
      for (const e of w.events) this.lags.push(f.at - e.t);
      n += w.events.length;
    }
    this.events += n;
    if (this.lags.length > 200_000) this.lags = this.lags.slice(-100_000);
    if (this.reader.done) {
      // The server closed the stream: reconnect from the last event id, as the tRPC client does.
      const why = this.reader.error;
      const how = why instanceof Error ? why.message : why === undefined ? 'closed' : 'error';
      this.ended.push(`${how} after ${round((Date.now() - this.since) / 1000, 1)} s`);
      if (this.ended.length > 20)
        throw new Error(`cluster.watch ended ${this.ended.length} times: ${this.ended.join('; ')}`);
      await this.reopen();
    }
    return n;
  }
}

/**
 * A failed level's reason: the message, and where it came from — a bare `read ECONNRESET` (seen
 * at 7,500 nodes in two full runs) says neither which connection nor which client: the first
 * frames of the stack outside node's internals do (pg, the SSE reader, the load generator).
 */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const frames = (err.stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('at ') && !l.includes('node:internal'))
    .slice(0, 3);
  const where = frames.length > 0 ? ` [${frames.join(' ← ')}]` : '';
  return `${err.message}${code && !err.message.includes(code) ? ` (${code})` : ''}${where}`;
}

/** The cluster timeline's size in PostgreSQL (every partition, its indexes and TOAST) and its events. */
async function pgStoredBytes(url: string): Promise<{ bytes: number; events: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(i.inhrelid)) AS bytes FROM pg_inherits i
       WHERE i.inhparent = 'cluster_messages'::regclass`,
    );
    return { bytes: Number(r.rows[0]?.bytes ?? 0), events: await pgCount(url) };
  } finally {
    await c.end();
  }
}

async function pgCount(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>(
      'SELECT coalesce(sum(count), 0) AS n FROM cluster_messages',
    );
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

/** The last stream sequence the replica's view applied (its /metrics), or 0 when unreadable. */
async function viewStreamSeq(base: string): Promise<number> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^podscope_cluster_stream_seq (\d+)/m.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export async function benchCluster(options: ClusterOptions = {}) {
  const log = options.log ?? (() => undefined);
  const [nats, pgi] = await startNatsAndPostgres();
  const servers: ConsoleServer[] = [];
  const gens: LoadGenerator[] = [];
  try {
    const dbUrl = await pgi.createDatabase('bench');
    const env = {
      PODSCOPE_NATS_URL: nats.url,
      PODSCOPE_DATABASE_URL: dbUrl,
      PODSCOPE_CLUSTER: CLUSTER,
      PODSCOPE_SIM_NODES: '0',
      // V8's thread pool as the console Deployment sizes it (deployment.yaml says why). Not its
      // heap limit: the nodes-held ladder climbs to thousands of nodes, where the console has
      // measured 0.9–1.3 GiB resident, past what the base manifest is sized for (deploy/README
      // "The console": sizing).
      NODE_OPTIONS: nodeOption(processTuning(ROOT, 'console').NODE_OPTIONS, 'v8-pool-size') ?? '',
    };
    // Synthetic agents: `pods` pods × 2 containers each, heartbeating every 5 s as the agent does.
    const generator = (prefix: string, pods: number) =>
      LoadGenerator.start({
        servers: nats.url,
        cluster: CLUSTER,
        prefix,
        pods,
        containers: 2,
        heartbeatMs: 5_000,
      });
    const start = async () => {
      const s = await ConsoleServer.start({
        ...(options.appDir ? { appDir: options.appDir } : {}),
        ...(options.profileDir ? { profileDir: options.profileDir } : {}),
        env,
      });
      servers.push(s);
      return s;
    };

    // ── ingest ──
    const a = await start();
    const ingestGen = await generator('ingest', 30);
    gens.push(ingestGen);
    const sub = new Subscriber(a.url);
    await sub.reader.open();
    while (sub.snapshots === 0) await sub.pump(60_000);
    const grown = await ingestGen.grow(100);
    log(`  ingest: 100 nodes published their first relists (${grown.events} events)`);
    // Through when PostgreSQL holds every event published and the subscriber's position (its
    // last event id, a global id) has reached the last message's stream sequence — a resume that
    // restarts from a snapshot carries events inside the state, so counting events would not do.
    // When each side got there (the later one is the pipeline's): ms since `from`. Also when the
    // replica's view had applied it (its /metrics), which says whether a late subscriber waited
    // on the view or on its stream.
    const through = { subscriber_s: 0, postgres_s: 0, view_s: 0 };
    const caughtUp = async (
      want: { events: number; lastStreamSeq: number },
      limitMs: number,
      from = Date.now(),
    ) => {
      const t0 = Date.now();
      const at = () => (sub.lastId === undefined ? 0 : streamSeqOfGid(Number(sub.lastId)));
      let subAt: number | undefined;
      let pgAt: number | undefined;
      let viewAt: number | undefined;
      let polled = 0;
      while (Date.now() - t0 < limitMs) {
        await sub.pump(500);
        if (subAt === undefined && at() >= want.lastStreamSeq) subAt = Date.now();
        // A count (a new connection) and a scrape at most every 250 ms: they must not load what
        // they measure.
        if ((pgAt === undefined || viewAt === undefined) && Date.now() - polled >= 250) {
          polled = Date.now();
          if (pgAt === undefined && (await pgCount(dbUrl)) >= want.events) pgAt = Date.now();
          if (viewAt === undefined && (await viewStreamSeq(a.url)) >= want.lastStreamSeq)
            viewAt = Date.now();
        }
        if (subAt !== undefined && pgAt !== undefined) {
          through.subscriber_s = round((subAt - from) / 1000, 1);
          through.postgres_s = round((pgAt - from) / 1000, 1);
          through.view_s = round((Math.min(viewAt ?? subAt, subAt) - from) / 1000, 1);
          return Math.max(subAt, pgAt);
        }
      }
      throw new Error(
        `the pipeline did not catch up within ${limitMs / 1000} s: subscriber at stream seq ${at()}, PostgreSQL ${await pgCount(dbUrl)} events; published ${want.events} events up to stream seq ${want.lastStreamSeq}`,
      );
    };
    await caughtUp(grown, 300_000);
    const windowS = options.ingestWindowS ?? 20;
    // The flood's messages are made before the window (each agent makes its own on its own node;
    // here one process makes them all, on the machine being measured).
    const made = await ingestGen.prepare(windowS * OFFERED_EVENTS_PER_S);
    log(
      `  ingest: ${made.prepared.events} events in ${made.prepared.messages} messages made ahead (${round(made.prepared.ms / 1000, 1)} s)`,
    );
    const e0 = sub.events;
    const bytes0 = sub.bytes();
    const flame: { ingest?: FlameLine[]; nodes_held?: FlameLine[] } = {};
    a.startProfile();
    // Every part's CPU over the flood and its backlog: on one 2-core machine they share the
    // cores, so what each costs per event says where a higher rate has to come from.
    const parts = {
      console: () => a.cpuMs(),
      postgres: () => (pgi.pid ? treeCpuMs(pgi.pid) : Number.NaN),
      nats: () => (nats.pid ? procCpuMs(nats.pid) : Number.NaN),
      generator: () => procCpuMs(ingestGen.pid),
      subscriber: () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      },
    };
    const partsCpu0 = Object.fromEntries(Object.entries(parts).map(([k, f]) => [k, f()]));
    const t0 = Date.now();
    const flooding = ingestGen.flood(windowS * 1000, 256, OFFERED_EVENTS_PER_S);
    while (!(await Promise.race([flooding.then(() => true), sleep(200).then(() => false)])))
      await sub.pump(0);
    const flooded = await flooding;
    const published = flooded.events - grown.events;
    const t1 = await caughtUp(flooded, 300_000, t0);
    const partsUs = Object.fromEntries(
      Object.entries(parts).map(([k, f]) => [
        k,
        round(((f() - (partsCpu0[k] as number)) * 1000) / published, 1),
      ]),
    );
    const stored = await pgStoredBytes(dbUrl);
    const ingestProfile = await a.endProfile();
    if (ingestProfile) flame.ingest = summarizeFile(ingestProfile, 25);
    const ingestRate = published / ((t1 - t0) / 1000);
    log(
      `  ingest: ${published} events in ${windowS} s published, through to PostgreSQL and the subscriber after ${round((t1 - t0) / 1000, 1)} s: ${Math.round(ingestRate)} events/s`,
    );
    const bytes1 = sub.bytes();
    const ingestDetails = {
      nodes: 100,
      pods_per_node: 30,
      events_published: published,
      publish_s: windowS,
      through_s: round((t1 - t0) / 1000, 1),
      /** When the subscriber, and when PostgreSQL, had the last event (s after the flood began). */
      ...through,
      publish_rate: Math.round(published / windowS),
      /** Messages made ahead of the window, and whether the flood used them all before it ended. */
      prepared_events: made.prepared.events,
      prepared_messages: made.prepared.messages,
      prepared_ran_out: flooded.floodExhausted,
      subscriber_events: sub.events - e0,
      subscriber_snapshots: sub.snapshots,
      subscriber_resumes: sub.resumes,
      subscriber_reconnects: sub.ended,
      /**
       * The stream's bytes per event over the flood and its backlog: on the wire (as the console
       * compressed them) and decoded (what EventSource parses); resumes included.
       */
      subscriber_bytes_per_event: {
        wire: round((bytes1.wire - bytes0.wire) / Math.max(1, sub.events - e0), 1),
        decoded: round((bytes1.decoded - bytes0.decoded) / Math.max(1, sub.events - e0), 1),
      },
      /** PostgreSQL's size of the cluster timeline (tables and indexes) per event it holds. */
      postgres_bytes_per_event: round(stored.bytes / Math.max(1, stored.events), 0),
      /** The console's CPU time per event over the flood and its backlog (machine load aside). */
      server_cpu_us_per_event: partsUs.console,
      generator_cpu_pct: round(((flooded.cpuMs - grown.cpuMs) / (windowS * 1000)) * 100, 1),
      server_rss_mb: round(a.rssMb(), 0),
      /**
       * CPU per event of each part over the flood and its backlog (µs): the console, PostgreSQL
       * (postmaster and backends), nats-server, the load generator, and this process (the SSE
       * subscriber and the PostgreSQL counts). Two cores give 2,000,000 µs a second: the sum
       * bounds the rate.
       */
      cpu_us_per_event_by_part: {
        ...partsUs,
        total: round(
          Object.values(partsUs).reduce((x, y) => x + (Number.isNaN(y) ? 0 : y), 0),
          1,
        ),
      },
    };
    sub.reader.close();
    await ingestGen.stop();
    gens.length = 0;
    if (options.ingestOnly)
      return {
        cluster_ingest_events_per_s: Math.round(ingestRate),
        details: { ingest: ingestDetails, ...(flame.ingest ? { flame } : {}) },
      };

    // ── failover (two replicas, the ingest nodes churning) ──
    const b = await start();
    const churnGen = await generator('failover', 10);
    gens.push(churnGen);
    await churnGen.grow(50);
    await churnGen.churn(1_000);
    // B started after the ingest flood and replays the stream from its start: a standby replica
    // is caught up, so the kill waits until B has applied what A has (else the figure would be
    // B's replay of the flood, not the failover).
    const caughtUpFrom = Date.now();
    for (;;) {
      const [ha, hb] = await Promise.all([a.health(), b.health()]);
      if (ha && hb && hb.seq >= ha.seq) break;
      if (Date.now() - caughtUpFrom > 300_000)
        throw new Error(`replica B did not catch up with A within 300 s (${hb?.seq} < ${ha?.seq})`);
      await sleep(500);
    }
    const bCaughtUpS = round((Date.now() - caughtUpFrom) / 1000, 1);
    log(`  failover: replica B caught up with A after ${bCaughtUpS} s`);
    const onA = new Subscriber(a.url);
    await onA.reader.open();
    const until = Date.now() + 10_000;
    while (Date.now() < until || onA.lastId === undefined) await onA.pump(500);
    const lastA = onA.lastId;
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    onA.reader.close();
    const onB = new Subscriber(b.url, lastA);
    onB.ids = new Set(onA.ids);
    await onB.reader.open();
    let gapMs: number | undefined;
    while (gapMs === undefined && Date.now() - killedAt < 60_000)
      if ((await onB.pump(1_000)) > 0) gapMs = Date.now() - killedAt;
    if (gapMs === undefined) throw new Error('no event from replica B within 60 s of killing A');
    if (onB.repeated > 0) throw new Error(`replica B repeated ${onB.repeated} event ids`);
    log(`  failover: first event from replica B ${gapMs} ms after A was killed`);
    onB.reader.close();
    await churnGen.stop();
    gens.length = 0;

    // The earlier phases' synthetic nodes stopped heartbeating with their generators: once the
    // grace period has passed B judges them unreachable, and every change of that judgement sends
    // each watcher a fresh snapshot of the whole cluster. Let that happen before the ladder, so
    // its windows measure following N live nodes, not the earlier nodes' contact running out.
    const settled = Date.now();
    for (;;) {
      const list = await b.query<NodeSummary[]>('nodes.list');
      const stale = list.filter((x) => !x.name.startsWith('held-') && x.connected);
      if (stale.length === 0) break;
      if (Date.now() - settled > 180_000)
        throw new Error(`${stale.length} nodes of the earlier phases still judged reachable`);
      await sleep(2_000);
    }
    log(
      `  earlier phases' nodes judged unreachable after ${round((Date.now() - settled) / 1000, 0)} s`,
    );

    // ── nodes held, on replica B ──
    const levels: {
      nodes: number;
      held: boolean;
      lag_p50_ms: number;
      lag_p99_ms: number;
      unreachable: number;
      generator_lag_p99_ms: number;
      events: number;
      server_cpu_pct: number;
      server_rss_mb: number;
      snapshots: number;
      /** Why the level could not be measured (a connection lost, the replica gone). */
      error?: string;
    }[] = [];
    const gen = await generator('held', 10);
    gens.push(gen);
    const watcher = new Subscriber(b.url);
    await watcher.reader.open();
    while (watcher.snapshots === 0) await watcher.pump(60_000);
    const levelWindowS = options.windowS ?? 30;
    let held = 0;
    b.startProfile();
    for (const n of options.ladder ?? [1_000, 2_500, 5_000, 7_500, 10_000]) {
      // A level that fails (a connection lost, the replica or the generator gone) is a level not
      // held, said with its reason: the levels below it and the suite's other keys still stand.
      const failed = await measureLevel(n).then(
        () => undefined,
        (err: unknown) => describeFailure(err),
      );
      if (failed !== undefined) {
        const replica = b.child.exitCode !== null || b.child.signalCode !== null;
        const error = `${failed}${replica ? ` (replica B exited: ${b.child.exitCode ?? b.child.signalCode})` : ''}`;
        // What replica B said last: a refused or reset connection alone does not say why.
        log(`  replica B's last output:\n${b.outputTail(3_000)}`);
        levels.push({
          nodes: n,
          held: false,
          lag_p50_ms: 0,
          lag_p99_ms: 0,
          unreachable: 0,
          generator_lag_p99_ms: 0,
          events: 0,
          server_cpu_pct: 0,
          server_rss_mb: 0,
          snapshots: 0,
          error,
        });
        log(`  ${n} nodes: NOT held — the level failed: ${error}`);
      }
      const level = levels[levels.length - 1];
      if (!level?.held) break;
      held = n;
    }
    async function measureLevel(n: number): Promise<void> {
      await gen.churn(0);
      const g = await gen.grow(n);
      // The new nodes' first relists through to the subscriber before measuring.
      const catchUp = Date.now();
      const at = () => (watcher.lastId === undefined ? 0 : streamSeqOfGid(Number(watcher.lastId)));
      while (at() < g.lastStreamSeq && Date.now() - catchUp < 600_000) await watcher.pump(1_000);
      await gen.churn(30_000);
      watcher.lags = [];
      const cpu0 = b.cpuMs();
      const w0 = Date.now();
      const e0 = watcher.events;
      const s0 = watcher.snapshots;
      while (Date.now() - w0 < levelWindowS * 1000) await watcher.pump(1_000);
      const list = await b.query<NodeSummary[]>('nodes.list');
      const stats = await gen.stats();
      const lagP99 = quantile(watcher.lags, 0.99);
      const unreachable = list.filter((x) => x.name.startsWith('held-') && !x.connected);
      const level = {
        nodes: n,
        held:
          watcher.lags.length > 0 &&
          lagP99 < LAG_P99_MS &&
          unreachable.length === 0 &&
          stats.selfLagMsP99 < 500,
        lag_p50_ms: Math.round(quantile(watcher.lags, 0.5)),
        lag_p99_ms: Math.round(lagP99),
        unreachable: unreachable.length,
        generator_lag_p99_ms: stats.selfLagMsP99,
        events: watcher.events - e0,
        server_cpu_pct: round(((b.cpuMs() - cpu0) / (Date.now() - w0)) * 100, 1),
        server_rss_mb: round(b.rssMb(), 0),
        /** Fresh snapshots the subscriber was sent in the window (node contact re-judged). */
        snapshots: watcher.snapshots - s0,
      };
      levels.push(level);
      log(
        `  ${n} nodes: ${level.held ? 'held' : 'NOT held'} (lag p50 ${level.lag_p50_ms} ms, p99 ${level.lag_p99_ms} ms, ${level.unreachable} judged unreachable, generator late by ${level.generator_lag_p99_ms} ms p99, ${level.snapshots} snapshots, server ${level.server_cpu_pct} % CPU, RSS ${level.server_rss_mb} MiB)`,
      );
    }
    watcher.reader.close();
    const heldProfile = await b.endProfile();
    if (heldProfile) flame.nodes_held = summarizeFile(heldProfile, 25);
    return {
      cluster_ingest_events_per_s: Math.round(ingestRate),
      cluster_nodes_held: held,
      replica_failover_gap_ms: gapMs,
      details: {
        ingest: ingestDetails,
        nodes_held: {
          pods_per_node: 10,
          containers_per_pod: 2,
          heartbeat_ms: 5_000,
          churn_every_ms: 30_000,
          window_s: levelWindowS,
          lag_p99_limit_ms: LAG_P99_MS,
          levels,
        },
        failover: {
          replicas: 2,
          nodes: 50,
          churn_every_ms: 1_000,
          /** How long B took to replay the stream up to A before A was killed. */
          b_caught_up_s: bCaughtUpS,
        },
        ...(flame.ingest || flame.nodes_held ? { flame } : {}),
      },
    };
  } catch (err) {
    // A replica that died (A is killed on purpose): say how, with its last output.
    for (const s of servers.slice(1))
      if (s.child.exitCode !== null || s.child.signalCode !== null) {
        try {
          s.assertAlive();
        } catch (dead) {
          throw new Error(`${String(err)}; ${dead instanceof Error ? dead.message : String(dead)}`);
        }
      }
    throw err;
  } finally {
    for (const g of gens) await g.stop().catch(() => undefined);
    for (const s of servers) await s.stop().catch(() => undefined);
    await nats.destroy();
    await pgi.destroy();
  }
}
