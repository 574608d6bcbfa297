/**
 * Saved timelines in the cluster database on PostgreSQL (tables: server/cluster/timeline/saved.ts),
 * so every console replica lists, opens, annotates, exports and deletes the same ones: a link
 * shared from one replica opens on any other. It uses the cluster timeline's own connection pool.
 *
 * Every write is one transaction: a failure (PostgreSQL gone mid-way included) stores nothing.
 * The quotas hold across replicas: an insert first locks `saved_timelines` against other inserts
 * (SHARE ROW EXCLUSIVE conflicts with itself and with writers, not with readers), then counts
 * what is there, so two replicas saving at once cannot both take the last place.
 *
 * Loaded only in cluster mode with PODSCOPE_DATABASE_URL (server/runtime): `npm start` never
 * imports it. Errors are PodscopeStoreErrors whose path is the redacted database URL.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { TimelineFile } from '@/lib/timeline/file';
import type { SavedTables } from '@/server/cluster/timeline/saved';
import type { TimelineDatabase } from '@/server/cluster/timeline/schema';
import type { ClusterTimeline } from '@/server/cluster/timeline/timeline';
import {
  PodscopeStoreError,
  isPodscopeStoreError,
  type Annotation,
  type AnnotationInput,
  type SavedTimeline,
  type SavedTimelineSummary,
  type StoreErrorCode,
} from '@/server/store';
import { fastDecode } from '@/server/store/decode';
import { checkQuota, type SavedQuota } from '@/server/store/quota';
import { decodeSnapshot } from '@/server/store/snapshot';
import { checkAnnotation, notFound, toAnnotation, toSummary } from '@/server/store/timelines';
import type { SavedStorage } from './storage';
import { importedRows } from './writer';

/** Rows per INSERT statement (PostgreSQL allows 65,535 parameters; 4 or 6 columns each). */
const ROWS_PER_STATEMENT = 1_000;

/** The cluster timeline's database, with the saved tables. */
type Tables = TimelineDatabase & SavedTables;
type Db = Kysely<Tables>;

export class PostgresSavedTimelines implements SavedStorage {
  readonly where: string;
  private readonly db: Db;

  constructor(
    /** Its connection pool, dialect and redacted URL. */
    cluster: Pick<ClusterTimeline, 'db' | 'dialect' | 'where'>,
    private readonly now: () => number = Date.now,
  ) {
    if (cluster.dialect !== 'postgres')
      throw new Error(
        `${cluster.where}: saved timelines live in the cluster database only on PostgreSQL`,
      );
    this.where = cluster.where;
    this.db = cluster.db.withTables<SavedTables>();
  }

  async insert(
    file: TimelineFile,
    createdAt: number,
    quota?: SavedQuota,
  ): Promise<SavedTimelineSummary> {
    const rows = importedRows(file, createdAt);
    const { id } = rows.summary;
    const events = rows.events.map((e) => ({ timeline_id: id, ...e }));
    const bytes = events.reduce((n, e) => n + Buffer.byteLength(e.body, 'utf8'), rows.state.length);
    await this.run(`storing timeline "${file.title}"`, 'nothing was stored', (db) =>
      db.transaction().execute(async (tx) => {
        // Inserts wait here for each other, on every replica: the count below is then exact.
        await sql`LOCK TABLE saved_timelines IN SHARE ROW EXCLUSIVE MODE`.execute(tx);
        if (quota) checkQuota(this.where, quota, await totalsWith(tx, bytes), bytes);
        await tx
          .insertInto('saved_timelines')
          .values({
            id,
            title: file.title,
            notes: file.notes,
            from_t: file.from,
            to_t: file.to,
            from_seq: rows.summary.fromSeq,
            to_seq: rows.summary.toSeq,
            created_at: createdAt,
            initial_codec: rows.codec,
            initial_state: rows.state,
            event_count: events.length,
            bytes,
          })
          .execute();
        for (let i = 0; i < events.length; i += ROWS_PER_STATEMENT)
          await tx
            .insertInto('saved_timeline_events')
            .values(events.slice(i, i + ROWS_PER_STATEMENT))
            .execute();
        const annotations = file.annotations.map((a) => ({
          timeline_id: id,
          t: a.t,
          entity: a.entity ?? null,
          text: a.text,
          author: a.author ?? null,
          created_at: createdAt,
        }));
        for (let i = 0; i < annotations.length; i += ROWS_PER_STATEMENT)
          await tx
            .insertInto('saved_annotations')
            .values(annotations.slice(i, i + ROWS_PER_STATEMENT))
            .execute();
      }),
    );
    return rows.summary;
  }

  list(): Promise<SavedTimelineSummary[]> {
    return this.run('listing saved timelines', undefined, async (db) =>
      (await summaries(db).orderBy('created_at', 'desc').orderBy('id').execute()).map(toSummary),
    );
  }

