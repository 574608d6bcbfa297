/**
 * The persistent timeline: every event the engine records, periodic checkpoints of the whole
 * ClusterState, and any moment's state rebuilt from the nearest checkpoint plus the events
 * after it, folded through the same reducer the browser uses (lib/timeline).
 *
 * One TimelineStore owns one better-sqlite3 connection. better-sqlite3 is synchronous, so every
 * method here runs to completion before the next starts; only retention (long, in bounded
 * batches) is async and yields between batches so appends interleave with it.
 */
import type { Database as Db, Transaction } from 'better-sqlite3';
import {
  reduceAll,
  type ClusterState,
  type TimelineEvent,
  type UnsequencedEvent,
} from '@/lib/timeline';
import { SqliteCheckpoints, type CheckpointInfo } from './checkpoints';
import { PodscopeStoreError, wrapError } from './errors';
import {
  DEFAULT_MAX_EVENT_BYTES,
  EventTable,
  encodeBatch,
  type EncodedBatch,
  type RangeQuery,
} from './events';
import { MetaTable, type Marks } from './meta';
import { openConnection, resolveDatabasePath } from './open';
import {
  runRetention,
  type RetentionHost,
  type RetentionPolicy,
  type RetentionReport,
} from './retention';
import {
  SavedTimelines,
  type Annotation,
  type AnnotationInput,
  type SaveTimelineInput,
  type SavedTimeline,
  type SavedTimelineSummary,
} from './saved';
import type { TimelineFile } from '@/lib/timeline/file';
import type { SavedQuota } from './quota';
import { sqliteBuilder } from './schema';
import { runSync, type TxMode, type Work } from './work';
import {
  systemClock,
  adaptiveCheckpointDue,
  type Clock,
  type StoreOptions,
  type StoreStats,
  type TimelineBounds,
} from './options';
import { StateSeeker } from './seek';

export { ADAPTIVE_CHECKPOINTS, adaptiveCheckpointDue, systemClock } from './options';
export type { Clock, StoreOptions, StoreStats, TimelineBounds } from './options';

/**
 * The state at the head before a batch and after it, from a caller that folds the same events
 * itself (the engine's recorder): `after` must be `reduceAll(before, events)`, the events with the
 * seqs append gives them. The store takes `after` as its head state instead of folding the batch
 * a second time, but only when `before` is the very state it holds for the head (or the empty
 * state of an empty timeline); otherwise it folds as without.
 */
export interface AppendStates {
  before: ClusterState;
  after: ClusterState;
}

/** What one append transaction wrote; applied to the in-memory marks only after COMMIT. */
interface Written {
  batch: EncodedBatch;
  /** The state after the batch, when known. */
  live?: ClusterState;
  /** Set when the transaction also wrote a checkpoint. */
  checkpointSeq?: number;
  /** The JSON size of that checkpoint. */
  checkpointRawBytes?: number;
  /** Event bytes since the last checkpoint, this batch included (when none was written). */
  bytesSinceCheckpoint: number;
}

/** Opens the timeline database, creating the directory and file on first use. */
export function openStore(options: StoreOptions = {}): TimelineStore {
  const file = resolveDatabasePath(options.path);
  const db = openConnection(
    file,
    options.hardLimitBytes === undefined ? {} : { hardLimitBytes: options.hardLimitBytes },
  );
  try {
    return new TimelineStore(db, file, options);
  } catch (err) {
    db.close();
    throw wrapError(file, 'opening the timeline', err);
  }
}

