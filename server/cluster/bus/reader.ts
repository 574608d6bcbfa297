/**
 * A console replica's reader of the stream: it owns both of the replica's readings of it — the
 * ordered tail the view follows (tail.ts) and this replica's share of the writers' durable
 * consumer (writer-consumer.ts) — and parses each message once for both (ParseSharing). Every
 * message read is untrusted: parsed (parse.ts) and either accepted whole or refused, counted and
 * logged (refusals.ts); nothing refused is yielded or written.
 *
 *   const reader = new ReplicaReader(bus);
 *   for await (const d of reader.tail(fromSeq, { signal })) view.apply(d);
 *   const feed = await reader.writerFeed();
 *   const msgs = …await feed.fetch({ max_messages, expires })…;
 *   const summaries = await feed.accept(msgs);   // each message's row summary, or refused
 */
import type { JsMsg } from '@nats-io/jetstream';
import {
  MSG_ID_HEADER,
  messageId,
  summaryOf,
  type BusMessage,
  type MessageSummary,
} from '../envelope';
import { adoptEvents } from '../global';
import type { ClusterNames } from '../names';
import { parseBusMessage } from '../parse';
import type { Refusals } from '../refusals';
import type { BusConnection } from './connection';
import { orderedTail } from './tail';
import { writerAckFloor, writerConsumer } from './writer-consumer';

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
 * PostgreSQL, and the writer then parses nothing.
 */
export const VERDICTS_KEPT = 65_536;

/**
 * How far (in stream messages) the writer may be ahead of the replica's tail and still wait for it:
 * within it the tail is about to read what the writer fetched, and every message is then parsed
 * once, by the tail. Further ahead — a tail catching up from far behind — the writer parses for
 * itself.
 */
export const TAIL_WAIT_WINDOW = 20_000;

/** How long a fetched batch may wait for the replica's tail to read it before the writer parses it. */
export const TAIL_WAIT_MS = 2_000;

/** The tail's verdict on a message, for the writer: its size and summary, or refused. */
interface Verdict {
  bytes: number;
  summary: MessageSummary | undefined;
}

/** The replica's two readers of the stream. */
export type StreamRole = 'tail' | 'writer';

/**
 * The parse-sharing protocol between the replica's two readers of one stream, the view's tail and
 * the writer: each message is parsed once, by whichever reads it first, and the other takes what
 * it needs — the tail the writer's parse (PARSED_KEPT), the writer the tail's verdict and summary
 * (VERDICTS_KEPT) — and a writer ahead of the tail waits for it (`tailAt`, TAIL_WAIT_WINDOW).
 * Used by ReplicaReader, which holds one per replica; a parse is shared, so neither reader may
 * change what it returns.
 */
export class ParseSharing {
  /** The writer's parses kept for the tail (PARSED_KEPT). */
  private readonly parsed = new Map<number, { data: Uint8Array; message: BusMessage }>();
  /** The tail's verdicts kept for the writer (VERDICTS_KEPT). */
  private readonly verdicts = new Map<number, Verdict>();
  /** The highest stream sequence each reader has accepted. */
  private readonly reached: Record<StreamRole, number> = { tail: 0, writer: 0 };
  /** Tails of the whole stream running (what `tailAt` waits for). */
  private tails = 0;
  /** Writers waiting for the tail (`tailAt`): the writer's batch, and the one read ahead. */
  private readonly tailWaiters = new Set<{ seq: number; done: () => void }>();
  /** A wait timed out: none waits again until the tail has caught up with the writer. */
  private tailLate = false;

  constructor(private readonly bus: { names: ClusterNames; refusals: Refusals }) {}

