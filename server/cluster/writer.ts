/**
 * The timeline writer: moves events from the bus into the cluster timeline (PostgreSQL).
 *
 * Every writer (one per console replica, or a separate deployment) pulls from the same durable
 * consumer, so JetStream hands each message to one writer at a time. A batch is inserted in one
 * statement (one row per message, idempotent by node, epoch, seq) and acknowledged only after the
 * commit:
 *  - a writer that dies mid-batch leaves its messages unacknowledged; after ack_wait JetStream
 *    redelivers them to another writer (or to it, restarted) — nothing is lost;
 *  - a commit whose ack was lost is redelivered and inserts nothing — nothing is doubled;
 *  - while the database is down the writer retries the same batch with back-off, telling
 *    JetStream it is still working on it (so no other writer takes it meanwhile), and
 *    acknowledges nothing until it commits.
 * Refused messages (malformed, foreign) are counted, logged and terminated (never redelivered).
 * A batch is bounded in bytes as well as in messages (WRITER_BATCH_BYTES), whatever the agents
 * publish.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { logFn, rootLogger } from '@/server/log';
import type { ReplicaReader, WriterFeed } from './bus/reader';
import { STREAM_MAX_MESSAGE_BYTES, type MessageSummary } from './envelope';
import type { ClusterTimeline, PreparedInsert, StoredMessage } from './timeline/timeline';

export interface WriterOptions {
  /** The replica's reader: the writer reads the writers' durable consumer through it. */
  reader: ReplicaReader;
  timeline: ClusterTimeline;
  /** Messages per batch (default 1,000). */
  batch?: number;
  /** Message bytes per batch (default WRITER_BATCH_BYTES). */
  batchBytes?: number;
  /** How long a fetch waits for messages (default and minimum 1 s, JetStream's floor). */
  fetchWaitMs?: number;
  /** JetStream redelivers a message not acknowledged within this (default 30 s). */
  ackWaitMs?: number;
  /** How long a batch may wait for the replica's tail (default TAIL_WAIT_MS, bus/reader.ts). */
  tailWaitMs?: number;
  log?: (line: string) => void;
  /** Test hook: runs after a batch is read and before it is committed (each try). */
  beforeCommit?: (batch: { messages: number; bytes: number }) => Promise<void>;
}

export interface WriterStats {
  batches: number;
  messages: number;
  inserted: number;
  /** Events already in the timeline (redeliveries, republished messages). */
  duplicates: number;
  refused: number;
  /** Failed commits (each retried). */
  failures: number;
  /** True from a failed commit or read until the next one succeeds (health reports it). */
  failing: boolean;
  lastError?: string;
}

/**
 * What one batch may hold in message bytes. nats.js cannot bound a fetch by messages and bytes
 * together (and a fetch bounded by bytes alone takes at most 100 messages and waits out its
 * expiry at a burst's end), so each fetch asks for no more messages than the room left would
 * take were every one as large as the stream allows, and a batch takes fetches until it has its
 * messages, the consumer has none left, or there is no room. The writer holds two batches at
 * most: the one committing and the one read ahead.
 */
export const WRITER_BATCH_BYTES = 64 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fetched batch, parsed and made ready to insert. */
interface Batch {
  msgs: JsMsg[];
  /** The messages' bytes. */
  bytes: number;
  accepted: JsMsg[];
  refused: JsMsg[];
  insert: PreparedInsert;
}

/** A fetch on its way: its batch once it is in (parsed and prepared as soon as it arrives). */
interface Ahead {
  batch: Batch | undefined;
  done: Promise<Batch>;
}

export class ClusterWriter {
  readonly stats: WriterStats = {
    batches: 0,
    messages: 0,
    inserted: 0,
    duplicates: 0,
    refused: 0,
    failures: 0,
    failing: false,
  };
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly log: (line: string) => void;

  constructor(private readonly options: WriterOptions) {
    this.log = options.log ?? logFn(rootLogger());
  }

