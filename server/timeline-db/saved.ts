/**
 * Saved timelines: a named period of a timeline, copied out so it outlives retention and can be
 * shared (a link opens it at a moment) or exported; or a timeline file imported. Each owns its
 * initial state (the state at `from`) and copies of the events after it up to `to`, plus
 * annotations people add. One store for both dialects (tables: schema.ts's saved_*): its
 * operations are units of work (work.ts), run synchronously on a data directory's SQLite file
 * (the embedded store, store.ts) and through kysely on the cluster's PostgreSQL, shared by every
 * console replica (SavedTimelineStore below).
 *
 * Every write is one transaction: a failure stores nothing. The quotas are checked inside it,
 * after the rows are written and the size recorded — over a quota, the transaction is rolled
 * back. On PostgreSQL an insert first locks `saved_timelines` against other inserts (SHARE ROW
 * EXCLUSIVE conflicts with itself and with writers, not with readers), so two replicas saving at
 * once cannot both take the last place; an SQLite write transaction is IMMEDIATE, which does the
 * same for the processes sharing a file.
 */
import type { Database as SqliteDb } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { encode } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import { timelineTimes, type TimelineFile } from '@/lib/timeline/file';
import type { ClusterState } from '@/lib/timeline/state';
import { fastDecode } from './decode';
import { PodscopeStoreError, wrapError, wrapPostgresError } from './errors';
import { checkQuota, type SavedQuota } from './quota';
import type { Dialect, SavedAnnotationsTable, Tables } from './schema';
import { decodeSnapshot, encodeSnapshot } from './snapshot';
import { all, first, raw, run, runAsync, runSync, type TxMode, type Work } from './work';

export const LIMITS = {
  titleChars: 200,
  notesBytes: 64 * 1024,
  annotationBytes: 16 * 1024,
  entityChars: 512,
  authorChars: 200,
  annotationsPerSave: 1_000,
} as const;

export interface AnnotationInput {
  /** Epoch ms within the saved period. */
  t: number;
  /** The entity it is about (node name, pod uid or `<pod uid>/<container>`), if any. */
  entity?: string;
  text: string;
  /** Who wrote it, when known (timeline files carry it). */
  author?: string;
}

export interface Annotation extends AnnotationInput {
  id: number;
  timelineId: string;
  createdAt: number;
}

export interface SaveTimelineInput {
  title: string;
  notes?: string;
  /** Epoch ms; the saved timeline starts with the state at this moment. */
  from: number;
  /** Epoch ms, inclusive. */
  to: number;
  annotations?: readonly AnnotationInput[];
}

export interface SavedTimelineSummary {
  /** URL-safe, unguessable (128 random bits). */
  id: string;
  title: string;
  notes: string;
  from: number;
  to: number;
  /** The initial state includes everything up to fromSeq; events run from fromSeq+1 to toSeq. */
  fromSeq: number;
  toSeq: number;
  createdAt: number;
  eventCount: number;
  annotationCount: number;
}

export interface SavedTimeline extends SavedTimelineSummary {
  initialState: ClusterState;
  events: TimelineEvent[];
  annotations: Annotation[];
}

/**
 * 128 random bits in base64url, never starting with "-": an id is pasted into commands
 * (`podscope export ID`), where a leading "-" would read as an option (1 id in 64 did).
 */
export function newTimelineId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (id[0] !== '-') return id;
  }
}

/** Rows per INSERT statement (4 or 6 columns each: far below either dialect's parameter limit). */
const ROWS_PER_STATEMENT = 1_000;

/** A saved timeline's summary columns, as read. */
interface TimelineRow {
  id: string;
  title: string;
  notes: string;
  from_t: number;
  to_t: number;
  from_seq: number;
  to_seq: number;
  created_at: number;
  event_count: number;
  annotation_count: number;
}

type AnnotationRow = Omit<SavedAnnotationsTable, 'id'> & { id: number };