export class TimelineStore {
  readonly path: string;
  private readonly db: Db;
  private readonly clock: Clock;
  /** Fixed checkpoint interval in events, or undefined for the adaptive policy. */
  private readonly checkpointEvery: number | undefined;
  /** JSON bytes of the events appended since the last checkpoint (adaptive policy). */
  private bytesSinceCheckpoint = 0;
  /** JSON size of the last checkpoint written by this process (0: none yet). */
  private lastCheckpointRawBytes = 0;
  private readonly maxEventBytes: number;
  private readonly policy: RetentionPolicy;
  private readonly events: EventTable;
  private readonly checkpoints: SqliteCheckpoints;
  private readonly meta: MetaTable;
  private readonly saved: SavedTimelines;
  private readonly appendTx: Transaction<(batch: EncodedBatch, states?: AppendStates) => Written>;
  private marks: Marks;
  private lastCheckpointSeq: number;
  /** The state at marks.highSeq, kept once known so checkpoints need no re-fold. */
  private live: ClusterState | undefined;
  /** Rebuilds the state at any retained seq (seek.ts). */
  private readonly seeker: StateSeeker;
  private retentionRun: Promise<RetentionReport> | undefined;
  private closed = false;
  /** Saved timelines older than this are deleted by expireSavedTimelines (0: kept until deleted). */
  private readonly savedMaxAgeMs: number;
  private readonly savedQuota: SavedQuota | undefined;

  /** Use openStore(). */
  constructor(db: Db, path: string, options: StoreOptions = {}) {
    this.db = db;
    this.path = path;
    this.clock = options.clock ?? systemClock;
    this.checkpointEvery =
      options.checkpointEvery === undefined
        ? undefined
        : Math.max(1, Math.floor(options.checkpointEvery));
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.policy = options.retention ?? {};
    this.events = new EventTable(db);
    this.checkpoints = new SqliteCheckpoints(db, sqliteBuilder);
    this.meta = new MetaTable(db);
    this.saved = new SavedTimelines(sqliteBuilder, 'sqlite', path);
    this.savedQuota = options.saved
      ? { maxCount: options.saved.maxCount, maxBytes: options.saved.maxBytes }
      : undefined;
    this.savedMaxAgeMs = options.saved?.maxAgeMs ?? 0;
    const marks = this.meta.read();
    // Rows beyond the mark cannot exist (both are written in one transaction), but trust the rows.
    const stored = this.events.maxStoredSeq();
    this.marks = stored > marks.highSeq ? { ...marks, highSeq: stored } : marks;
    this.lastCheckpointSeq = this.checkpoints.latestSeq();
    this.appendTx = db.transaction((batch: EncodedBatch, states?: AppendStates) =>
      this.writeBatch(batch, states),
    );
    this.seeker = new StateSeeker({
      path,
      events: this.events,
      checkpoints: this.checkpoints,
      floorSeq: () => this.marks.floorSeq,
      live: () => this.live,
      inTransaction: () => this.db.inTransaction,
    });
  }

  /**
   * Gives the events the next seqs and writes them in one transaction: after it returns they
   * survive a killed process; if it throws, none of them was written and no seq was used.
   * Returns the sequenced events in input order. `states`: see AppendStates.
   */
  append(input: readonly UnsequencedEvent[], states?: AppendStates): TimelineEvent[] {
    this.assertOpen();
    if (input.length === 0) return [];
    const batch = encodeBatch(
      this.path,
      input,
      this.marks.highSeq + 1,
      this.marks.highT,
      this.maxEventBytes,
    );
    let written: Written;
    try {
      written = this.appendTx.immediate(batch, states);
    } catch (err) {
      throw wrapError(
        this.path,
        `appending ${input.length} events after seq ${this.marks.highSeq}`,
        err,
        'nothing from this batch was written',
      );
    }
    const last = written.batch.rows[written.batch.rows.length - 1];
    if (last) this.marks = { ...this.marks, highSeq: last.seq, highT: written.batch.lastT };
    if (written.checkpointSeq !== undefined) {
      this.lastCheckpointSeq = written.checkpointSeq;
      this.bytesSinceCheckpoint = 0;
      this.lastCheckpointRawBytes = written.checkpointRawBytes ?? 0;
    } else this.bytesSinceCheckpoint = written.bytesSinceCheckpoint;
    this.live = written.live;
    return written.batch.events;
  }