  start(): this {
    this.loop ??= this.run().catch((err: unknown) => {
      this.log(`cluster writer stopped: ${err instanceof Error ? err.message : String(err)}`);
    });
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /**
   * Reads batches and commits them, one fetch ahead: the next batch is on its way while the
   * current one is being committed (JetStream delivers it meanwhile) and is parsed and prepared
   * (its rows serialised) as soon as it arrives, so the bus, this process and the database work
   * at once instead of in turn. The batch read ahead is told "still working" while a commit
   * retries, like the batch being committed, and handed back (nak) when the writer stops.
   */
  private async run(): Promise<void> {
    const { reader } = this.options;
    const { nc } = reader.bus;
    let backoff = 100;
    let feed: WriterFeed | undefined;
    let ahead: Ahead | undefined;
    const batch = this.options.batch ?? 1_000;
    const batchBytes = this.options.batchBytes ?? WRITER_BATCH_BYTES;
    const expires = Math.max(1_000, this.options.fetchWaitMs ?? 1_000);
    /** What the next batch asks for (see below). */
    let wanted = batch;
    const read = async (): Promise<{ msgs: JsMsg[]; bytes: number }> => {
      feed ??= await reader.writerFeed({
        ...(this.options.ackWaitMs !== undefined ? { ackWaitMs: this.options.ackWaitMs } : {}),
        ...(this.options.tailWaitMs !== undefined ? { tailWaitMs: this.options.tailWaitMs } : {}),
      });
      const msgs: JsMsg[] = [];
      let bytes = 0;
      let target = wanted;
      let left = 0;
      // The batch's fetches together wait no longer than one would (JetStream's floor aside).
      const deadline = Date.now() + expires;
      while (msgs.length < target) {
        const room = Math.floor((batchBytes - bytes) / STREAM_MAX_MESSAGE_BYTES);
        const ask = Math.min(target - msgs.length, msgs.length === 0 ? Math.max(1, room) : room);
        if (ask <= 0) break;
        const before = msgs.length;
        let ended = false;
        try {
          const it = await feed.fetch({
            max_messages: ask,
            expires: Math.max(1_000, deadline - Date.now()),
          });
          for await (const m of it) {
            msgs.push(m);
            bytes += m.data.byteLength;
          }
        } catch (err) {
          // The pull ended early (heartbeats missed while the event loop was busy, a disconnect):
          // what it delivered is still this writer's to commit and acknowledge. Dropped, it sat
          // unacknowledged until JetStream redelivered it after ack_wait (30 s without a commit).
          if (msgs.length === 0) throw err;
          this.note(`a fetch ended early after ${msgs.length} messages`, err);
          ended = true;
        }
        left = msgs.at(-1)?.info.pending ?? 0;
        // A fetch that came back short found the stream quiet: the batch is what came.
        if (ended || msgs.length - before < ask) break;
        // Otherwise the batch goes on as one fetch for all of it would have — but asks for no
        // more than the consumer has left, if it has any, so it comes back as soon as they are in.
        if (left > 0) target = Math.min(target, msgs.length + left);
      }
      // Likewise the next batch (each message says how many the consumer had left), so at the
      // end of a burst it comes back at once rather than waiting out its expiry for a full batch;
      // with none left it asks for a full batch.
      wanted = left > 0 ? Math.min(batch, left) : batch;
      return { msgs, bytes };
    };
    const fetchAhead = (): Ahead => {
      const done = read().then(async ({ msgs, bytes }) => {
        const summaries = await (feed as WriterFeed).accept(msgs);
        return (a.batch = this.prepare(msgs, bytes, summaries));
      });
      const a: Ahead = { batch: undefined, done };
      // Read below (an unread failure would be an unhandled rejection meanwhile).
      done.catch(() => undefined);
      return a;
    };
    try {
      while (!this.stopped) {
        let batch: Batch;
        try {
          batch = await (ahead ?? fetchAhead()).done;
          ahead = undefined;
          backoff = 100;
          if (batch.msgs.length === 0) this.stats.failing = false;
        } catch (err) {
          ahead = undefined;
          if (this.stopped || nc.isClosed()) return;
          this.stats.failing = true;
          this.note(`reading from the bus failed`, err);
          feed = undefined;
          await sleep(backoff);
          backoff = Math.min(backoff * 2, 5_000);
          continue;
        }
        if (batch.msgs.length === 0) continue;
        if (!this.stopped) ahead = fetchAhead();
        await this.commit(batch, () => ahead?.batch?.msgs ?? []);
      }
    } finally {
      // A batch read ahead and not committed: back to the other writers now, not after ack_wait.
      const left = ahead;
      if (left)
        await left.done.then(
          ({ msgs }) => {
            if (!nc.isClosed()) for (const m of msgs) m.nak();
          },
          () => undefined,
        );
    }
  }

  /**
   * Prepares a fetched batch's insert from what the reader made of each message (`summaries`,
   * refusals counted and logged by the reader): each accepted message is stored as it was read
   * (its bytes), one row per message.
   */
  private prepare(
    msgs: JsMsg[],
    bytes: number,
    summaries: readonly (MessageSummary | undefined)[],
  ): Batch {
    const { timeline } = this.options;
    const stored: StoredMessage[] = [];
    const refused: JsMsg[] = [];
    const accepted: JsMsg[] = [];
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i] as JsMsg;
      const summary = summaries[i];
      if (!summary) {
        refused.push(m);
        continue;
      }
      accepted.push(m);
      stored.push({ streamSeq: m.seq, summary, body: m.data });
    }
    return { msgs, bytes, accepted, refused, insert: timeline.prepareInsert(stored) };
  }

  private async commit(batch: Batch, readAhead: () => readonly JsMsg[]): Promise<void> {
    const { timeline } = this.options;
    const { nc } = this.options.reader.bus;
    const { msgs, accepted, refused } = batch;
    const count = batch.insert.count;
    let backoff = 200;
    for (;;) {
      if (this.stopped || nc.isClosed()) return; // unacknowledged: redelivered elsewhere
      try {
        await this.options.beforeCommit?.({ messages: msgs.length, bytes: batch.bytes });
        if (nc.isClosed()) return;
        const inserted = await timeline.insertPrepared(batch.insert);
        this.stats.failing = false;
        this.stats.inserted += inserted;
        this.stats.duplicates += count - inserted;
        break;
      } catch (err) {
        this.stats.failures++;
        this.stats.failing = true;
        this.note(`writing ${count} events to ${timeline.where} failed (will retry)`, err);
        for (const m of accepted) m.working();
        for (const m of readAhead()) m.working();
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
    for (const m of accepted) m.ack();
    // no reason text: nats-server 2.9 does not parse `+TERM <reason>` and would leave it pending
    for (const m of refused) m.term();
    this.stats.refused += refused.length;
    this.stats.messages += msgs.length;
    this.stats.batches++;
    await nc.flush().catch(() => {});
  }

  private note(what: string, err: unknown): void {
    const msg = err instanceof Error ? err.message : String(err);
    if (this.stats.lastError !== msg) this.log(`cluster writer: ${what}: ${msg}`);
    this.stats.lastError = msg;
  }
}
