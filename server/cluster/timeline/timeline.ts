/**
 * The cluster timeline (`cluster_messages`, schema.ts; one row per bus message, rows.ts) on
 * PostgreSQL or SQLite.
 *
 *   const tl = await openClusterTimeline({ url: process.env.PODSCOPE_DATABASE_URL });
 *   await tl.insert([{ streamSeq, message, body }]);   // one statement, idempotent
 *   await tl.eventsAfter(lastEventId, 1000);            // a browser resuming by global id
 *   await tl.retention({ maxAgeMs });                   // PG: drops whole day partitions
 *
 * Reads take rows a page at a time in gid order and decode each into its events, which are then
 * filtered one by one (a message's events can straddle a bound: a gid, a time).
 *
 * PostgreSQL partitions are named `cluster_messages_day_<days since 1970-01-01 UTC>` and cover one
 * UTC day of `t`; the insert path creates the ones a batch needs (concurrent creators are fine).
 */
import { sql, type Kysely } from 'kysely';
import type { RangeQuery } from '@/server/engine/api';
import { GID_SLOTS, streamSeqOfGid } from '../global';
import { openDatabase, type OpenOptions } from '@/server/timeline-db/open';
import {
  bodyBytes,
  eventsOf,
  messageRow,
  rowHead,
  type MessageRow,
  type RowHead,
  type StoredEvent,
  type StoredMessage,
} from './rows';
import {
  createDayPartition,
  dropDayPartition,
  DAY_MS,
  PARTITION_PREFIX,
  type Dialect,
  type Tables,
} from '@/server/timeline-db/schema';

export type { StoredEvent, StoredMessage } from './rows';

/** Rows per INSERT statement on SQLite (10 columns each, well under its 32,766 parameters). */
const ROWS_PER_STATEMENT = 1_000;
/**
 * Rows a read takes at a time: a row is one message (≥ 1 event, at most MAX_MESSAGE_BYTES), so a
 * page is bounded in events wanted and in bytes.
 */
const ROWS_PER_PAGE = 256;

export interface RetentionResult {
  /** Partitions dropped (PostgreSQL). */
  droppedPartitions: string[];
  /** Rows deleted one by one (SQLite). */
  deletedRows: number;
}

/**
 * A batch made ready to insert (`prepareInsert`): everything the insert needs that is the
 * console's own CPU work — a writer prepares the next batch while the database commits this one.
 */
export interface PreparedInsert {
  /** Events in the batch. */
  readonly count: number;
  /** The UTC days (since 1970-01-01) its messages' earliest events fall in: their partitions. */
  readonly days: ReadonlySet<number>;
  /** PostgreSQL: one statement's worth of rows at a time (PgStatement). */
  readonly statements?: readonly PgStatement[];
  /** SQLite: the rows. */
  readonly rows?: readonly MessageRow[];
}

/**
 * One PostgreSQL insert of a batch: the rows but their bodies as one json_to_recordset parameter,
 * each with where its body is (`at`, counted from 1, and `len`) in `bodies` — the bodies one after
 * another as they were read, a bytea parameter. The bodies go as bytes, not as JSON strings: no
 * text to decode, escape, measure and encode again in the console (most of what a batch cost it
 * when they went inside the JSON).
 */
export interface PgStatement {
  readonly json: string;
  readonly bodies: Buffer;
}

/**
 * Body bytes per PostgreSQL statement: a batch is cut into statements of about this much (one
 * transaction), so no parameter nears PostgreSQL's 1 GB limit: a writer's fetch of 1,000
 * messages near the bus's size limit (MAX_MESSAGE_BYTES) holds ~900 MB.
 */
export const PG_STATEMENT_BYTES = 32 * 1024 * 1024;

/** What a scan of the timeline is limited to (each bound applies to every event). */
interface Scan {
  /** Events with gid > afterGid. */
  afterGid: number;
  upTo?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  nodes?: readonly string[] | undefined;
}

export class ClusterTimeline {
  private readonly partitions = new Set<number>();

  constructor(
    readonly db: Kysely<Tables>,
    readonly dialect: Dialect,
    readonly where: string,
  ) {}

