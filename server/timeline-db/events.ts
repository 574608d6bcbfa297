/**
 * The embedded log's `events` table (schema.ts): turning unsequenced events into rows, and the
 * read queries over them. All statements are prepared once per connection and reused.
 */
import type { Database as Db, Statement } from 'better-sqlite3';
import { sql, type Compilable } from 'kysely';
import { encode, entityId, type TimelineEvent, type UnsequencedEvent } from '@/lib/timeline';
import { PodscopeStoreError } from './errors';
import { fastDecode } from './decode';
import { sqliteBuilder } from './schema';

/** Default refusal size for one encoded event (UTF-8 bytes). */
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024;

const KINDS: ReadonlySet<string> = new Set(['cri', 'container', 'pod', 'node', 'k8s']);

export interface EventRow {
  seq: number;
  /** Timeline time: max(previous row's t, event.t). */
  t: number;
  node: string;
  kind: string;
  type: string;
  entity: string;
  body: string;
}

export interface EncodedBatch {
  events: TimelineEvent[];
  rows: EventRow[];
  /** Timeline time after the last row. */
  lastT: number;
}

/** Checks one event's shape enough that the row columns are meaningful; names the event on failure. */
function check(path: string, e: UnsequencedEvent, index: number): void {
  const label = (): string =>
    `event #${index} (${String(e.kind)} ${String(e.type)} on node "${String(e.node)}")`;
  if (typeof e.t !== 'number' || !Number.isFinite(e.t)) {
    throw new PodscopeStoreError(
      path,
      'INVALID',
      `${label()}: t must be a finite epoch-ms number, got ${String(e.t)}`,
    );
  }
  if (typeof e.node !== 'string' || e.node === '') {
    throw new PodscopeStoreError(path, 'INVALID', `${label()}: node must be a non-empty string`);
  }
  if (!KINDS.has(e.kind)) throw new PodscopeStoreError(path, 'INVALID', `${label()}: unknown kind`);
  const type: unknown = e.type;
  if (typeof type !== 'string' || type === '') {
    throw new PodscopeStoreError(path, 'INVALID', `${label()}: type must be a non-empty string`);
  }
}

/**
 * Gives events the seqs firstSeq, firstSeq+1, … and encodes them. Pure: nothing is written.
 * Throws (and so refuses the whole batch) on a malformed or oversized event.
 */
export function encodeBatch(
  path: string,
  input: readonly UnsequencedEvent[],
  firstSeq: number,
  prevT: number,
  maxEventBytes: number,
): EncodedBatch {
  const events: TimelineEvent[] = [];
  const rows: EventRow[] = [];
  let t = prevT;
  for (let i = 0; i < input.length; i++) {
    const e = input[i];
    if (e === undefined) continue;
    check(path, e, i);
    const event = { ...e, seq: firstSeq + events.length };
    const body = encode(event);
    // A UTF-8 string is at most 3 bytes per UTF-16 unit; count exactly only when it could matter.
    if (body.length * 3 > maxEventBytes) {
      const bytes = Buffer.byteLength(body, 'utf8');
      if (bytes > maxEventBytes) {
        throw new PodscopeStoreError(
          path,
          'TOO_LARGE',
          `event #${i} (${event.kind} ${event.type} for ${entityId(event)} on node "${event.node}") is ${bytes} bytes encoded, above the ${maxEventBytes}-byte limit; the batch of ${input.length} was not written`,
        );
      }
    }
    t = Math.max(t, e.t);
    events.push(event);
    rows.push({
      seq: event.seq,
      t,
      node: e.node,
      kind: e.kind,
      type: e.type,
      entity: entityId(event),
      body,
    });
  }
  return { events, rows, lastT: t };
}

