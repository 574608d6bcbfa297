/**
 * The cluster bus on NATS JetStream (nats.js v3: @nats-io/transport-node, jetstream, kv).
 *
 *   const bus = await openBus({ servers: 'nats://127.0.0.1:4222', cluster: 'default' });
 *   await bus.publish(msg);                      // → { streamSeq, duplicate }
 *   for await (const d of bus.tail(fromSeq)) …   // ordered consumer from a stream seq
 *   await bus.putHeartbeat(hb); await bus.live(); // KV: heartbeats and latest node states
 *
 * One stream per cluster holds every node's events (limits retention: by age and by size,
 * oldest discarded first; de-duplication by Nats-Msg-Id inside the duplicate window). One KV
 * bucket (history 1) holds each node's heartbeat and latest full state. Both are created or
 * brought to the configured limits by `ensure` (idempotent, run by every opener).
 *
 * Only features of nats-server 2.9 are used (single-subject consumer filters, no compression,
 * no per-key TTL): node staleness is judged from heartbeat age, not by key expiry.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import {
  encodeMessage,
  messageId,
  STREAM_MAX_MESSAGE_BYTES,
  summaryOf,
  type MessageSummary,
  type BusMessage,
  type Heartbeat,
  type NodeState,
  type Parsed,
} from './envelope';
import { adoptEvents } from './global';
import { clusterNames, type ClusterNames } from './names';
import { Refusals } from './refusals';
import type * as ParseModule from './parse';

type Parsers = typeof ParseModule;

/** Stream limits: a hot replay buffer; the long timeline lives in PostgreSQL. */
export const DEFAULT_STREAM_LIMITS = {
  maxAgeMs: 72 * 3_600_000,
  maxBytes: 1024 ** 3,
  duplicateWindowMs: 2 * 60_000,
  replicas: 1,
} as const;

export interface StreamLimits {
  maxAgeMs: number;
  maxBytes: number;
  duplicateWindowMs: number;
  /** JetStream replicas (3 on a 3-server production cluster). */
  replicas: number;
}

export interface BusOptions {
  servers: string | string[];
  cluster: string;
  /** The connection's name, as the server lists it (e.g. `podscope-agent node-1`). */
  name?: string;
  limits?: Partial<StreamLimits>;
  log?: (line: string) => void;
  refusals?: Refusals;
  /** Fail instead of retrying while the first connection cannot be made (default: fail). */
  waitOnFirstConnect?: boolean;
}

const nanos = (ms: number) => Math.round(ms * 1_000_000);

export interface Delivered {
  /** JetStream stream sequence of the message. */
  streamSeq: number;
  subject: string;
  message: BusMessage;
}

/**
 * A stream message the writer parsed ahead of the view's tail, kept for the tail (same stream
 * sequence, same bytes) so it is not parsed again — at most this many, and only within this many
 * stream messages of the tail: under a backlog the writer runs far ahead, and parses kept for a
 * tail that comes too late were only garbage that lived long enough to be promoted.
 */
export const PARSED_KEPT = 4_096;

/**
 * What the tail made of the messages the writer has yet to reach (the other way round): only the
 * verdict and the message's summary (envelope.ts summaryOf), not the parse, so many more are kept
 * for as little — under a backlog the tail runs far ahead of the writer, whose batches wait on
 * PostgreSQL, and the writer then parses nothing (before: every message parsed twice, the first
 * parse kept for a writer too far behind to take it).
 */
export const VERDICTS_KEPT = 65_536;

/**
 * How far (in stream messages) the writer may be ahead of the replica's tail and still wait for it
 * (`tailAt`): within it the tail is about to read what the writer fetched, and every message is
 * then parsed once, by the tail. Further ahead — a tail catching up from far behind — the writer
 * parses for itself.
 */
export const TAIL_WAIT_WINDOW = 20_000;

/** The tail's verdict on a message, for the writer: its size and summary, or refused. */
interface Verdict {
  bytes: number;
  summary: MessageSummary | undefined;
}