  /** Creates the day partitions covering `days` (PostgreSQL; no-op for SQLite). */
  async ensurePartitions(days: Iterable<number>): Promise<void> {
    if (this.dialect !== 'postgres') return;
    for (const day of days) {
      if (this.partitions.has(day)) continue;
      try {
        await createDayPartition(this.db, day);
      } catch (err) {
        // Two writers creating the same partition: the loser sees a duplicate; anything else is real.
        const code = (err as { code?: string }).code;
        if (code !== '42P07' && code !== '23505') throw err;
      }
      this.partitions.add(day);
    }
  }

  /**
   * Writes the messages at once; a message already stored (same node, epoch, first seq) is
   * skipped. Returns how many events were new. When this resolves the rows are committed.
   */
  insert(messages: readonly StoredMessage[]): Promise<number> {
    return this.insertPrepared(this.prepareInsert(messages));
  }

  /** The CPU half of `insert`: what it sends, made before (and apart from) the round trip. */
  prepareInsert(
    messages: readonly StoredMessage[],
    statementBytes = PG_STATEMENT_BYTES,
  ): PreparedInsert {
    let count = 0;
    const days = new Set<number>();
    for (const { summary } of messages) {
      count += summary.count;
      days.add(Math.floor(summary.t / DAY_MS));
    }
    if (this.dialect !== 'postgres') return { count, days, rows: messages.map(messageRow) };
    const statements: PgStatement[] = [];
    let heads: (RowHead & { at: number; len: number })[] = [];
    let bodies: Uint8Array[] = [];
    let at = 1;
    const cut = () => {
      statements.push({ json: JSON.stringify(heads), bodies: Buffer.concat(bodies, at - 1) });
      heads = [];
      bodies = [];
      at = 1;
    };
    for (const m of messages) {
      const body = bodyBytes(m.body);
      if (heads.length > 0 && at - 1 + body.byteLength > statementBytes) cut();
      heads.push({ ...rowHead(m), at, len: body.byteLength });
      bodies.push(body);
      at += body.byteLength;
    }
    if (heads.length > 0) cut();
    return { count, days, statements };
  }