/** What saving a period of the embedded log needs of it (store.ts), inside the transaction. */
export interface LiveLog {
  stateAt(t: number): ClusterState;
  seqAtOrBefore(t: number): number | undefined;
}

/**
 * What storing a file as a saved timeline writes: its summary under a new id, its initial state
 * encoded, its events encoded with their timeline times.
 */
export function importedRows(file: TimelineFile, createdAt: number) {
  const fromSeq = file.initialState.seq;
  const times = timelineTimes(file);
  const { codec, body } = encodeSnapshot(file.initialState);
  const summary: SavedTimelineSummary = {
    id: newTimelineId(),
    title: file.title,
    notes: file.notes,
    from: file.from,
    to: file.to,
    fromSeq,
    toSeq: file.events.at(-1)?.seq ?? fromSeq,
    createdAt,
    eventCount: file.events.length,
    annotationCount: file.annotations.length,
  };
  const events = file.events.map((e, i) => ({ seq: e.seq, t: times[i] ?? e.t, body: encode(e) }));
  return { summary, codec, state: body, events };
}

/** The saved timelines' operations, as units of work over one database. */
export class SavedTimelines {
  constructor(
    private readonly k: Kysely<Tables>,
    private readonly dialect: Dialect,
    /** Where they live, for errors (a database file, or a redacted PostgreSQL URL). */
    readonly where: string,
  ) {}

  /**
   * Copies the state at `from` and the events up to `to` of the embedded log (SQLite) into a
   * saved timeline that retention leaves alone. Run it as 'write'.
   */
  *save(
    input: SaveTimelineInput,
    live: LiveLog,
    createdAt: number,
    quota?: SavedQuota,
  ): Work<SavedTimelineSummary> {
    const path = this.where;
    const title = checkText(path, 'title', input.title, LIMITS.titleChars, 'chars');
    if (title.trim() === '')
      throw new PodscopeStoreError(path, 'INVALID', 'a saved timeline needs a title');
    const notes = checkText(path, 'notes', input.notes ?? '', LIMITS.notesBytes, 'bytes');
    checkTime(path, 'from', input.from);
    checkTime(path, 'to', input.to);
    if (input.to < input.from) {
      throw new PodscopeStoreError(
        path,
        'INVALID',
        `timeline "to" (${input.to}) is before "from" (${input.from})`,
      );
    }
    const annotations = input.annotations ?? [];
    if (annotations.length > LIMITS.annotationsPerSave) {
      throw new PodscopeStoreError(
        path,
        'TOO_LARGE',
        `${annotations.length} annotations in one save; the limit is ${LIMITS.annotationsPerSave}`,
      );
    }
    for (const a of annotations) checkAnnotation(path, a, input.from, input.to);
    const id = newTimelineId();
    const k = this.k;
    // Inside the transaction so the state, the seq bounds and the copied rows agree.
    const initialState = live.stateAt(input.from);
    const fromSeq = initialState.seq;
    const toSeq = Math.max(fromSeq, live.seqAtOrBefore(input.to) ?? 0);
    const { codec, body } = encodeSnapshot(initialState);
    yield* run(
      k.insertInto('saved_timelines').values({
        id,
        title,
        notes,
        from_t: input.from,
        to_t: input.to,
        from_seq: fromSeq,
        to_seq: toSeq,
        created_at: createdAt,
        initial_codec: codec,
        initial_state: body,
        event_count: 0,
        bytes: 0,
      }),
    );
    const copied = yield* run(
      k
        .insertInto('saved_timeline_events')
        .columns(['timeline_id', 'seq', 't', 'body'])
        .expression((eb) =>
          eb
            .selectFrom('events')
            .select([sql<string>`${id}`.as('timeline_id'), 'seq', 't', 'body'])
            .where('seq', '>', fromSeq)
            .where('seq', '<=', toSeq)
            .orderBy('seq'),
        ),
    );
    yield* run(
      k.updateTable('saved_timelines').set({ event_count: copied.changes }).where('id', '=', id),
    );
    yield* this.insertAnnotations(id, annotations, createdAt);
    yield* this.recordSizeAndCheckQuota(id, quota);
    const row = yield* first(this.summaries().where('id', '=', id));
    if (!row) throw notFound(path, id);
    return toSummary(row);
  }