  /**
   * Runs inside the append transaction. Changes no field of `this` except to resynchronise with
   * the file, so a failed COMMIT leaves the in-memory marks matching the database.
   */
  private writeBatch(planned: EncodedBatch, states?: AppendStates): Written {
    let batch = planned;
    // After a restart the state at the head is unknown until a seek or a checkpoint computes it.
    let live = this.live ?? this.seeker.recentAt(this.marks.highSeq);
    let given = states && this.isHead(live, states.before) ? states.after : undefined;
    const stored = this.meta.highSeq();
    if (stored !== this.marks.highSeq) {
      // Another connection appended since we last looked: take its marks, re-sequence, and
      // forget the in-memory state, which no longer matches the file.
      this.marks = { ...this.meta.read(), highSeq: Math.max(stored, this.events.maxStoredSeq()) };
      this.lastCheckpointSeq = this.checkpoints.latestSeq();
      this.live = live = given = undefined;
      const inputs = planned.events.map(({ seq: _seq, ...rest }) => rest);
      batch = encodeBatch(
        this.path,
        inputs,
        this.marks.highSeq + 1,
        this.marks.highT,
        this.maxEventBytes,
      );
    }
    this.events.write(batch.rows);
    let bytesSinceCheckpoint = this.bytesSinceCheckpoint;
    for (const row of batch.rows) bytesSinceCheckpoint += row.body.length;
    const last = batch.rows[batch.rows.length - 1];
    if (!last) return { batch, bytesSinceCheckpoint };
    this.meta.setHigh(last.seq, batch.lastT);
    if (given?.seq === last.seq) live = given;
    else if (live) live = reduceAll(live, batch.events);
    if (!this.checkpointDue(last.seq - this.lastCheckpointSeq, bytesSinceCheckpoint))
      return live ? { batch, live, bytesSinceCheckpoint } : { batch, bytesSinceCheckpoint };
    // Reads inside this transaction see the rows just inserted.
    live ??= this.seeker.foldTo(last.seq);
    const { rawBytes } = this.checkpoints.write(live, this.clock.now());
    return {
      batch,
      live,
      checkpointSeq: last.seq,
      checkpointRawBytes: rawBytes,
      bytesSinceCheckpoint: 0,
    };
  }

  /** Whether `state` is the state at the head: the one held for it, or an empty timeline's. */
  private isHead(held: ClusterState | undefined, state: ClusterState): boolean {
    if (held) return state === held;
    return (
      this.marks.highSeq === 0 &&
      this.marks.floorSeq === 0 &&
      state.seq === 0 &&
      state.t === 0 &&
      Object.keys(state.nodes).length === 0
    );
  }

  /** Whether a checkpoint is due after `events` events (`bytes` of JSON) since the last one. */
  private checkpointDue(events: number, bytes: number): boolean {
    if (this.checkpointEvery !== undefined) return events >= this.checkpointEvery;
    return adaptiveCheckpointDue(events, bytes, this.lastCheckpointRawBytes);
  }

  /** Events in ascending seq, filtered by timeline time, seq, node and kind. */
  range(query: RangeQuery = {}): TimelineEvent[] {
    return this.guard('reading a range of events', () => {
      this.refreshMarks();
      return this.events.range(query, this.marks.highSeq);
    });
  }

  /** Up to `limit` events after `seq`, ascending: what a reconnecting subscriber missed. */
  eventsAfter(seq: number, limit = 1_000): TimelineEvent[] {
    return this.guard(`reading events after seq ${seq}`, () => {
      this.refreshMarks();
      return this.events.range({ afterSeq: seq, limit }, this.marks.highSeq);
    });
  }

  /** The last seq ever assigned (0 for a new timeline); retention never lowers it. */
  latestSeq(): number {
    return this.guard('reading the latest seq', () => {
      this.refreshMarks();
      return this.marks.highSeq;
    });
  }

  /** Number of events stored (after retention). */
  count(): number {
    return this.guard('counting events', () => this.events.count());
  }

  bounds(): TimelineBounds {
    return this.guard('reading the timeline bounds', () => {
      this.refreshMarks();
      const oldest = this.events.oldestRow();
      return {
        floorSeq: this.marks.floorSeq,
        floorT: this.marks.floorT,
        ...(oldest ? { oldestSeq: oldest.seq, oldestT: oldest.t } : {}),
        latestSeq: this.marks.highSeq,
        latestT: this.marks.highT,
      };
    });
  }

