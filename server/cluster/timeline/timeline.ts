/**
 * The cluster timeline (`cluster_events`, schema.ts) on PostgreSQL or SQLite.
 *
 *   const tl = await openClusterTimeline({ url: process.env.PODSCOPE_DATABASE_URL });
 *   await tl.insert(globalEvents(streamSeq, message));  // one transaction, idempotent
 *   await tl.eventsAfter(lastEventId, 1000);            // a browser resuming by global id
 *   await tl.retention({ maxAgeMs });                   // PG: drops whole day partitions
 *
 * PostgreSQL partitions are named `cluster_events_day_<days since 1970-01-01 UTC>` and cover one
 * UTC day of `t`; the insert path creates the ones a batch needs (concurrent creators are fine).
 */
import { sql, type Kysely } from 'kysely';
import { entityId, type TimelineEvent } from '@/lib/timeline/events';
import type { RangeQuery } from '@/server/engine/api';
import type { GapRecord, GlobalEvent } from '../global';
import { openDatabase, type OpenOptions } from './open';
import type { ClusterEventsTable, Dialect, TimelineDatabase } from './schema';

const DAY_MS = 86_400_000;
const PARTITION_PREFIX = 'cluster_events_day_';
/** Rows per INSERT statement (PostgreSQL allows 65,535 parameters; 10 columns each). */
const ROWS_PER_STATEMENT = 1_000;

export type StoredEvent = TimelineEvent | GapRecord;

export interface RetentionResult {
  /** Partitions dropped (PostgreSQL). */
  droppedPartitions: string[];
  /** Rows deleted one by one (SQLite). */
  deletedRows: number;
}

/** A row of `cluster_events` with `body` (the event's JSON, or the event to be encoded in one). */
function rowOf<B>(g: GlobalEvent, body: B): Omit<ClusterEventsTable, 'body'> & { body: B } {
  const e = g.event;
  return {
    gid: g.gid,
    t: e.t,
    node: g.node,
    epoch: g.epoch,
    node_seq: g.nodeSeq,
    stream_seq: g.streamSeq,
    kind: e.kind,
    type: e.kind === 'gap' ? 'OutboxGap' : e.type,
    entity: e.kind === 'gap' ? e.node : entityId(e),
    body,
  };
}

/**
 * A batch made ready to insert (`prepareInsert`): everything the insert needs that is the
 * console's own CPU work — a writer prepares the next batch while the database commits this one.
 * On PostgreSQL it holds the rows' text and not the events, which can then die young instead of
 * being held (and promoted by the garbage collector) while the batch before commits.
 */
export interface PreparedInsert {
  /** Events in the batch. */
  readonly count: number;
  /** The UTC days (since 1970-01-01) the events' times fall in: their partitions. */
  readonly days: ReadonlySet<number>;
  /** PostgreSQL: the rows as one json_to_recordset parameter. */
  readonly rows?: string;
  /** SQLite: the events (its rows are built in the transaction). */
  readonly events?: readonly GlobalEvent[];
}

export class ClusterTimeline {
  private readonly partitions = new Set<number>();

  constructor(
    readonly db: Kysely<TimelineDatabase>,
    readonly dialect: Dialect,
    readonly where: string,
  ) {}

  /** Creates the day partitions covering `days` (PostgreSQL; no-op for SQLite). */
  async ensurePartitions(days: Iterable<number>): Promise<void> {
    if (this.dialect !== 'postgres') return;
    for (const day of days) {
      if (this.partitions.has(day)) continue;
      const name = `${PARTITION_PREFIX}${day}`;
      try {
        await sql`CREATE TABLE IF NOT EXISTS ${sql.table(name)} PARTITION OF cluster_events
                  FOR VALUES FROM (${sql.lit(day * DAY_MS)}) TO (${sql.lit((day + 1) * DAY_MS)})`.execute(
          this.db,
        );
      } catch (err) {
        // Two writers creating the same partition: the loser sees a duplicate; anything else is real.
        const code = (err as { code?: string }).code;
        if (code !== '42P07' && code !== '23505') throw err;
      }
      this.partitions.add(day);
    }
  }

  /**
   * Writes the events in one transaction; an event already stored (same node, epoch, node seq)
   * is skipped. Returns how many rows were new. When this resolves the rows are committed.
   */
  insert(events: readonly GlobalEvent[]): Promise<number> {
    return this.insertPrepared(this.prepareInsert(events));
  }

  /** The CPU half of `insert`: what it sends, made before (and apart from) the round trip. */
  prepareInsert(events: readonly GlobalEvent[]): PreparedInsert {
    const count = events.length;
    const days = new Set(events.map((g) => Math.floor(g.event.t / DAY_MS)));
    if (this.dialect !== 'postgres') return { count, days, events };
    if (count === 0) return { count, days };
    return { count, days, rows: JSON.stringify(events.map((g) => rowOf(g, g.event))) };
  }