  /** Stores a validated file as a new saved timeline, within `quota`. Run it as 'write'. */
  *insert(file: TimelineFile, createdAt: number, quota?: SavedQuota): Work<SavedTimelineSummary> {
    const { summary, codec, state, events } = importedRows(file, createdAt);
    const { id } = summary;
    const k = this.k;
    // Inserts wait here for each other, on every replica: the count below is then exact.
    if (this.dialect === 'postgres')
      yield* run(raw(k, sql`LOCK TABLE saved_timelines IN SHARE ROW EXCLUSIVE MODE`));
    yield* run(
      k.insertInto('saved_timelines').values({
        id,
        title: file.title,
        notes: file.notes,
        from_t: file.from,
        to_t: file.to,
        from_seq: summary.fromSeq,
        to_seq: summary.toSeq,
        created_at: createdAt,
        initial_codec: codec,
        initial_state: state,
        event_count: events.length,
        bytes: 0,
      }),
    );
    const rows = events.map((e) => ({ timeline_id: id, ...e }));
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
      yield* run(
        k.insertInto('saved_timeline_events').values(rows.slice(i, i + ROWS_PER_STATEMENT)),
      );
    yield* this.insertAnnotations(id, file.annotations, createdAt);
    yield* this.recordSizeAndCheckQuota(id, quota);
    return summary;
  }

  /** Newest first. */
  *list(): Work<SavedTimelineSummary[]> {
    return (yield* all(this.summaries().orderBy('created_at', 'desc').orderBy('id'))).map(
      toSummary,
    );
  }

  /** Throws NOT_FOUND when there is no such timeline. Run it as 'read' (one snapshot). */
  *get(id: string): Work<SavedTimeline> {
    const row = yield* first(
      this.summaries().select(['initial_codec', 'initial_state']).where('id', '=', id),
    );
    if (!row) throw notFound(this.where, id);
    const events = yield* all(
      this.k
        .selectFrom('saved_timeline_events')
        .select('body')
        .where('timeline_id', '=', id)
        .orderBy('seq'),
    );
    const annotations = yield* all(
      this.k
        .selectFrom('saved_annotations')
        .selectAll()
        .where('timeline_id', '=', id)
        .orderBy('t')
        .orderBy('id'),
    );
    return {
      ...toSummary(row),
      initialState: decodeSnapshot(row.initial_codec, row.initial_state),
      events: events.map((e) => fastDecode<TimelineEvent>(e.body)),
      annotations: annotations.map((a) => toAnnotation(a as AnnotationRow)),
    };
  }

  *exists(id: string): Work<boolean> {
    return Boolean(
      yield* first(this.k.selectFrom('saved_timelines').select('id').where('id', '=', id)),
    );
  }

  *annotate(id: string, input: AnnotationInput, now: number): Work<Annotation> {
    const period = yield* first(
      this.k.selectFrom('saved_timelines').select(['from_t', 'to_t']).where('id', '=', id),
    );
    if (!period) throw notFound(this.where, id);
    checkAnnotation(this.where, input, period.from_t, period.to_t);
    let created: AnnotationRow | undefined;
    try {
      created = yield* first(
        this.k
          .insertInto('saved_annotations')
          .values({
            timeline_id: id,
            t: input.t,
            entity: input.entity ?? null,
            text: input.text,
            author: input.author ?? null,
            created_at: now,
          })
          .returningAll(),
      );
    } catch (err) {
      // Deleted (by another connection or replica) between the look-up and the insert.
      if (isForeignKeyViolation(err)) throw notFound(this.where, id);
      throw err;
    }
    if (!created) throw notFound(this.where, id);
    return toAnnotation(created);
  }