  /** `insert` of a batch prepareInsert made (by this timeline); may be retried as it is. */
  async insertPrepared(batch: PreparedInsert): Promise<number> {
    if (batch.count === 0) return 0;
    await this.ensurePartitions(batch.days);
    if (this.dialect === 'postgres') {
      const { statements } = batch;
      if (statements === undefined) throw new Error('a batch prepared for SQLite, not PostgreSQL');
      const [only] = statements;
      if (statements.length === 1 && only) return this.insertStatement(this.db, only);
      return this.db.transaction().execute(async (tx) => {
        let inserted = 0;
        for (const s of statements) inserted += await this.insertStatement(tx, s);
        return inserted;
      });
    }
    const { rows } = batch;
    if (rows === undefined) throw new Error('a batch prepared for PostgreSQL, not SQLite');
    return this.db.transaction().execute(async (tx) => {
      let inserted = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const res = await tx
          .insertInto('cluster_messages')
          .values(rows.slice(i, i + ROWS_PER_STATEMENT))
          .onConflict((oc) => oc.doNothing())
          .returning('count')
          .execute();
        for (const r of res) inserted += r.count;
      }
      return inserted;
    });
  }

  /**
   * PostgreSQL: a batch's rows in one statement (PgStatement) — one statement is atomic without a
   * transaction around it, and there is no per-row SQL to build (kysely compiling 1,000-row VALUES
   * lists and pg preparing every parameter cost more than one JSON.stringify of the batch). Each
   * body is cut from the bytea and stored as the text it is (convert_from checks it is UTF-8,
   * which bodyBytes made sure of).
   */
  private async insertStatement(
    db: Kysely<Tables>,
    { json, bodies }: PgStatement,
  ): Promise<number> {
    const res = await sql<{ n: string | null }>`
      WITH ins AS (
        INSERT INTO cluster_messages
          (gid, count, t, t_max, node, epoch, node_seq, stream_seq, format, body)
        SELECT gid, count, t, t_max, node, epoch, node_seq, stream_seq, format,
          convert_from(substr(${bodies}::bytea, at, len), 'UTF8')
        FROM json_to_recordset(${json}::json) AS x(gid bigint, count integer, t bigint,
          t_max bigint, node text, epoch text, node_seq bigint, stream_seq bigint,
          format smallint, at integer, len integer)
        ON CONFLICT DO NOTHING
        RETURNING count)
      SELECT sum(count) AS n FROM ins`.execute(db);
    return Number(res.rows[0]?.n ?? 0);
  }

  /**
   * The events within `q`, oldest first, with the agent run that sent each and the share of its
   * message's stored bytes, to `take`: up to `want` of them, or until it says so (false: this one
   * is not taken, and none after it).
   */
  private async scan(
    q: Scan,
    want: number,
    take: (event: StoredEvent, epoch: string, bytes: number) => boolean,
  ): Promise<void> {
    if (q.nodes?.length === 0 || want <= 0) return;
    // A message holds the gids of one stream seq: the first that can hold a gid > afterGid is
    // the one of afterGid's stream seq.
    let after = streamSeqOfGid(Math.max(0, q.afterGid)) * GID_SLOTS - 1;
    let taken = 0;
    // Rows to read for the events still wanted, from the events per row seen so far (a resume
    // of 1,000 events reads ~200 messages, not 1,000).
    let rowsRead = 0;
    let eventsRead = 0;
    for (;;) {
      const perRow = rowsRead > 0 ? Math.max(1, eventsRead / rowsRead) : 4;
      const pageRows = Math.min(ROWS_PER_PAGE, Math.ceil((want - taken) / perRow) + 1);
      let query = this.db
        .selectFrom('cluster_messages')
        .select(['gid', 'count', 'stream_seq', 'format', 'body', 'epoch'])
        .where('gid', '>', after);
      if (q.upTo !== undefined) query = query.where('gid', '<=', q.upTo);
      // t is the earliest event's time, t_max the latest's.
      if (q.to !== undefined) query = query.where('t', '<=', q.to);
      if (q.from !== undefined) query = query.where('t_max', '>=', q.from);
      if (q.nodes) query = query.where('node', 'in', q.nodes);
      const rows = await query.orderBy('gid').limit(pageRows).execute();
      for (const row of rows) {
        after = Number(row.gid);
        rowsRead++;
        eventsRead += row.count;
        const bytes = row.body.length / row.count;
        for (const e of this.decode(row)) {
          if (e.seq <= q.afterGid) continue;
          if (q.upTo !== undefined && e.seq > q.upTo) continue;
          if (q.from !== undefined && e.t < q.from) continue;
          if (q.to !== undefined && e.t > q.to) continue;
          if (!take(e, row.epoch, bytes) || ++taken >= want) return;
        }
      }
      if (rows.length < pageRows) return;
    }
  }

  /** A row's events; a row that does not decode is named in the error (not skipped: a read must not leave a hole). */
  private decode(row: { gid: number; stream_seq: number; format: number; body: string }) {
    try {
      return eventsOf(row);
    } catch (err) {
      throw new Error(
        `${this.where}: the cluster timeline's message at gid ${row.gid} (stream seq ${row.stream_seq}) does not decode: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  /** Events with gid > `gid` (and ≤ `upTo` when given), oldest first. */
  async eventsAfter(gid: number, limit: number, upTo?: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    await this.scan({ afterGid: gid, upTo }, limit, (e) => out.push(e) > 0);
    return out;
  }

  /**
   * Events with gid > `gid` (and ≤ `upTo`, and t ≤ `tMax`, when given), oldest first, with the
   * agent run that sent each.
   */
  async withEpochs(
    gid: number,
    limit: number,
    tMax?: number,
    upTo?: number,
  ): Promise<{ epoch: string; event: StoredEvent }[]> {
    const out: { epoch: string; event: StoredEvent }[] = [];
    await this.scan({ afterGid: gid, upTo, to: tMax }, limit, (event, epoch) => {
      return out.push({ epoch, event }) > 0;
    });
    return out;
  }

  /** How many events have a gid in (after, upTo]. */
  async countBetween(after: number, upTo: number): Promise<number> {
    if (upTo <= after) return 0;
    const lo = after + 1;
    // Each message's share of (after, upTo]: PostgreSQL's greatest/least are SQLite's max/min.
    const [hi, low] = this.dialect === 'postgres' ? ['greatest', 'least'] : ['max', 'min'];
    const share = sql`${sql.raw(hi)}(0, ${sql.raw(low)}(gid + count - 1, ${upTo}) - ${sql.raw(hi)}(gid, ${lo}) + 1)`;
    const row = await this.db
      .selectFrom('cluster_messages')
      .select(sql<string>`coalesce(sum(${share}), 0)`.as('n'))
      .where('gid', '>', streamSeqOfGid(after) * GID_SLOTS - 1)
      .where('gid', '<=', upTo)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The time below which `retention(policy)` removes events: on PostgreSQL the start of the
   * oldest day it keeps (it drops whole day partitions), on SQLite the cut-off itself.
   */
  retentionCut(policy: { maxAgeMs: number }, now = Date.now()): number {
    const cutoff = now - policy.maxAgeMs;
    return this.dialect === 'sqlite' ? cutoff : Math.floor(cutoff / DAY_MS) * DAY_MS;
  }

  /**
   * The newest gid that `retention` at the cut `t` removes: of the events in messages that began
   * before t (a message goes whole, by its earliest event; undefined when there is none).
   */
  async lastGidBefore(t: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('cluster_messages')
      .select(sql<string | null>`max(gid + count - 1)`.as('max'))
      .where('t', '<', t)
      .executeTakeFirst();
    return row?.max == null ? undefined : Number(row.max);
  }

  /**
   * Events in [from, to] by their own time, after `afterSeq` (a gid), of `nodes`, oldest first:
   * at most `limit`, and stopping before the bodies pass `maxBytes` (the first always comes; an
   * event counts its share of its message's stored text).
   */
  async range(q: RangeQuery): Promise<StoredEvent[]> {
    const limit = Math.max(0, Math.floor(q.limit ?? 10_000));
    const out: StoredEvent[] = [];
    let bytes = 0;
    await this.scan(
      { afterGid: q.afterSeq ?? 0, from: q.from, to: q.to, nodes: q.nodes },
      limit,
      (e, _epoch, size) => {
        bytes += size;
        if (q.maxBytes !== undefined && out.length > 0 && bytes > q.maxBytes) return false;
        return out.push(e) > 0;
      },
    );
    return out;
  }

  /** The oldest gid retained (undefined when the timeline is empty). */
  async oldestGid(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('cluster_messages')
      .select((eb) => eb.fn.min('gid').as('min'))
      .executeTakeFirst();
    return row?.min == null ? undefined : Number(row.min);
  }

  async latestGid(): Promise<number> {
    const row = await this.db
      .selectFrom('cluster_messages')
      .select(sql<string>`gid + count - 1`.as('last'))
      .orderBy('gid', 'desc')
      .limit(1)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Events stored. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('cluster_messages')
      .select(sql<string>`coalesce(sum(count), 0)`.as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The day partitions that exist (PostgreSQL), oldest first. */
  async listPartitions(): Promise<string[]> {
    if (this.dialect !== 'postgres') return [];
    const res = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'cluster_messages'`.execute(this.db);
    return res.rows
      .map((r) => r.name)
      .filter((n) => n.startsWith(PARTITION_PREFIX))
      .sort(
        (a, b) =>
          Number(a.slice(PARTITION_PREFIX.length)) - Number(b.slice(PARTITION_PREFIX.length)),
      );
  }

  /**
   * Removes what is older than `maxAgeMs`, a message at a time by its earliest event: on
   * PostgreSQL whole day partitions that end before the cut-off (a day is kept while any of it is
   * young enough), on SQLite rows by t.
   */
  async retention(policy: { maxAgeMs: number }, now = Date.now()): Promise<RetentionResult> {
    const cutoff = now - policy.maxAgeMs;
    if (this.dialect === 'sqlite') {
      const res = await this.db
        .deleteFrom('cluster_messages')
        .where('t', '<', cutoff)
        .executeTakeFirst();
      return { droppedPartitions: [], deletedRows: Number(res.numDeletedRows) };
    }
    const dropped: string[] = [];
    for (const name of await this.listPartitions()) {
      const day = Number(name.slice(PARTITION_PREFIX.length));
      if ((day + 1) * DAY_MS > cutoff) continue;
      await dropDayPartition(this.db, day);
      this.partitions.delete(day);
      dropped.push(name);
    }
    return { droppedPartitions: dropped, deletedRows: 0 };
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

export async function openClusterTimeline(options: OpenOptions): Promise<ClusterTimeline> {
  const { db, dialect, where } = await openDatabase(options);
  return new ClusterTimeline(db, dialect, where);
}
