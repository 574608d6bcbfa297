/**
 * Saved timelines: a named period of the live timeline, copied out so it outlives retention and
 * can be shared (a link opens it at a moment) or exported. Each owns its initial state (the state
 * at `from`) and copies of the events after it up to `to`, plus annotations people add.
 */
import type { Database as Db, Statement } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { ClusterState, TimelineEvent } from '@/lib/timeline';
import { PodscopeStoreError, sqliteCode } from './errors';
import { decodeSnapshot, encodeSnapshot } from './snapshot';
import { fastDecode } from './decode';
import { recordSizeAndCheckQuota, type SavedQuota } from './quota';

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

export interface SavedTimelinesDeps {
  now(): number;
  stateAt(t: number): ClusterState;
  seqAtOrBefore(t: number): number | undefined;
  /** Count and byte quotas (none: unlimited). */
  quota?: SavedQuota;
}

/** A saved timeline's summary columns (the cluster database's saved tables use the same names). */
export interface TimelineRow {
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

export interface AnnotationRow {
  id: number;
  timeline_id: string;
  t: number;
  entity: string | null;
  text: string;
  author: string | null;
  created_at: number;
}

const SUMMARY_COLUMNS = `id, title, notes, from_t, to_t, from_seq, to_seq, created_at, event_count,
  (SELECT count(*) FROM annotations a WHERE a.timeline_id = timelines.id) AS annotation_count`;

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

export class SavedTimelines {
  private readonly insertTimeline: Statement;
  private readonly copyEvents: Statement<[string, number, number]>;
  private readonly setEventCount: Statement<[number, string]>;
  private readonly insertAnnotation: Statement<
    [string, number, string | null, string, string | null, number]
  >;
  private readonly summary: Statement<[string], TimelineRow>;
  private readonly all: Statement<[], TimelineRow>;
  private readonly initial: Statement<[string], { initial_codec: string; initial_state: Buffer }>;
  private readonly eventBodies: Statement<[string], string>;
  private readonly annotationRows: Statement<[string], AnnotationRow>;
  private readonly annotationById: Statement<[number], AnnotationRow>;
  private readonly remove: Statement<[string]>;
  private readonly removeCreatedBefore: Statement<[number]>;
  private readonly countAll: Statement<[], number>;

