/**
 * server/timeline-db — the timeline's database: one schema and one migration set for SQLite and
 * PostgreSQL (schema.ts, migrate.ts), the embedded mode's store over a data directory's SQLite
 * file (store.ts, below), the saved timelines of either dialect (saved.ts), and the pieces the
 * cluster's timeline (server/cluster/timeline) builds on: openDatabase, the snapshot codec, errors.
 *
 * The embedded store (SQLite through better-sqlite3, WAL):
 *
 *   const store = openStore({ path: '.podscope', retention: { maxAgeMs: 7 * 86_400_000 } });
 *   const sequenced = store.append(batch);          // one transaction per relist batch
 *   store.eventsAfter(lastEventId, 1000);           // SSE backfill
 *   store.stateAt(t); store.stateAtSeq(seq);        // replay: nearest checkpoint + fold
 *   await store.retention();                        // call periodically
 *   store.saveTimeline({ title, from, to });        // survives retention
 *
 * Guarantees:
 * - seqs are strictly increasing, never reused (also across restarts and retention);
 * - a batch is all or nothing; once `append` returns, a killed process loses none of it;
 * - every failure is a PodscopeStoreError whose message starts with the database path and
 *   whose `code` says what kind of failure it was; a failed write changes nothing.
 * - States returned by stateAt/stateAtSeq are shared immutable values (as the reducer makes
 *   them): read them, don't mutate them. The same goes for events after `append`: the store folds
 *   them into its head state.
 *
 * Time: each event keeps its own `t`; the store also files it under "timeline time", the
 * running maximum of t up to that event (exactly the reducer's state.t after it). Timeline time
 * never decreases with seq, even if the server clock steps back, so `range({from, to})` and
 * `stateAt(t)` ("every event filed at or before t") are index look-ups with one clear meaning.
 *
 * The database is `<dir>/timeline.db` (default dir `.podscope` in the working directory), in WAL
 * mode with synchronous=NORMAL (see open.ts for why that is durable against a killed process).
 */
export { openStore, TimelineStore, systemClock, ADAPTIVE_CHECKPOINTS } from './store';
export type { AppendStates, Clock, StoreOptions, TimelineBounds, StoreStats } from './store';
export { PodscopeStoreError, isPodscopeStoreError } from './errors';
export type { StoreErrorCode } from './errors';
export { DEFAULT_MAX_EVENT_BYTES, DEFAULT_RANGE_LIMIT } from './events';
export type { RangeQuery } from './events';
export type { CheckpointInfo } from './checkpoints';
export type { SavedQuota } from './quota';
export type { RetentionPolicy, RetentionReport } from './retention';
export { LIMITS as SAVED_TIMELINE_LIMITS, SavedTimelineStore } from './saved';
export type {
  Annotation,
  AnnotationInput,
  SaveTimelineInput,
  SavedTimeline,
  SavedTimelineSummary,
} from './saved';
export {
  DEFAULT_DIR,
  DEFAULT_FILE,
  openDatabase,
  isPostgresUrl,
  redactUrl,
  type OpenOptions,
  type OpenedDatabase,
} from './open';
export { lockTimeline } from './lock';
export type { Dialect } from './schema';
