/**
 * The data directory's schema before the one timeline schema (schema.ts): its own
 * `schema_version` table and three forward migrations. A file at v1 or v2 is brought to v3 here
 * (each step in its own IMMEDIATE transaction with the row that records it), and migration 0007
 * then adopts it: its events, meta and checkpoints are already the embedded log's tables, and its
 * saved timelines move to the saved_* tables.
 */
import type { Database } from 'better-sqlite3';

export interface LegacyMigration {
  version: number;
  description: string;
  up(db: Database): void;
}

/** The last version the legacy scheme knew; 0007 records 4. */
export const LEGACY_LATEST = 3;

const V1 = `
CREATE TABLE schema_version (
  version     INTEGER PRIMARY KEY,
  description TEXT    NOT NULL,
  applied_at  INTEGER NOT NULL
);

-- Small key/value facts: the seq and time high-water marks (never go back, even when retention
-- deletes the newest rows) and the retention floor (the oldest seq whose state is still known).
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);

-- One row per timeline event. "t" is timeline time: the running maximum of the events' own t,
-- which is what the reducer's state.t is after folding the event. It never decreases with seq,
-- so a time can be turned into a seq through the index alone.
CREATE TABLE events (
  seq    INTEGER PRIMARY KEY,
  t      INTEGER NOT NULL,
  node   TEXT    NOT NULL,
  kind   TEXT    NOT NULL,
  type   TEXT    NOT NULL,
  entity TEXT    NOT NULL,
  body   TEXT    NOT NULL
);
CREATE INDEX events_by_t ON events (t);

-- Full ClusterState snapshots: the state after folding every event up to and including seq.
CREATE TABLE checkpoints (
  seq        INTEGER PRIMARY KEY,
  t          INTEGER NOT NULL,
  codec      TEXT    NOT NULL,
  body       BLOB    NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX checkpoints_by_t ON checkpoints (t);

-- Saved (shareable) timelines own copies of their initial state and events, so retention of the
-- live timeline never touches them.
CREATE TABLE timelines (
  id            TEXT    PRIMARY KEY,
  title         TEXT    NOT NULL,
  notes         TEXT    NOT NULL,
  from_t        INTEGER NOT NULL,
  to_t          INTEGER NOT NULL,
  from_seq      INTEGER NOT NULL,
  to_seq        INTEGER NOT NULL,
  created_at    INTEGER NOT NULL,
  initial_codec TEXT    NOT NULL,
  initial_state BLOB    NOT NULL,
  event_count   INTEGER NOT NULL
);
CREATE INDEX timelines_by_created ON timelines (created_at);

CREATE TABLE timeline_events (
  timeline_id TEXT    NOT NULL REFERENCES timelines (id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  t           INTEGER NOT NULL,
  body        TEXT    NOT NULL,
  PRIMARY KEY (timeline_id, seq)
);

CREATE TABLE annotations (
  id          INTEGER PRIMARY KEY,
  timeline_id TEXT    NOT NULL REFERENCES timelines (id) ON DELETE CASCADE,
  t           INTEGER NOT NULL,
  entity      TEXT,
  text        TEXT    NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX annotations_by_timeline ON annotations (timeline_id, t);
`;

export const LEGACY_MIGRATIONS: readonly LegacyMigration[] = [
  {
    version: 1,
    description: 'events, checkpoints, meta, saved timelines and annotations',
    up: (db) => db.exec(V1),
  },
  {
    version: 2,
    description: 'annotations keep their author (timeline files carry one)',
    up: (db) => db.exec('ALTER TABLE annotations ADD COLUMN author TEXT'),
  },
  {
    version: 3,
    description: 'saved timelines record their size (quotas)',
    up: (db) =>
      db.exec(`ALTER TABLE timelines ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
        UPDATE timelines SET bytes = length(initial_state) + coalesce(
          (SELECT sum(octet_length(body)) FROM timeline_events e WHERE e.timeline_id = timelines.id), 0);`),
  },
];

/** Brings a legacy file (or, given `upTo`, an empty one: tests) to `upTo` (default v3). */
export function upgradeLegacy(
  db: Database,
  current: number,
  upTo = LEGACY_LATEST,
  migrations: readonly LegacyMigration[] = LEGACY_MIGRATIONS,
): void {
  for (const m of migrations.filter((x) => x.version > current && x.version <= upTo)) {
    db.transaction(() => {
      const now =
        current === 0 && m.version === 1
          ? 0
          : (db
              .prepare<[], number | null>('SELECT max(version) FROM schema_version')
              .pluck()
              .get() ?? 0);
      if (now >= m.version) return;
      m.up(db);
      db.prepare(
        'INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)',
      ).run(m.version, m.description, Date.now());
    }).immediate();
  }
}