  get(id: string): Promise<SavedTimeline> {
    // One snapshot of the database: a delete on another replica meanwhile is all or nothing here.
    return this.run(`reading saved timeline ${id}`, undefined, (db) =>
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (tx) => {
          const row = await summaries(tx)
            .select(['initial_codec', 'initial_state'])
            .where('id', '=', id)
            .executeTakeFirst();
          if (!row) throw notFound(this.where, id);
          const events = await tx
            .selectFrom('saved_timeline_events')
            .select('body')
            .where('timeline_id', '=', id)
            .orderBy('seq')
            .execute();
          const annotations = await tx
            .selectFrom('saved_annotations')
            .selectAll()
            .where('timeline_id', '=', id)
            .orderBy('t')
            .orderBy('id')
            .execute();
          return {
            ...toSummary(row),
            initialState: decodeSnapshot(row.initial_codec, row.initial_state),
            events: events.map((e) => fastDecode<TimelineEvent>(e.body)),
            annotations: annotations.map(toAnnotation),
          };
        }),
    );
  }

  exists(id: string): Promise<boolean> {
    return this.run(`looking up saved timeline ${id}`, undefined, async (db) =>
      Boolean(
        await db.selectFrom('saved_timelines').select('id').where('id', '=', id).executeTakeFirst(),
      ),
    );
  }

  annotate(id: string, annotation: AnnotationInput): Promise<Annotation> {
    return this.run(`annotating saved timeline ${id}`, 'nothing was stored', async (db) => {
      const period = await db
        .selectFrom('saved_timelines')
        .select(['from_t', 'to_t'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!period) throw notFound(this.where, id);
      checkAnnotation(this.where, annotation, period.from_t, period.to_t);
      try {
        const row = await db
          .insertInto('saved_annotations')
          .values({
            timeline_id: id,
            t: annotation.t,
            entity: annotation.entity ?? null,
            text: annotation.text,
            author: annotation.author ?? null,
            created_at: this.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toAnnotation(row);
      } catch (err) {
        // Deleted (on any replica) between the look-up and the insert.
        if (sqlState(err) === '23503') throw notFound(this.where, id);
        throw err;
      }
    });
  }

  delete(id: string): Promise<boolean> {
    // Its events and annotations go with it (ON DELETE CASCADE), in the same statement.
    return this.run(`deleting saved timeline ${id}`, undefined, async (db) => {
      const res = await db.deleteFrom('saved_timelines').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    });
  }

  /** Retention: deletes the saved timelines created before `t`; returns how many. */
  expire(t: number): Promise<number> {
    return this.run('expiring saved timelines', undefined, async (db) => {
      const res = await db
        .deleteFrom('saved_timelines')
        .where('created_at', '<', t)
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    });
  }

  private async run<T>(
    operation: string,
    consequence: string | undefined,
    fn: (db: Db) => Promise<T>,
  ): Promise<T> {
    try {
      return await fn(this.db);
    } catch (err) {
      throw wrapPostgresError(this.where, operation, err, consequence);
    }
  }
}

function summaries(db: Db | Transaction<Tables>) {
  return db
    .selectFrom('saved_timelines')
    .select([
      'id',
      'title',
      'notes',
      'from_t',
      'to_t',
      'from_seq',
      'to_seq',
      'created_at',
      'event_count',
    ])
    .select(
      sql<number>`(SELECT count(*) FROM saved_annotations a WHERE a.timeline_id = saved_timelines.id)`.as(
        'annotation_count',
      ),
    );
}

/** The count and bytes of the saved timelines with one more of `bytes`. */
async function totalsWith(
  tx: Transaction<Tables>,
  bytes: number,
): Promise<{ count: number; bytes: number }> {
  const row = await tx
    .selectFrom('saved_timelines')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      sql<string>`coalesce(sum(bytes), 0)`.as('bytes'),
    ])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count) + 1, bytes: Number(row.bytes) + bytes };
}

/** PostgreSQL's SQLSTATE, or Node's error code for a failed connection (ECONNREFUSED …). */
function sqlState(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return undefined;
}

/** Losing the server: connection refused, reset or timed out, or the server shutting down. */
function unreachable(code: string | undefined, message: string): boolean {
  if (
    code &&
    /^(E(CONNREFUSED|CONNRESET|HOSTUNREACH|NETUNREACH|NOTFOUND|TIMEDOUT|PIPE|AI_AGAIN))$/.test(code)
  )
    return true;
  // Class 08: connection exceptions; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
  if (code && (code.startsWith('08') || /^57P0[123]$/.test(code))) return true;
  // pg's own words for a client whose server went away (the rollback after a cut connection
  // fails with the last of these).
  return /Connection terminated|timeout exceeded when trying to connect|Connection ended|connection error and is not queryable/i.test(
    message,
  );
}

function classify(code: string | undefined, message: string): StoreErrorCode {
  if (unreachable(code, message)) return 'UNAVAILABLE';
  if (code === '53100') return 'DISK_FULL';
  return 'POSTGRES';
}

function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // A refused connection to several addresses is an AggregateError with an empty message.
  if (err.message) return err.message;
  const first = err instanceof AggregateError ? (err.errors[0] as unknown) : undefined;
  return first instanceof Error ? first.message : err.name;
}

/** A PodscopeStoreError naming the database (its URL, password hidden) and the operation. */
export function wrapPostgresError(
  where: string,
  operation: string,
  err: unknown,
  consequence?: string,
): PodscopeStoreError {
  if (isPodscopeStoreError(err)) return err;
  const code = sqlState(err);
  const message = messageOf(err);
  const kind = classify(code, message);
  const hint =
    kind === 'UNAVAILABLE'
      ? 'PostgreSQL cannot be reached'
      : kind === 'DISK_FULL'
        ? 'PostgreSQL is out of disk'
        : undefined;
  const detail = `${operation} failed${hint ? `: ${hint}` : ''} (${code ? `${code}: ` : ''}${message})${consequence ? `; ${consequence}` : ''}`;
  return new PodscopeStoreError(where, kind, detail, err);
}