  /** False when there was no such timeline. Its events and annotations go with it (ON DELETE CASCADE). */
  *delete(id: string): Work<boolean> {
    return (yield* run(this.k.deleteFrom('saved_timelines').where('id', '=', id))).changes > 0;
  }

  /** Retention: deletes the saved timelines created before `t`; returns how many. */
  *expire(t: number): Work<number> {
    return (yield* run(this.k.deleteFrom('saved_timelines').where('created_at', '<', t))).changes;
  }

  *count(): Work<number> {
    const row = yield* first(
      this.k.selectFrom('saved_timelines').select((eb) => eb.fn.countAll<number>().as('n')),
    );
    return Number(row?.n ?? 0);
  }

  private *insertAnnotations(
    id: string,
    annotations: readonly AnnotationInput[],
    createdAt: number,
  ): Work<void> {
    const rows = annotations.map((a) => ({
      timeline_id: id,
      t: a.t,
      entity: a.entity ?? null,
      text: a.text,
      author: a.author ?? null,
      created_at: createdAt,
    }));
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
      yield* run(
        this.k.insertInto('saved_annotations').values(rows.slice(i, i + ROWS_PER_STATEMENT)),
      );
  }

  /** Records the size of timeline `id` (just written) and throws QUOTA when a quota is passed. */
  private *recordSizeAndCheckQuota(id: string, quota: SavedQuota | undefined): Work<void> {
    yield* run(
      raw(
        this.k,
        sql`UPDATE saved_timelines SET bytes = octet_length(initial_state) + coalesce(
          (SELECT sum(octet_length(body)) FROM saved_timeline_events WHERE timeline_id = ${id}), 0)
          WHERE id = ${id}`,
      ),
    );
    if (!quota) return;
    const own = yield* first(
      this.k.selectFrom('saved_timelines').select('bytes').where('id', '=', id),
    );
    const totals = yield* first(
      this.k
        .selectFrom('saved_timelines')
        .select((eb) => [
          eb.fn.countAll<number>().as('count'),
          sql<string>`coalesce(sum(bytes), 0)`.as('bytes'),
        ]),
    );
    checkQuota(
      this.where,
      quota,
      { count: Number(totals?.count ?? 0), bytes: Number(totals?.bytes ?? 0) },
      Number(own?.bytes ?? 0),
    );
  }