export interface RangeQuery {
  /** Timeline time, inclusive (epoch ms). */
  from?: number;
  /** Timeline time, inclusive (epoch ms). */
  to?: number;
  /** Only events with a seq above this. */
  afterSeq?: number;
  /** At most this many (default 10,000); page on with afterSeq = the last seq returned. */
  limit?: number;
  nodes?: readonly string[];
  kinds?: readonly TimelineEvent['kind'][];
  /**
   * Stop before the encoded events pass this many bytes (the first event is always returned):
   * what one answer may cost, whatever `limit` says.
   */
  maxBytes?: number;
}

export const DEFAULT_RANGE_LIMIT = 10_000;

interface RangeParams {
  lo: number;
  hi: number;
  nodes: string | null;
  kinds: string | null;
  limit: number;
}

export class EventTable {
  private readonly insert: Statement<[number, number, string, string, string, string, string]>;
  private readonly firstAtOrAfterT: Statement<[number], number>;
  private readonly lastAtOrBeforeT: Statement<[number], number>;
  private readonly select: Statement<RangeParams, string>;
  private readonly bodiesBetween: Statement<[number, number], string>;
  private readonly countAll: Statement<[], number>;
  private readonly maxSeq: Statement<[], number | null>;
  private readonly oldest: Statement<[], { seq: number; t: number }>;
  private readonly lastBeforeT: Statement<[number], number>;
  private readonly atOffset: Statement<[number], number>;
  private readonly rowBytes: Statement<[number], number | null>;
  private readonly deleteUpTo: Statement<[number]>;

  constructor(db: Db) {
    // The hot statements are kysely's, built against the schema's EventsTable (schema.ts) and
    // compiled once: prepared with better-sqlite3, they run synchronously inside the append
    // transaction. Parameters go in the order the builder placed them.
    const b = sqliteBuilder;
    const prepare = <P extends unknown[], R = unknown>(q: Compilable<unknown>) =>
      db.prepare<P, R>(q.compile().sql);
    const one = sql.lit(1);
    this.insert = prepare<[number, number, string, string, string, string, string]>(
      b
        .insertInto('events')
        .values({ seq: 0, t: 0, node: '', kind: '', type: '', entity: '', body: '' }),
    );
    // events_by_t holds (t, seq): timeline time never decreases with seq, so the first row at or
    // after a time and the last at or before it are index look-ups.
    this.firstAtOrAfterT = prepare<[number], number>(
      b
        .selectFrom('events')
        .select('seq')
        .where('t', '>=', 0)
        .orderBy('t')
        .orderBy('seq')
        .limit(one),
    ).pluck();
    this.lastAtOrBeforeT = prepare<[number], number>(
      b
        .selectFrom('events')
        .select('seq')
        .where('t', '<=', 0)
        .orderBy('t', 'desc')
        .orderBy('seq', 'desc')
        .limit(one),
    ).pluck();
    // Optional filters by node and kind as JSON arrays, one statement for every combination.
    this.select = db
      .prepare<RangeParams, string>(
        `SELECT body FROM events
          WHERE seq > @lo AND seq <= @hi
            AND (@nodes IS NULL OR node IN (SELECT value FROM json_each(@nodes)))
            AND (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))
          ORDER BY seq LIMIT @limit`,
      )
      .pluck();
    this.bodiesBetween = prepare<[number, number], string>(
      b
        .selectFrom('events')
        .select('body')
        .where('seq', '>', 0)
        .where('seq', '<=', 0)
        .orderBy('seq'),
    ).pluck();
    this.countAll = prepare<[], number>(
      b.selectFrom('events').select((eb) => eb.fn.countAll().as('n')),
    ).pluck();
    this.maxSeq = prepare<[], number | null>(
      b.selectFrom('events').select((eb) => eb.fn.max('seq').as('n')),
    ).pluck();
    this.oldest = prepare<[], { seq: number; t: number }>(
      b.selectFrom('events').select(['seq', 't']).orderBy('seq').limit(one),
    );
    this.lastBeforeT = prepare<[number], number>(
      b
        .selectFrom('events')
        .select('seq')
        .where('t', '<', 0)
        .orderBy('t', 'desc')
        .orderBy('seq', 'desc')
        .limit(one),
    ).pluck();
    this.atOffset = prepare<[number], number>(
      b.selectFrom('events').select('seq').orderBy('seq').limit(one).offset(0),
    ).pluck();
    // Payload plus a rough per-row cost (record header, rowid, the events_by_t entry); used only
    // to size a retention step, which re-measures afterwards.
    this.rowBytes = db
      .prepare<[number], number | null>(
        `SELECT avg(length(body) + length(node) + length(kind) + length(type) + length(entity) + 48)
           FROM (SELECT body, node, kind, type, entity FROM events ORDER BY seq LIMIT ?)`,
      )
      .pluck();
    this.deleteUpTo = prepare<[number]>(b.deleteFrom('events').where('seq', '<=', 0));
  }