/** The replica's two readers of the stream (`accept`'s caller). */
export type StreamReader = 'tail' | 'writer';

/**
 * The reading half (parse.ts: the schemas, zod), loaded by the first reader — the console's
 * tail, KV reads and writer — so an agent, which only publishes, never loads it.
 */
let parsers: Parsers | undefined;
const loadParsers = async () => (parsers ??= await import('./parse'));
const readers = () => {
  if (!parsers)
    throw new Error(
      'the bus readers are not loaded (tail, live, watchLive and writerConsumer load them)',
    );
  return parsers;
};

/**
 * The server's logger (pino), loaded only for a caller that brings no log of its own: the agent
 * logs to stderr itself and keeps pino out of its memory (server/agent/footprint.test.ts).
 */
async function serverLog(): Promise<(line: string) => void> {
  const { logFn, rootLogger } = await import('@/server/log');
  return logFn(rootLogger());
}

export class ClusterBus {
  readonly names: ClusterNames;
  readonly refusals: Refusals;
  private kvBucket: KV | undefined;
  /** The writer's parses kept for the tail (PARSED_KEPT). */
  private readonly parsed = new Map<number, { data: Uint8Array; message: BusMessage }>();
  /** The tail's verdicts kept for the writer (VERDICTS_KEPT). */
  private readonly verdicts = new Map<number, Verdict>();
  /** The highest stream sequence each reader has accepted. */
  private readonly reached: Record<StreamReader, number> = { tail: 0, writer: 0 };
  /** Tails of the whole stream running on this bus (what `tailAt` waits for). */
  private tails = 0;
  /** Writers waiting for the tail (`tailAt`): the writer's batch, and the one read ahead. */
  private readonly tailWaiters = new Set<{ seq: number; done: () => void }>();
  /** A wait timed out: none waits again until the tail has caught up with the writer. */
  private tailLate = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    readonly limits: StreamLimits,
    cluster: string,
    private readonly log: (line: string) => void,
    refusals: Refusals | undefined,
  ) {
    this.names = clusterNames(cluster);
    this.refusals = refusals ?? new Refusals(log);
  }

  static async open(options: BusOptions): Promise<ClusterBus> {
    const names = clusterNames(options.cluster); // validates before connecting
    const log = options.log ?? (await serverLog());
    const nc = await connect({
      servers: options.servers,
      name: options.name ?? 'podscope',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      waitOnFirstConnect: options.waitOnFirstConnect ?? false,
    });
    try {
      const jsm = await jetstreamManager(nc, { timeout: 5_000 });
      const bus = new ClusterBus(
        nc,
        jetstream(nc, { timeout: 5_000 }),
        jsm,
        { ...DEFAULT_STREAM_LIMITS, ...options.limits },
        names.cluster,
        log,
        options.refusals,
      );
      await bus.ensure();
      return bus;
    } catch (err) {
      await nc.close().catch(() => {});
      throw err;
    }
  }

  streamConfig(): Partial<StreamConfig> & { name: string } {
    const { maxAgeMs, maxBytes, duplicateWindowMs, replicas } = this.limits;
    return {
      name: this.names.stream,
      subjects: [this.names.eventsFilter],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(maxAgeMs),
      max_bytes: maxBytes,
      duplicate_window: nanos(Math.min(duplicateWindowMs, maxAgeMs)),
      num_replicas: replicas,
      max_msg_size: STREAM_MAX_MESSAGE_BYTES,
    };
  }

  /** Creates the stream and the KV bucket, or brings an existing stream to the configured limits. */
  async ensure(): Promise<void> {
    const cfg = this.streamConfig();
    try {
      await this.jsm.streams.info(cfg.name);
      await this.jsm.streams.update(cfg.name, cfg);
    } catch (err) {
      if (!/stream not found/i.test(String(err))) throw err;
      try {
        await this.jsm.streams.add(cfg);
      } catch (addErr) {
        // Another opener created it in between: fine when the config matches.
        if (!/already in use/i.test(String(addErr))) throw addErr;
      }
    }
    this.kvBucket = await new Kvm(this.js).create(this.names.bucket, {
      history: 1,
      replicas: this.limits.replicas,
      storage: StorageType.File,
    });
  }

  private get kv(): KV {
    if (!this.kvBucket) throw new Error('bus not ensured');
    return this.kvBucket;
  }

  /** Publishes one message with its (node, epoch, seq) message id; waits for the stream's ack. */
  async publish(
    msg: BusMessage,
    timeoutMs = 5_000,
  ): Promise<{ streamSeq: number; duplicate: boolean }> {
    const ack = await this.js.publish(this.names.eventSubject(msg.node), encodeMessage(msg), {
      msgID: messageId(msg),
      timeout: timeoutMs,
    });
    return { streamSeq: ack.seq, duplicate: ack.duplicate };
  }

  putHeartbeat(hb: Heartbeat): Promise<number> {
    return this.kv.put(this.names.heartbeatKey(hb.node), encodeMessage(hb));
  }

  putState(state: NodeState): Promise<number> {
    return this.kv.put(this.names.stateKey(state.node), encodeMessage(state));
  }

  /** The last sequence in the stream (0 when empty). */
  async lastStreamSeq(): Promise<number> {
    const info = await this.jsm.streams.info(this.names.stream);
    return info.state.last_seq;
  }

  /** The first sequence still in the stream (what retention kept). */
  async firstStreamSeq(): Promise<number> {
    const info = await this.jsm.streams.info(this.names.stream);
    return info.state.first_seq;
  }

  /**
   * Parses one stream message; a refusal is counted and logged here and yields undefined. With
   * its stream sequence, a message the writer parsed already is taken from it (the parse is
   * shared, so neither reader may change what it returns); the tail leaves its verdict for the
   * writer (`acceptForWriter`).
   */
  accept(
    subject: string,
    data: Uint8Array,
    streamSeq?: number,
    reader: StreamReader = 'tail',
  ): BusMessage | undefined {
    const message = this.parse(subject, data, streamSeq, reader);
    if (streamSeq !== undefined && reader === 'tail') {
      const behind = streamSeq - this.reached.writer;
      if (behind > 0 && behind <= VERDICTS_KEPT) {
        this.verdicts.set(streamSeq, {
          bytes: data.byteLength,
          summary: message ? summaryOf(message) : undefined,
        });
        if (this.verdicts.size > VERDICTS_KEPT) {
          const oldest = this.verdicts.keys().next();
          if (!oldest.done) this.verdicts.delete(oldest.value);
        }
      }
      for (const w of this.tailWaiters) if (w.seq <= streamSeq) w.done();
    }
    return message;
  }

  /**
   * Resolves once this replica's tail has read stream sequence `seq` (its verdicts then wait for
   * the writer), or after `maxWaitMs`; at once when no tail of the whole stream runs here, when it
   * has read `seq` already, or when it is more than TAIL_WAIT_WINDOW messages behind. The writer
   * calls it before it parses a batch: a writer that runs ahead of the tail parses what the tail
   * then parses again (its parses are kept for the tail only PARSED_KEPT messages ahead), and
   * under a flood the writer, whose batches commit quickly, runs thousands of messages ahead of
   * the tail, which has the view to fold and the streams to feed. Once a wait has timed out (the
   * tail stalled) none waits again until the tail has caught up with the writer.
   */
  tailAt(seq: number, maxWaitMs: number): Promise<void> {
    const behind = seq - this.reached.tail;
    if (this.tails === 0 || behind <= 0 || behind > TAIL_WAIT_WINDOW || this.tailLate)
      return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        seq,
        done: () => {
          clearTimeout(timer);
          this.tailWaiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.tailLate = true;
        waiter.done();
      }, maxWaitMs);
      this.tailWaiters.add(waiter);
    });
  }

  /** Writers waiting for the tail now (`tailAt`). */
  get waitingForTail(): number {
    return this.tailWaiters.size;
  }

  /**
   * The writer's reading of one stream message: what its row needs (rows.ts), or undefined when
   * it is refused. Taken from the tail's verdict when the tail read it first — the same stream
   * sequence, size and message id (`msgId`, the Nats-Msg-Id header, when the message has one) —
   * without parsing it again (the tail counted a refusal already); parsed otherwise, and then
   * kept for the tail when the tail is to come.
   */
  acceptForWriter(
    subject: string,
    data: Uint8Array,
    streamSeq: number,
    msgId?: string,
  ): MessageSummary | undefined {
    if (streamSeq > this.reached.writer) {
      this.reached.writer = streamSeq;
      // Verdicts this writer has passed by far — messages another replica's writer took — go
      // (kept in stream order, so the oldest come first); a redelivery that old is parsed.
      const cut = streamSeq - PARSED_KEPT;
      for (const seq of this.verdicts.keys()) {
        if (seq >= cut) break;
        this.verdicts.delete(seq);
      }
    }
    const verdict = this.verdicts.get(streamSeq);
    if (verdict) {
      this.verdicts.delete(streamSeq);
      const { summary } = verdict;
      if (
        verdict.bytes === data.byteLength &&
        (summary === undefined || msgId === undefined || msgId === messageId(summary))
      )
        return summary;
    }
    const message = this.parse(subject, data, streamSeq, 'writer');
    return message && summaryOf(message);
  }

  private parse(
    subject: string,
    data: Uint8Array,
    streamSeq: number | undefined,
    reader: StreamReader,
  ): BusMessage | undefined {
    if (streamSeq !== undefined) {
      if (streamSeq > this.reached[reader]) this.reached[reader] = streamSeq;
      if (this.tailLate && reader === 'tail' && streamSeq >= this.reached.writer)
        this.tailLate = false;
      const kept = reader === 'tail' ? this.parsed.get(streamSeq) : undefined;
      if (kept) {
        this.parsed.delete(streamSeq);
        if (Buffer.compare(kept.data, data) === 0) return kept.message;
      }
    }
    const parsed = readers().parseBusMessage(
      data,
      this.names.cluster,
      this.names.nodeOfSubject(subject),
    );
    if (parsed.ok) {
      // The parse is this replica's own: its readers take its events under global ids in place.
      adoptEvents(parsed.value);
      const ahead = streamSeq === undefined ? 0 : streamSeq - this.reached.tail;
      if (reader === 'writer' && streamSeq !== undefined && ahead > 0 && ahead <= PARSED_KEPT) {
        this.parsed.set(streamSeq, { data, message: parsed.value });
        if (this.parsed.size > PARSED_KEPT) {
          const oldest = this.parsed.keys().next();
          if (!oldest.done) this.parsed.delete(oldest.value);
        }
      }
      return parsed.value;
    }
    this.refusals.refuse('stream', parsed.reason, subject, parsed.detail);
    return undefined;
  }

  /** Parses kept for the tail (at most PARSED_KEPT). */
  get keptParses(): number {
    return this.parsed.size;
  }

  /** Verdicts kept for the writer (at most VERDICTS_KEPT). */
  get keptVerdicts(): number {
    return this.verdicts.size;
  }

  /**
   * Every accepted message from stream sequence `fromSeq` on, in order, through an ordered
   * consumer (ephemeral; it re-creates itself after a disconnect at the next sequence, so a NATS
   * restart loses nothing). Refused messages are skipped after being counted. Stops on `signal`.
   * With `node`, only that node's subject (a single filter: nats-server 2.9 has no multi-filter).
   */
  async *tail(
    fromSeq: number,
    options: { node?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<Delivered> {
    await loadParsers();
    const consumer = await this.js.consumers.get(this.names.stream, {
      filter_subjects: options.node
        ? this.names.eventSubject(options.node)
        : this.names.eventsFilter,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: Math.max(1, fromSeq),
    });
    const messages = await consumer.consume({ max_messages: 512 });
    const stop = () => void messages.close();
    options.signal?.addEventListener('abort', stop, { once: true });
    const whole = options.node === undefined;
    if (whole) this.tails++;
    try {
      if (options.signal?.aborted) return;
      for await (const m of messages) {
        const message = this.accept(m.subject, m.data, m.seq);
        if (message) yield { streamSeq: m.seq, subject: m.subject, message };
      }
    } finally {
      if (whole && --this.tails === 0) for (const w of this.tailWaiters) w.done();
      options.signal?.removeEventListener('abort', stop);
      await messages.close().catch(() => {});
    }
  }

  /** The writers' shared durable pull consumer (explicit ack), created if missing. */
  async writerConsumer(ackWaitMs = 30_000) {
    await loadParsers();
    const durable = this.names.writerDurable;
    try {
      await this.jsm.consumers.info(this.names.stream, durable);
    } catch (err) {
      if (!/consumer not found/i.test(String(err))) throw err;
      await this.jsm.consumers.add(this.names.stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: this.names.eventsFilter,
        ack_wait: nanos(ackWaitMs),
        max_ack_pending: 20_000,
      });
    }
    return this.js.consumers.get(this.names.stream, durable);
  }

  /**
   * The writers' acknowledgement floor: every stream message up to this sequence has been
   * committed to the timeline database (or refused) and acknowledged. 0 before the writers'
   * consumer exists.
   */
  async writerAckFloor(): Promise<number> {
    try {
      const info = await this.jsm.consumers.info(this.names.stream, this.names.writerDurable);
      return info.ack_floor.stream_seq;
    } catch (err) {
      if (/consumer not found/i.test(String(err))) return 0;
      throw err;
    }
  }

  /** Every heartbeat and node state in KV now (refused entries counted and left out). */
  async live(): Promise<{ heartbeats: Map<string, Heartbeat>; states: Map<string, NodeState> }> {
    const heartbeats = new Map<string, Heartbeat>();
    const states = new Map<string, NodeState>();
    await loadParsers();
    const keys: string[] = [];
    for await (const k of await this.kv.keys()) keys.push(k);
    for (const key of keys) {
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== 'PUT') continue;
      const got = this.acceptLive(key, entry.value);
      if (got?.kind === 'hb') heartbeats.set(got.value.node, got.value);
      if (got?.kind === 'state') states.set(got.value.node, got.value);
    }
    return { heartbeats, states };
  }

  /** Parses a KV entry; a refusal is counted and logged and yields undefined. */
  acceptLive(
    key: string,
    data: Uint8Array,
  ): { kind: 'hb'; value: Heartbeat } | { kind: 'state'; value: NodeState } | undefined {
    const k = this.names.parseKey(key);
    if (!k) {
      this.refusals.refuse('kv', 'subject-mismatch', key, 'not an hb.<node> or state.<node> key');
      return undefined;
    }
    const { parseHeartbeat, parseNodeState } = readers();
    const parsed: Parsed<Heartbeat | NodeState> =
      k.kind === 'hb'
        ? parseHeartbeat(data, this.names.cluster, k.node)
        : parseNodeState(data, this.names.cluster, k.node);
    if (!parsed.ok) {
      this.refusals.refuse('kv', parsed.reason, key, parsed.detail);
      return undefined;
    }
    return k.kind === 'hb'
      ? { kind: 'hb', value: parsed.value as Heartbeat }
      : { kind: 'state', value: parsed.value as NodeState };
  }

  /** Heartbeats and states as they change (the current values first), until `signal`. */
  async *watchLive(
    signal?: AbortSignal,
  ): AsyncGenerator<{ kind: 'hb'; value: Heartbeat } | { kind: 'state'; value: NodeState }> {
    await loadParsers();
    const watch = await this.kv.watch({ ignoreDeletes: true });
    const stop = () => watch.stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      if (signal?.aborted) return;
      for await (const e of watch) {
        if (e.operation !== 'PUT') continue;
        const got = this.acceptLive(e.key, e.value);
        if (got) yield got;
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      watch.stop();
    }
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain().catch(() => this.nc.close());
  }

  logLine(line: string): void {
    this.log(line);
  }
}

export const openBus = (options: BusOptions) => ClusterBus.open(options);