  /** `insert` of a batch prepareInsert made (by this timeline); may be retried as it is. */
  async insertPrepared(batch: PreparedInsert): Promise<number> {
    if (batch.count === 0) return 0;
    await this.ensurePartitions(batch.days);
    if (this.dialect === 'postgres') {
      if (batch.rows === undefined) throw new Error('a batch prepared for SQLite, not PostgreSQL');
      return this.insertBatch(batch.rows);
    }
    if (batch.events === undefined) throw new Error('a batch prepared for PostgreSQL, not SQLite');
    const rows = batch.events.map((g) => rowOf(g, JSON.stringify(g.event)));
    return this.db.transaction().execute(async (tx) => {
      let inserted = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const res = await tx
          .insertInto('cluster_events')
          .values(rows.slice(i, i + ROWS_PER_STATEMENT))
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        inserted += Number(res.numInsertedOrUpdatedRows ?? 0);
      }
      return inserted;
    });
  }

  /**
   * PostgreSQL: the whole batch in one statement from one JSON parameter (json_to_recordset) —
   * one statement is atomic without a transaction around it, and there is no per-row SQL to
   * build: kysely compiling 1,000-row VALUES lists (10,000 parameters each) and pg preparing
   * every parameter cost more of the console's CPU than one JSON.stringify of the batch.
   * `json` (not jsonb) keeps each body's text as it came.
   */
  private async insertBatch(rows: string): Promise<number> {
    const res = await sql`
      INSERT INTO cluster_events (gid, t, node, epoch, node_seq, stream_seq, kind, type, entity, body)
      SELECT gid, t, node, epoch, node_seq, stream_seq, kind, type, entity, body::text
      FROM json_to_recordset(${rows}::json) AS x(gid bigint, t bigint, node text,
        epoch text, node_seq bigint, stream_seq bigint, kind text, type text, entity text, body json)
      ON CONFLICT DO NOTHING`.execute(this.db);
    return Number(res.numAffectedRows ?? 0);
  }

  /** Events with gid > `gid` (and ≤ `upTo` when given), oldest first. */
  async eventsAfter(gid: number, limit: number, upTo?: number): Promise<StoredEvent[]> {
    let q = this.db.selectFrom('cluster_events').select('body').where('gid', '>', gid);
    if (upTo !== undefined) q = q.where('gid', '<=', upTo);
    const rows = await q.orderBy('gid').limit(limit).execute();
    return rows.map((r) => JSON.parse(r.body) as StoredEvent);
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
    let q = this.db.selectFrom('cluster_events').select(['body', 'epoch']).where('gid', '>', gid);
    if (upTo !== undefined) q = q.where('gid', '<=', upTo);
    if (tMax !== undefined) q = q.where('t', '<=', tMax);
    const rows = await q.orderBy('gid').limit(limit).execute();
    return rows.map((r) => ({ epoch: r.epoch, event: JSON.parse(r.body) as StoredEvent }));
  }

  /** How many events have a gid in (after, upTo]. */
  async countBetween(after: number, upTo: number): Promise<number> {
    const row = await this.db
      .selectFrom('cluster_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('gid', '>', after)
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

  /** The newest gid of an event older than `t` (undefined when there is none). */
  async lastGidBefore(t: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('cluster_events')
      .select((eb) => eb.fn.max('gid').as('max'))
      .where('t', '<', t)
      .executeTakeFirst();
    return row?.max == null ? undefined : Number(row.max);
  }

  /**
   * Events in [from, to] by their own time, after `afterSeq` (a gid), of `nodes`, oldest first:
   * at most `limit`, and stopping before the bodies pass `maxBytes` (the first always comes).
   */
  async range(q: RangeQuery): Promise<StoredEvent[]> {
    const limit = Math.max(0, Math.floor(q.limit ?? 10_000));
    if (limit === 0 || q.nodes?.length === 0) return [];
    let query = this.db
      .selectFrom('cluster_events')
      .select('body')
      .where('gid', '>', q.afterSeq ?? 0);
    if (q.from !== undefined) query = query.where('t', '>=', q.from);
    if (q.to !== undefined) query = query.where('t', '<=', q.to);
    if (q.nodes) query = query.where('node', 'in', q.nodes);
    const rows = await query.orderBy('gid').limit(limit).execute();
    const out: StoredEvent[] = [];
    let bytes = 0;
    for (const { body } of rows) {
      bytes += body.length;
      if (q.maxBytes !== undefined && out.length > 0 && bytes > q.maxBytes) break;
      out.push(JSON.parse(body) as StoredEvent);
    }
    return out;
  }

  /** The oldest gid retained (undefined when the timeline is empty). */
  async oldestGid(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('cluster_events')
      .select((eb) => eb.fn.min('gid').as('min'))
      .executeTakeFirst();
    return row?.min == null ? undefined : Number(row.min);
  }

  async latestGid(): Promise<number> {
    const row = await this.db
      .selectFrom('cluster_events')
      .select((eb) => eb.fn.max('gid').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('cluster_events')
      .select((eb) => eb.fn.countAll().as('n'))
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
      WHERE p.relname = 'cluster_events'`.execute(this.db);
    return res.rows
      .map((r) => r.name)
      .filter((n) => n.startsWith(PARTITION_PREFIX))
      .sort(
        (a, b) =>
          Number(a.slice(PARTITION_PREFIX.length)) - Number(b.slice(PARTITION_PREFIX.length)),
      );
  }

  /**
   * Removes what is older than `maxAgeMs`: on PostgreSQL whole day partitions that end before the
   * cut-off (a day is kept while any of it is young enough), on SQLite rows by t.
   */
  async retention(policy: { maxAgeMs: number }, now = Date.now()): Promise<RetentionResult> {
    const cutoff = now - policy.maxAgeMs;
    if (this.dialect === 'sqlite') {
      const res = await this.db
        .deleteFrom('cluster_events')
        .where('t', '<', cutoff)
        .executeTakeFirst();
      return { droppedPartitions: [], deletedRows: Number(res.numDeletedRows) };
    }
    const dropped: string[] = [];
    for (const name of await this.listPartitions()) {
      const day = Number(name.slice(PARTITION_PREFIX.length));
      if ((day + 1) * DAY_MS > cutoff) continue;
      await sql`DROP TABLE IF EXISTS ${sql.table(name)}`.execute(this.db);
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