  private summaries() {
    return this.k
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
}

/** SQLite's and PostgreSQL's words for a row whose parent is gone. */
function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * The saved timelines of one database, asynchronously (as server/timelines' service reads them):
 * on SQLite each call runs synchronously on the connection, on PostgreSQL through kysely. Errors
 * are PodscopeStoreErrors naming the database.
 */
export class SavedTimelineStore {
  readonly where: string;
  private readonly tables: SavedTimelines;

  constructor(
    private readonly database: {
      db: Kysely<Tables>;
      dialect: Dialect;
      where: string;
      sqlite?: SqliteDb;
    },
    private readonly now: () => number = Date.now,
  ) {
    this.where = database.where;
    this.tables = new SavedTimelines(database.db, database.dialect, database.where);
  }

  insert(file: TimelineFile, createdAt: number, quota?: SavedQuota): Promise<SavedTimelineSummary> {
    return this.run(
      `storing timeline "${file.title}"`,
      'write',
      this.tables.insert(file, createdAt, quota),
      'nothing was stored',
    );
  }

  list(): Promise<SavedTimelineSummary[]> {
    return this.run('listing saved timelines', 'none', this.tables.list());
  }

  get(id: string): Promise<SavedTimeline> {
    // One snapshot: a delete elsewhere meanwhile is all or nothing here.
    return this.run(`reading saved timeline ${id}`, 'read', this.tables.get(id));
  }

  exists(id: string): Promise<boolean> {
    return this.run(`looking up saved timeline ${id}`, 'none', this.tables.exists(id));
  }

  annotate(id: string, annotation: AnnotationInput): Promise<Annotation> {
    return this.run(
      `annotating saved timeline ${id}`,
      'none',
      this.tables.annotate(id, annotation, this.now()),
      'nothing was stored',
    );
  }

  delete(id: string): Promise<boolean> {
    return this.run(`deleting saved timeline ${id}`, 'none', this.tables.delete(id));
  }

  /** Retention: deletes the saved timelines created before `t`; returns how many. */
  expire(t: number): Promise<number> {
    return this.run('expiring saved timelines', 'none', this.tables.expire(t));
  }

  private async run<T>(
    operation: string,
    tx: TxMode,
    work: Work<T>,
    consequence?: string,
  ): Promise<T> {
    const { sqlite } = this.database;
    if (sqlite) {
      try {
        return runSync(sqlite, work, tx);
      } catch (err) {
        throw wrapError(this.where, operation, err, consequence);
      }
    }
    try {
      return await runAsync(this.database.db, work, tx);
    } catch (err) {
      throw wrapPostgresError(this.where, operation, err, consequence);
    }
  }
}

/**
 * An annotation's time within the saved period [from, to], its text and sizes .
 */
export function checkAnnotation(path: string, a: AnnotationInput, from: number, to: number): void {
  checkTime(path, 'annotation t', a.t);
  if (a.t < from || a.t > to) {
    throw new PodscopeStoreError(
      path,
      'INVALID',
      `annotation at t=${a.t} is outside the saved period [${from}, ${to}]`,
    );
  }
  const text = checkText(path, 'annotation text', a.text, LIMITS.annotationBytes, 'bytes');
  if (text.trim() === '') throw new PodscopeStoreError(path, 'INVALID', 'an annotation needs text');
  if (a.entity !== undefined)
    checkText(path, 'annotation entity', a.entity, LIMITS.entityChars, 'chars');
  if (a.author !== undefined)
    checkText(path, 'annotation author', a.author, LIMITS.authorChars, 'chars');
}

/** Strings are stored exactly as given (rendering escapes them); only type and size are checked. */
function checkText(
  path: string,
  what: string,
  value: unknown,
  limit: number,
  unit: 'chars' | 'bytes',
): string {
  if (typeof value !== 'string')
    throw new PodscopeStoreError(path, 'INVALID', `${what} must be a string`);
  const size = unit === 'chars' ? [...value].length : Buffer.byteLength(value, 'utf8');
  if (size > limit) {
    throw new PodscopeStoreError(
      path,
      'TOO_LARGE',
      `${what} is ${size} ${unit}; the limit is ${limit}`,
    );
  }
  return value;
}

function checkTime(path: string, what: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new PodscopeStoreError(
      path,
      'INVALID',
      `${what} must be a finite epoch-ms number, got ${String(value)}`,
    );
  }
}

export function notFound(path: string, id: string): PodscopeStoreError {
  return new PodscopeStoreError(
    path,
    'NOT_FOUND',
    `no saved timeline with id ${JSON.stringify(id)}`,
  );
}

export function toSummary(r: TimelineRow): SavedTimelineSummary {
  return {
    id: r.id,
    title: r.title,
    notes: r.notes,
    from: r.from_t,
    to: r.to_t,
    fromSeq: r.from_seq,
    toSeq: r.to_seq,
    createdAt: r.created_at,
    eventCount: r.event_count,
    annotationCount: r.annotation_count,
  };
}

export function toAnnotation(r: AnnotationRow): Annotation {
  return {
    id: r.id,
    timelineId: r.timeline_id,
    t: r.t,
    ...(r.entity === null ? {} : { entity: r.entity }),
    text: r.text,
    ...(r.author === null ? {} : { author: r.author }),
    createdAt: r.created_at,
  };
}