  /** Inserts rows; call inside a transaction. */
  write(rows: readonly EventRow[]): void {
    for (const r of rows) this.insert.run(r.seq, r.t, r.node, r.kind, r.type, r.entity, r.body);
  }

  /** The last seq whose timeline time is at or before t. */
  seqAtOrBefore(t: number): number | undefined {
    return this.lastAtOrBeforeT.get(t);
  }

  range(q: RangeQuery, latestSeq: number): TimelineEvent[] {
    const requested = q.limit ?? DEFAULT_RANGE_LIMIT;
    // SQLite reads a negative LIMIT as "no limit".
    const limit = Number.isFinite(requested) ? Math.max(0, Math.floor(requested)) : -1;
    let lo = Math.max(0, q.afterSeq ?? 0);
    let hi = latestSeq;
    if (q.from !== undefined) {
      const first = this.firstAtOrAfterT.get(q.from);
      if (first === undefined) return [];
      lo = Math.max(lo, first - 1);
    }
    if (q.to !== undefined) {
      const last = this.lastAtOrBeforeT.get(q.to);
      if (last === undefined) return [];
      hi = Math.min(hi, last);
    }
    if (limit === 0 || hi <= lo || Number.isNaN(requested)) return [];
    const params = {
      lo,
      hi,
      nodes: q.nodes ? JSON.stringify(q.nodes) : null,
      kinds: q.kinds ? JSON.stringify(q.kinds) : null,
      limit,
    };
    const budget = q.maxBytes;
    if (budget === undefined)
      return this.select.all(params).map((b) => fastDecode<TimelineEvent>(b));
    const out: TimelineEvent[] = [];
    let bytes = 0;
    for (const body of this.select.iterate(params)) {
      bytes += body.length;
      if (out.length > 0 && bytes > budget) break;
      out.push(fastDecode<TimelineEvent>(body));
    }
    return out;
  }

  /** Encoded bodies with seq in (afterSeq, toSeq], ascending; lazily, for folding. */
  bodies(afterSeq: number, toSeq: number): IterableIterator<string> {
    return this.bodiesBetween.iterate(afterSeq, toSeq);
  }

  count(): number {
    return this.countAll.get() ?? 0;
  }

  maxStoredSeq(): number {
    return this.maxSeq.get() ?? 0;
  }

  oldestRow(): { seq: number; t: number } | undefined {
    return this.oldest.get();
  }

  /** The last seq whose timeline time is strictly before t. */
  seqBefore(t: number): number | undefined {
    return this.lastBeforeT.get(t);
  }

  /** The seq of the (offset+1)-th oldest stored event. */
  seqAtOffset(offset: number): number | undefined {
    return this.atOffset.get(Math.max(0, Math.floor(offset)));
  }

  /** Estimated bytes per row over the oldest `sample` rows. */
  averageRowBytes(sample: number): number | undefined {
    return this.rowBytes.get(sample) ?? undefined;
  }

  /** Deletes every event with seq <= `seq`; callers bound how many that is. */
  deleteThrough(seq: number): number {
    return this.deleteUpTo.run(seq).changes;
  }
}