  /**
   * Parses one stream message; a refusal is counted and logged here and yields undefined. With
   * its stream sequence, a message the writer parsed already is taken from it; the tail leaves its
   * verdict for the writer (`acceptForWriter`).
   */
  accept(
    subject: string,
    data: Uint8Array,
    streamSeq?: number,
    role: StreamRole = 'tail',
  ): BusMessage | undefined {
    const message = this.parse(subject, data, streamSeq, role);
    if (streamSeq !== undefined && role === 'tail') {
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

  /** A tail of the whole stream started (the writer may wait for it). */
  tailStarted(): void {
    this.tails++;
  }

  /** A tail of the whole stream ended: with none left, no writer waits. */
  tailEnded(): void {
    if (--this.tails === 0) for (const w of this.tailWaiters) w.done();
  }

  /**
   * Resolves once the tail has read stream sequence `seq` (its verdicts then wait for the
   * writer), or after `maxWaitMs`; at once when no tail of the whole stream runs, when it has read
   * `seq` already, or when it is more than TAIL_WAIT_WINDOW messages behind. The writer waits
   * before it parses a batch: a writer that runs ahead of the tail parses what the tail then
   * parses again (its parses are kept for the tail only PARSED_KEPT messages ahead), and under a
   * flood the writer, whose batches commit quickly, runs thousands of messages ahead of the tail,
   * which has the view to fold and the streams to feed. Once a wait has timed out (the tail
   * stalled) none waits again until the tail has caught up with the writer.
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

  /** Parses kept for the tail (at most PARSED_KEPT). */
  get keptParses(): number {
    return this.parsed.size;
  }

  /** Verdicts kept for the writer (at most VERDICTS_KEPT). */
  get keptVerdicts(): number {
    return this.verdicts.size;
  }

  private parse(
    subject: string,
    data: Uint8Array,
    streamSeq: number | undefined,
    role: StreamRole,
  ): BusMessage | undefined {
    if (streamSeq !== undefined) {
      if (streamSeq > this.reached[role]) this.reached[role] = streamSeq;
      if (this.tailLate && role === 'tail' && streamSeq >= this.reached.writer)
        this.tailLate = false;
      const kept = role === 'tail' ? this.parsed.get(streamSeq) : undefined;
      if (kept) {
        this.parsed.delete(streamSeq);
        if (Buffer.compare(kept.data, data) === 0) return kept.message;
      }
    }
    const { names, refusals } = this.bus;
    const parsed = parseBusMessage(data, names.cluster, names.nodeOfSubject(subject));
    if (parsed.ok) {
      // The parse is this replica's own: its readers take its events under global ids in place.
      adoptEvents(parsed.value);
      const ahead = streamSeq === undefined ? 0 : streamSeq - this.reached.tail;
      if (role === 'writer' && streamSeq !== undefined && ahead > 0 && ahead <= PARSED_KEPT) {
        this.parsed.set(streamSeq, { data, message: parsed.value });
        if (this.parsed.size > PARSED_KEPT) {
          const oldest = this.parsed.keys().next();
          if (!oldest.done) this.parsed.delete(oldest.value);
        }
      }
      return parsed.value;
    }
    refusals.refuse('stream', parsed.reason, subject, parsed.detail);
    return undefined;
  }
}

/** This replica's share of the writers' durable consumer (writer.ts reads it). */
export interface WriterFeed {
  /** One pull from the consumer (nats.js `Consumer.fetch`). */
  fetch(options: { max_messages: number; expires: number }): Promise<AsyncIterable<JsMsg>>;
  /**
   * What each fetched message's row needs (its summary), or undefined for a refused one, in the
   * batch's order: the tail's verdict where the tail read it first (it is waited for, at most
   * the feed's `tailWaitMs`, when it is about to), else parsed here.
   */
  accept(msgs: readonly JsMsg[]): Promise<(MessageSummary | undefined)[]>;
}

export class ReplicaReader {
  private readonly sharing: ParseSharing;

  constructor(readonly bus: BusConnection) {
    this.sharing = new ParseSharing(bus);
  }

  /**
   * Every accepted message from stream sequence `fromSeq` on, in order (tail.ts). Refused
   * messages are skipped after being counted. Stops on `signal`. With `node`, only that node's
   * subject.
   */
  async *tail(
    fromSeq: number,
    options: { node?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<Delivered> {
    const messages = await orderedTail(this.bus, fromSeq, options.node);
    const stop = () => void messages.close();
    options.signal?.addEventListener('abort', stop, { once: true });
    const whole = options.node === undefined;
    if (whole) this.sharing.tailStarted();
    try {
      if (options.signal?.aborted) return;
      for await (const m of messages) {
        const message = this.sharing.accept(m.subject, m.data, m.seq);
        if (message) yield { streamSeq: m.seq, subject: m.subject, message };
      }
    } finally {
      if (whole) this.sharing.tailEnded();
      options.signal?.removeEventListener('abort', stop);
      await messages.close().catch(() => {});
    }
  }

  /** The writers' durable consumer (created if missing), read through this replica's parses. */
  async writerFeed(options: { ackWaitMs?: number; tailWaitMs?: number } = {}): Promise<WriterFeed> {
    const consumer = await writerConsumer(this.bus, options.ackWaitMs);
    const tailWaitMs = options.tailWaitMs ?? TAIL_WAIT_MS;
    return {
      fetch: (o) => consumer.fetch(o),
      accept: async (msgs) => {
        const last = msgs.at(-1);
        if (last) await this.sharing.tailAt(last.seq, tailWaitMs);
        return msgs.map((m) =>
          this.sharing.acceptForWriter(m.subject, m.data, m.seq, m.headers?.get(MSG_ID_HEADER)),
        );
      },
    };
  }

  /** The writers' acknowledgement floor (writer-consumer.ts). */
  writerAckFloor(): Promise<number> {
    return writerAckFloor(this.bus);
  }

  /** Writers waiting for this replica's tail now. */
  get waitingForTail(): number {
    return this.sharing.waitingForTail;
  }
}