  constructor(
    private readonly db: Db,
    private readonly path: string,
    private readonly deps: SavedTimelinesDeps,
  ) {
    this.insertTimeline = db.prepare(
      `INSERT INTO timelines (id, title, notes, from_t, to_t, from_seq, to_seq, created_at,
         initial_codec, initial_state, event_count)
       VALUES (@id, @title, @notes, @from, @to, @fromSeq, @toSeq, @createdAt, @codec, @state, @eventCount)`,
    );
    this.copyEvents = db.prepare<[string, number, number]>(
      `INSERT INTO timeline_events (timeline_id, seq, t, body)
       SELECT ?, seq, t, body FROM events WHERE seq > ? AND seq <= ? ORDER BY seq`,
    );
    this.setEventCount = db.prepare<[number, string]>(
      'UPDATE timelines SET event_count = ? WHERE id = ?',
    );
    this.insertAnnotation = db.prepare<
      [string, number, string | null, string, string | null, number]
    >(
      'INSERT INTO annotations (timeline_id, t, entity, text, author, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.summary = db.prepare<[string], TimelineRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM timelines WHERE id = ?`,
    );
    this.all = db.prepare<[], TimelineRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM timelines ORDER BY created_at DESC, id`,
    );
    this.initial = db.prepare<[string], { initial_codec: string; initial_state: Buffer }>(
      'SELECT initial_codec, initial_state FROM timelines WHERE id = ?',
    );
    this.eventBodies = db
      .prepare<[string], string>(
        'SELECT body FROM timeline_events WHERE timeline_id = ? ORDER BY seq',
      )
      .pluck();
    this.annotationRows = db.prepare<[string], AnnotationRow>(
      'SELECT id, timeline_id, t, entity, text, author, created_at FROM annotations WHERE timeline_id = ? ORDER BY t, id',
    );
    this.annotationById = db.prepare<[number], AnnotationRow>(
      'SELECT id, timeline_id, t, entity, text, author, created_at FROM annotations WHERE id = ?',
    );
    this.remove = db.prepare<[string]>('DELETE FROM timelines WHERE id = ?');
    this.removeCreatedBefore = db.prepare<[number]>('DELETE FROM timelines WHERE created_at < ?');
    this.countAll = db.prepare<[], number>('SELECT count(*) FROM timelines').pluck();
  }

  save(input: SaveTimelineInput): SavedTimelineSummary {
    const title = checkText(this.path, 'title', input.title, LIMITS.titleChars, 'chars');
    if (title.trim() === '')
      throw new PodscopeStoreError(this.path, 'INVALID', 'a saved timeline needs a title');
    const notes = checkText(this.path, 'notes', input.notes ?? '', LIMITS.notesBytes, 'bytes');
    checkTime(this.path, 'from', input.from);
    checkTime(this.path, 'to', input.to);
    if (input.to < input.from) {
      throw new PodscopeStoreError(
        this.path,
        'INVALID',
        `timeline "to" (${input.to}) is before "from" (${input.from})`,
      );
    }
    const annotations = input.annotations ?? [];
    if (annotations.length > LIMITS.annotationsPerSave) {
      throw new PodscopeStoreError(
        this.path,
        'TOO_LARGE',
        `${annotations.length} annotations in one save; the limit is ${LIMITS.annotationsPerSave}`,
      );
    }
    for (const a of annotations) checkAnnotation(this.path, a, input.from, input.to);
    const id = newTimelineId();
    const createdAt = this.deps.now();
    const write = this.db.transaction(() => {
      // Inside the transaction so the state, the seq bounds and the copied rows agree.
      const initialState = this.deps.stateAt(input.from);
      const fromSeq = initialState.seq;
      const toSeq = Math.max(fromSeq, this.deps.seqAtOrBefore(input.to) ?? 0);
      const { codec, body } = encodeSnapshot(initialState);
      this.insertTimeline.run({
        id,
        title,
        notes,
        from: input.from,
        to: input.to,
        fromSeq,
        toSeq,
        createdAt,
        codec,
        state: body,
        eventCount: 0,
      });
      const copied = this.copyEvents.run(id, fromSeq, toSeq).changes;
      this.setEventCount.run(copied, id);
      for (const a of annotations)
        this.insertAnnotation.run(id, a.t, a.entity ?? null, a.text, a.author ?? null, createdAt);
      // Over a quota this throws, and the transaction stores nothing.
      recordSizeAndCheckQuota(this.db, this.path, id, this.deps.quota);
    });
    write.immediate();
    const row = this.summary.get(id);
    if (!row) throw notFound(this.path, id);
    return toSummary(row);
  }

  get(id: string): SavedTimeline {
    const row = this.summary.get(id);
    const initial = this.initial.get(id);
    if (!row || !initial) throw notFound(this.path, id);
    return {
      ...toSummary(row),
      initialState: decodeSnapshot(initial.initial_codec, initial.initial_state),
      events: this.eventBodies.all(id).map((b) => fastDecode<TimelineEvent>(b)),
      annotations: this.annotationRows.all(id).map(toAnnotation),
    };
  }

  list(): SavedTimelineSummary[] {
    return this.all.all().map(toSummary);
  }

  delete(id: string): boolean {
    // timeline_events and annotations go with it (ON DELETE CASCADE), in one transaction.
    return this.remove.run(id).changes > 0;
  }

  annotate(timelineId: string, input: AnnotationInput): Annotation {
    const row = this.summary.get(timelineId);
    if (!row) throw notFound(this.path, timelineId);
    checkAnnotation(this.path, input, row.from_t, row.to_t);
    try {
      const id = this.insertAnnotation.run(
        timelineId,
        input.t,
        input.entity ?? null,
        input.text,
        input.author ?? null,
        this.deps.now(),
      ).lastInsertRowid;
      const created = this.annotationById.get(Number(id));
      if (!created) throw notFound(this.path, timelineId);
      return toAnnotation(created);
    } catch (err) {
      // The timeline can vanish between the check and the insert only through another connection.
      if (sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw notFound(this.path, timelineId);
      throw err;
    }
  }

  count(): number {
    return this.countAll.get() ?? 0;
  }

  /** Deletes the saved timelines created before `t` (retention); returns how many. */
  expire(t: number): number {
    return this.removeCreatedBefore.run(t).changes;
  }
}

/**
 * An annotation's time within the saved period [from, to], its text and sizes (the cluster
 * database's saved timelines check through it too: server/timelines/postgres.ts).
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