  /**
   * The state after every event up to and including `seq` (clamped to the latest). Throws
   * NOT_RETAINED below the retention floor.
   */
  stateAtSeq(seq: number): ClusterState {
    return this.guard(`rebuilding the state at seq ${seq}`, () => {
      checkNumber(this.path, 'seq', seq);
      this.refreshMarks();
      const target = Math.min(Math.floor(seq), this.marks.highSeq);
      if (target < this.marks.floorSeq) {
        throw new PodscopeStoreError(
          this.path,
          'NOT_RETAINED',
          `seq ${seq} is older than the retained timeline (oldest state kept: seq ${this.marks.floorSeq})`,
        );
      }
      return this.seeker.foldTo(target);
    });
  }

  /**
   * The state at moment t (epoch ms): after every event whose timeline time is at or before t.
   * Throws NOT_RETAINED for moments before the retained timeline.
   */
  stateAt(t: number): ClusterState {
    return this.guard(`rebuilding the state at t=${t}`, () => {
      checkNumber(this.path, 't', t);
      this.refreshMarks();
      let seq = this.events.seqAtOrBefore(t) ?? 0;
      if (seq < this.marks.floorSeq) {
        if (this.marks.floorSeq > 0 && t >= this.marks.floorT) seq = this.marks.floorSeq;
        else {
          throw new PodscopeStoreError(
            this.path,
            'NOT_RETAINED',
            `t=${t} is older than the retained timeline (oldest moment kept: t=${this.marks.floorT})`,
          );
        }
      }
      return this.seeker.foldTo(seq);
    });
  }

  /** Writes (or rewrites) a checkpoint at the latest seq now; nothing for an empty timeline. */
  checkpoint(): CheckpointInfo {
    return this.guard('writing a checkpoint', () => {
      this.refreshMarks();
      const seq = this.marks.highSeq;
      if (seq === 0) return { seq: 0, t: 0, bytes: 0 };
      const state = this.seeker.foldTo(seq);
      const { rawBytes, ...info } = this.db
        .transaction(() => this.checkpoints.write(state, this.clock.now()))
        .immediate();
      if (seq >= this.lastCheckpointSeq) {
        this.lastCheckpointSeq = seq;
        this.bytesSinceCheckpoint = 0;
        this.lastCheckpointRawBytes = rawBytes;
      }
      this.live = state;
      return info;
    });
  }

  /**
   * Removes the oldest events and checkpoints beyond the policy (default: the one given to
   * openStore) in bounded batches, yielding between them. Moments from the new floor on stay
   * replayable: a checkpoint is written at the floor before anything is deleted. Concurrent
   * calls share one run.
   */
  retention(policy: RetentionPolicy = this.policy): Promise<RetentionReport> {
    this.assertOpen();
    if (this.retentionRun) return this.retentionRun;
    const run = runRetention(this.retentionHost(), policy).finally(() => {
      this.retentionRun = undefined;
    });
    this.retentionRun = run;
    return run;
  }

  private retentionHost(): RetentionHost {
    return {
      db: this.db,
      path: this.path,
      now: () => this.clock.now(),
      marks: () => this.marks,
      events: this.events,
      checkpoints: this.checkpoints,
      isClosed: () => this.closed,
      usedBytes: () => this.usedBytes(),
      raiseFloor: (seq) => {
        const state = this.seeker.foldTo(seq);
        this.db
          .transaction(() => {
            if (this.checkpoints.nearestSeq(seq) !== seq)
              this.checkpoints.write(state, this.clock.now(), { base: true });
            this.meta.setFloor(seq, state.t);
          })
          .immediate();
        this.marks = { ...this.marks, floorSeq: seq, floorT: state.t };
        return state.t;
      },
    };
  }

  /** Copies the state at `from` and the events up to `to` into a saved timeline that retention leaves alone. */
  saveTimeline(input: SaveTimelineInput): SavedTimelineSummary {
    const live = {
      stateAt: (t: number) => this.stateAt(t),
      seqAtOrBefore: (t: number) => this.events.seqAtOrBefore(t),
    };
    return this.savedWork(
      'saving a timeline',
      'write',
      this.saved.save(input, live, this.clock.now(), this.savedQuota),
    );
  }

