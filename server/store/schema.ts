/**
 * The timeline database's schema and its forward migrations.
 *
 * A Podscope database is recognised two ways: SQLite's header field `application_id` carries
 * PODSCOPE_APPLICATION_ID (so `file` and other tools can tell it apart without opening tables),
 * and the `schema_version` table lists every migration applied. A file that is SQLite but not
 * ours is never modified: identification only reads.
 *
 * Migrations only ever go forward. Each runs in its own IMMEDIATE transaction together with the
 * row that records it, so a crash mid-migration leaves the previous version intact and a second
 * process opening the same file waits instead of migrating twice.
 */
import type { Database } from 'better-sqlite3';
import { PodscopeStoreError, sqliteCode, wrapError } from './errors';

/** 'Pdsc' as a big-endian 32-bit integer, written into the SQLite file header. */
export const PODSCOPE_APPLICATION_ID = 0x50647363;

export interface Migration {
  version: number;
  description: string;
  up(db: Database): void;
}

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

export const MIGRATIONS: readonly Migration[] = [
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

/** What identification found in a file before anything is written to it. */
type Identity = { kind: 'empty' } | { kind: 'podscope'; version: number };

function userTables(db: Database): string[] {
  return db
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all();
}

/** Reads (never writes) enough of the file to say whether it is an empty database or ours. */
function identify(db: Database, path: string): Identity {
  let appId: number;
  let tables: string[];
  try {
    appId = db.pragma('application_id', { simple: true }) as number;
    tables = userTables(db);
  } catch (err) {
    if (sqliteCode(err) === 'SQLITE_NOTADB') {
      throw new PodscopeStoreError(
        path,
        'NOT_PODSCOPE',
        'not a Podscope timeline (not an SQLite database)',
        err,
      );
    }
    throw wrapError(path, 'reading the database header', err);
  }
  if (appId !== PODSCOPE_APPLICATION_ID) {
    if (appId === 0 && tables.length === 0) return { kind: 'empty' };
    const what =
      appId !== 0
        ? `SQLite application_id is 0x${appId.toString(16)}, Podscope's is 0x${PODSCOPE_APPLICATION_ID.toString(16)}`
        : `an SQLite database with other tables: ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ' …' : ''}`;
    throw new PodscopeStoreError(path, 'NOT_PODSCOPE', `not a Podscope timeline (${what})`);
  }
  if (!tables.includes('schema_version')) {
    throw new PodscopeStoreError(
      path,
      'CORRUPT',
      'the database file is corrupt (a Podscope header but no schema_version table)',
    );
  }
  const version = db
    .prepare<[], number | null>('SELECT max(version) FROM schema_version')
    .pluck()
    .get();
  return { kind: 'podscope', version: version ?? 0 };
}

/**
 * Identifies the file and brings its schema up to the newest migration. Returns the version the
 * file is at afterwards. `configure` runs after the file is known to be an empty database or
 * ours, and before any migration: connection settings that write (journal_mode = WAL) must not
 * touch a file that is not ours, and some (auto_vacuum) only take effect before the first table.
 */
export function migrate(
  db: Database,
  path: string,
  migrations: readonly Migration[] = MIGRATIONS,
  configure?: (fresh: boolean) => void,
): number {
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const identity = identify(db, path);
  const current = identity.kind === 'empty' ? 0 : identity.version;
  if (current > latest) {
    throw new PodscopeStoreError(
      path,
      'NEWER_SCHEMA',
      `written by a newer Podscope (timeline schema v${current}; this build reads up to v${latest})`,
    );
  }
  configure?.(identity.kind === 'empty');
  const pending = migrations
    .filter((m) => m.version > current)
    .sort((a, b) => a.version - b.version);
  for (const m of pending) {
    const apply = db.transaction(() => {
      // Another process may have migrated while we waited for the write lock.
      const hasTable = userTables(db).includes('schema_version');
      const now = hasTable
        ? (db.prepare<[], number | null>('SELECT max(version) FROM schema_version').pluck().get() ??
          0)
        : 0;
      if (now >= m.version) return;
      m.up(db);
      if (m.version === 1 || !hasTable) db.pragma(`application_id = ${PODSCOPE_APPLICATION_ID}`);
      db.prepare(
        'INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)',
      ).run(m.version, m.description, Date.now());
    });
    try {
      apply.immediate();
    } catch (err) {
      throw wrapError(
        path,
        `migrating the timeline schema to v${m.version} (${m.description})`,
        err,
      );
    }
  }
  return Math.max(current, latest);
}