  /** Stores a validated timeline file as a saved timeline, within `quota`: all or nothing. */
  importTimeline(file: TimelineFile, createdAt: number, quota?: SavedQuota): SavedTimelineSummary {
    return this.savedWork(
      `importing timeline "${file.title}"`,
      'write',
      this.saved.insert(file, createdAt, quota),
      'nothing was stored',
    );
  }

  getTimeline(id: string): SavedTimeline {
    return this.savedWork(`reading saved timeline ${id}`, 'read', this.saved.get(id));
  }

  listTimelines(): SavedTimelineSummary[] {
    return this.savedWork('listing saved timelines', 'none', this.saved.list());
  }

  hasTimeline(id: string): boolean {
    return this.savedWork(`looking up saved timeline ${id}`, 'none', this.saved.exists(id));
  }

  /** Returns false when there was no such timeline. */
  deleteTimeline(id: string): boolean {
    return this.savedWork(`deleting saved timeline ${id}`, 'none', this.saved.delete(id));
  }

  /** Retention for saved timelines: deletes those older than `saved.maxAgeMs`; returns how many. */
  expireSavedTimelines(): number {
    if (!(this.savedMaxAgeMs > 0)) return 0;
    const before = this.clock.now() - this.savedMaxAgeMs;
    return this.savedWork('expiring saved timelines', 'none', this.saved.expire(before));
  }

  addAnnotation(timelineId: string, annotation: AnnotationInput): Annotation {
    return this.savedWork(
      `annotating saved timeline ${timelineId}`,
      'none',
      this.saved.annotate(timelineId, annotation, this.clock.now()),
    );
  }

  private savedWork<T>(operation: string, tx: TxMode, work: Work<T>, consequence?: string): T {
    this.assertOpen();
    try {
      return runSync(this.db, work, tx);
    } catch (err) {
      throw wrapError(this.path, operation, err, consequence);
    }
  }

  stats(): StoreStats {
    return this.guard('reading store statistics', () => ({
      path: this.path,
      usedBytes: this.usedBytes(),
      fileBytes: this.pragmaNumber('page_count') * this.pragmaNumber('page_size'),
      events: this.events.count(),
      checkpoints: this.checkpoints.count(),
      timelines: runSync(this.db, this.saved.count()),
    }));
  }

  /** SQLite's quick_check: [] when the file is sound, otherwise what it found. */
  verify(): string[] {
    return this.guard('verifying the database', () => {
      const rows = this.db.pragma('quick_check') as { quick_check: string }[];
      const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
      return problems;
    });
  }

  private usedBytes(): number {
    const pages = this.pragmaNumber('page_count') - this.pragmaNumber('freelist_count');
    return pages * this.pragmaNumber('page_size');
  }

  private pragmaNumber(name: 'page_count' | 'page_size' | 'freelist_count'): number {
    return Number(this.db.pragma(name, { simple: true }));
  }

  /** Closes the connection; a retention run in progress stops after its current batch. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.pragma('optimize');
    } catch {
      // Only statistics for the query planner; closing matters more.
    }
    this.db.close();
  }

  /**
   * Takes up what another connection to the same file (a second process reading or writing)
   * committed since: a higher seq, a raised retention floor. A few indexed look-ups.
   */
  private refreshMarks(): void {
    const stored = this.meta.read();
    const grew = stored.highSeq > this.marks.highSeq;
    if (!grew && stored.floorSeq === this.marks.floorSeq) return;
    // The head moved on without us: the in-memory head state is behind.
    if (grew) this.live = undefined;
    this.marks = grew
      ? stored
      : { ...this.marks, floorSeq: stored.floorSeq, floorT: stored.floorT };
  }

  private assertOpen(): void {
    if (this.closed)
      throw new PodscopeStoreError(this.path, 'CLOSED', 'the timeline store is closed');
  }

  private guard<T>(operation: string, fn: () => T): T {
    this.assertOpen();
    try {
      return fn();
    } catch (err) {
      throw wrapError(this.path, operation, err);
    }
  }
}

function checkNumber(path: string, what: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new PodscopeStoreError(
      path,
      'INVALID',
      `${what} must be a finite number, got ${String(value)}`,
    );
  }
}
