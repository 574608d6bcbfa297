/**
 * The one timeline schema: its tables and its one migration set, for PostgreSQL and SQLite, for
 * the embedded mode's data directory (`.podscope/timeline.db`) and the cluster's database alike.
 *
 * Tables, by what they hold:
 * - `events`, `meta` (SQLite): the embedded recorder's log, one row per event under its seq, and
 *   its marks (highest seq and time ever, the retention floor); store.ts.
 * - `cluster_messages` (both): the cluster's log, one row per bus message as the agent published
 *   it, keyed for idempotency by (node, epoch, node_seq); its `gid` is the first event's global id
 *   and it holds `count` events (server/cluster/timeline). On PostgreSQL range-partitioned by day
 *   on `t` (the earliest event time in the message, which a redelivery repeats, so the unique key
 *   can include it) and BRIN-indexed on t; retention drops whole partitions. SQLite keeps one
 *   table and deletes by t.
 * - `checkpoints` (both): whole states folded from either log up to a seq (a gid in the
 *   cluster's), in snapshot.ts's codec; one table and one implementation (checkpoints.ts).
 * - `saved_timelines`, `saved_timeline_events`, `saved_annotations` (both): saved timelines,
 *   each owning copies of its initial state and events, so retention never touches them
 *   (saved.ts).
 *
 * Migrations (why kysely, 0.28.x: its schema and query builders are dialect-neutral for what is
 * needed here and it ships both dialects, where drizzle declares tables per dialect,
 * drizzle-orm#1196; 0.29 needs Node 22). Each migration has a PostgreSQL half, run by kysely's
 * Migrator, and an SQLite half, run synchronously by migrate.ts — a data directory is opened
 * synchronously, like the embedded recorder that writes it — and both record themselves in
 * kysely's own `kysely_migration` table, so a file migrated by either reads the same. A half that
 * is absent does nothing on that dialect (and is still recorded). A data directory written before
 * this schema (its own `schema_version` v1–v3, legacy.ts) is brought to v3 and then adopted by
 * 0007, which keeps its log and moves its saved timelines.
 */
import type { Database as SqliteDb } from 'better-sqlite3';
import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type Compilable,
  type Generated,
} from 'kysely';
import { execSync } from './work';

export type Dialect = 'postgres' | 'sqlite';

/** 'Pdsc' as a big-endian 32-bit integer, written into an SQLite file's header. */
export const PODSCOPE_APPLICATION_ID = 0x50647363;

/** The embedded log: one row per event. */
export interface EventsTable {
  seq: number;
  /** Timeline time: the running maximum of the events' own t up to this one (state.t after it). */
  t: number;
  node: string;
  kind: string;
  type: string;
  entity: string;
  /** lib/timeline's encoding of the event. */
  body: string;
}

/** The embedded log's marks (meta.ts): high_seq, high_t, floor_seq, floor_t. */
export interface MetaTable {
  key: string;
  value: number;
}

/**
 * Checkpoints of either log (checkpoints.ts, since 0008): the state folded from the log up to a
 * seq, so a seek starts from the newest one before its moment and its cost does not grow with
 * the log's length.
 */
export interface CheckpointsTable {
  /** Every event up to and including this seq (the cluster's: a global id) is folded in. */
  seq: number;
  /** The newest event time folded in (the state's t): it serves states at t_max and later. */
  t_max: number;
  /** The agent run each node's state came from, as JSON ({ node: epoch }; {} in embedded mode). */
  epochs: string;
  /** 1: written for retention, which then removed the events before it (the log's base). */
  base: number;
  /** snapshot.ts's codec and its bytes. */
  codec: string;
  body: Buffer;
  created_at: number;
}

/** `cluster_events` (0001–0003): one row per event; 0004 moved its rows to cluster_messages. */
export interface ClusterEventsTable {
  /** Global id: stream sequence × 1024 + index (server/cluster/global.ts). */
  gid: number;
  /** The event's own time (epoch ms). */
  t: number;
  node: string;
  epoch: string;
  node_seq: number;
  stream_seq: number;
  kind: string;
  type: string;
  entity: string;
  /** The event as JSON (seq = gid). */
  body: string;
}

export interface ClusterMessagesTable {
  /** The global id of its first event (server/cluster/global.ts: stream seq × 1024 + index). */
  gid: number;
  /** Events in it: they have gids gid … gid + count − 1. */
  count: number;
  /** Its earliest event's time (epoch ms): the partition key. */
  t: number;
  /** Its latest event's time. */
  t_max: number;
  node: string;
  epoch: string;
  /** The agent's seq of its first event (of a gap message: the first seq lost). */
  node_seq: number;
  stream_seq: number;
  /** server/cluster/timeline/rows.ts: FORMAT_MESSAGE (as published) or FORMAT_EVENT (pre-0004). */
  format: number;
  body: string;
}

/** `cluster_checkpoints` (0002–0007): the cluster's checkpoints; 0008 made them `checkpoints`. */
export interface ClusterCheckpointsTable {
  /** Every event with a gid up to this one is folded in. */
  gid: number;
  /** The newest event time folded in: the checkpoint serves states at t_max and later. */
  t_max: number;
  /** The agent run each node's state came from, as JSON ({ node: epoch }). */
  epochs: string;
  /** 1: written for retention, which then removed the events before it (the timeline's base). */
  base: number;
  /** snapshot.ts's codec and its bytes. */
  codec: string;
  body: Buffer;
  created_at: number;
}

export interface SavedTimelinesTable {
  id: string;
  title: string;
  notes: string;
  from_t: number;
  to_t: number;
  /** The initial state includes everything up to from_seq; events run from from_seq+1 to to_seq. */
  from_seq: number;
  to_seq: number;
  created_at: number;
  /** snapshot.ts's codec and its bytes. */
  initial_codec: string;
  initial_state: Buffer;
  event_count: number;
  /** The initial state's bytes plus the events' (UTF-8), for the byte quota. */
  bytes: number;
}

export interface SavedTimelineEventsTable {
  timeline_id: string;
  seq: number;
  t: number;
  /** lib/timeline/codec's encoding of the event. */
  body: string;
}

export interface SavedAnnotationsTable {
  /** Generated by the database. */
  id: Generated<number>;
  timeline_id: string;
  t: number;
  entity: string | null;
  text: string;
  author: string | null;
  created_at: number;
}

/** Every table of the schema (a database holds those of its dialect). */
export interface Tables {
  events: EventsTable;
  meta: MetaTable;
  checkpoints: CheckpointsTable;
  cluster_messages: ClusterMessagesTable;
  saved_timelines: SavedTimelinesTable;
  saved_timeline_events: SavedTimelineEventsTable;
  saved_annotations: SavedAnnotationsTable;
}

/** The cluster's tables (server/cluster/timeline's database type). */
export type TimelineDatabase = Pick<Tables, 'cluster_messages' | 'checkpoints'>;

export interface TimelineMigration {
  /** Sorted by name; kysely_migration records it. */
  name: string;
  /** PostgreSQL: run by kysely's Migrator, in its transaction. */
  postgres?: (db: Kysely<unknown>) => Promise<void>;
  /** PostgreSQL: undoing it (kysely's migrateTo an older name). */
  postgresDown?: (db: Kysely<unknown>) => Promise<void>;
  /** SQLite: run synchronously inside an IMMEDIATE transaction (migrate.ts). */
  sqlite?: (db: SqliteDb) => void;
}

/** Compiles (never runs) kysely's builders for SQLite: the SQLite halves run them synchronously. */
export const sqliteBuilder = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const b = sqliteBuilder as unknown as Kysely<unknown>;

function ddl(db: SqliteDb, ...queries: Compilable<unknown>[]): void {
  for (const q of queries) execSync(db, q.compile(), 'run');
}

/** The day partitions of cluster_messages on PostgreSQL: `cluster_messages_day_<days since 1970>`. */
export const PARTITION_PREFIX = 'cluster_messages_day_';
export const DAY_MS = 86_400_000;

/**
 * Creates cluster_messages' partition for one UTC day (days since 1970-01-01), if missing, as the
 * schema's owner: what migrations run (before 0009 the functions below do not exist).
 */
async function createDayPartitionAsOwner(db: Kysely<unknown>, day: number): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS ${sql.table(`${PARTITION_PREFIX}${day}`)} PARTITION OF cluster_messages
            FOR VALUES FROM (${sql.lit(day * DAY_MS)}) TO (${sql.lit((day + 1) * DAY_MS)})`.execute(
    db,
  );
}

type AnyDb = Kysely<unknown> | Kysely<TimelineDatabase> | Kysely<Tables>;

/**
 * Creates the partition for one UTC day through podscope_create_day_partition (migration 0009):
 * the one piece of DDL a console does, run with the owner's rights inside a function that can
 * create nothing else, so the console's own role needs no CREATE (docs/security.md).
 */
export async function createDayPartition(db: AnyDb, day: number): Promise<void> {
  await beforeFunctions(
    () => sql`SELECT podscope_create_day_partition(${Math.trunc(day)}::integer)`.execute(db),
    () => createDayPartitionAsOwner(db as Kysely<unknown>, day),
  );
}

/** Drops one UTC day's partition (retention) through podscope_drop_day_partition (0009). */
export async function dropDayPartition(db: AnyDb, day: number): Promise<void> {
  await beforeFunctions(
    () => sql`SELECT podscope_drop_day_partition(${Math.trunc(day)}::integer)`.execute(db),
    () =>
      sql`DROP TABLE IF EXISTS ${sql.table(`${PARTITION_PREFIX}${Math.trunc(day)}`)}`.execute(db),
  );
}

/**
 * A schema migrated only up to before 0009 (upgrade tests: `migrateTo`) has no partition
 * functions; its opener owns it, so the DDL runs directly.
 */
async function beforeFunctions(
  viaFunction: () => Promise<unknown>,
  direct: () => Promise<unknown>,
) {
  try {
    await viaFunction();
  } catch (err) {
    if ((err as { code?: string }).code !== '42883') throw err; // undefined_function
    await direct();
  }
}

/** The functions 0009 creates: EXECUTE on them is all a console role gets beyond rows. */
export const PARTITION_FUNCTIONS = [
  'podscope_create_day_partition(integer)',
  'podscope_drop_day_partition(integer)',
] as const;

export const MIGRATIONS: readonly TimelineMigration[] = [
  {
    name: '0001_cluster_events',
    async postgres(db) {
      await sql`
        CREATE TABLE cluster_events (
          gid        bigint NOT NULL,
          t          bigint NOT NULL,
          node       text   NOT NULL,
          epoch      text   NOT NULL,
          node_seq   bigint NOT NULL,
          stream_seq bigint NOT NULL,
          kind       text   NOT NULL,
          type       text   NOT NULL,
          entity     text   NOT NULL,
          body       text   NOT NULL,
          PRIMARY KEY (gid, t),
          UNIQUE (node, epoch, node_seq, t)
        ) PARTITION BY RANGE (t)`.execute(db);
      await sql`CREATE INDEX cluster_events_t_brin ON cluster_events USING brin (t)`.execute(db);
      await sql`CREATE INDEX cluster_events_entity ON cluster_events (entity, gid)`.execute(db);
    },
    async postgresDown(db) {
      await db.schema.dropTable('cluster_events').execute();
    },
    sqlite(db) {
      ddl(
        db,
        b.schema
          .createTable('cluster_events')
          .addColumn('gid', 'integer', (c) => c.primaryKey())
          .addColumn('t', 'integer', (c) => c.notNull())
          .addColumn('node', 'text', (c) => c.notNull())
          .addColumn('epoch', 'text', (c) => c.notNull())
          .addColumn('node_seq', 'integer', (c) => c.notNull())
          .addColumn('stream_seq', 'integer', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('entity', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addUniqueConstraint('cluster_events_identity', ['node', 'epoch', 'node_seq']),
        b.schema.createIndex('cluster_events_t').on('cluster_events').column('t'),
        b.schema
          .createIndex('cluster_events_entity')
          .on('cluster_events')
          .columns(['entity', 'gid']),
      );
    },
  },
  {
    name: '0002_cluster_checkpoints',
    async postgres(db) {
      await clusterCheckpoints(db, 'postgres').execute();
      await clusterCheckpointsIndex(db).execute();
    },
    async postgresDown(db) {
      await db.schema.dropTable('cluster_checkpoints').execute();
    },
    sqlite(db) {
      ddl(db, clusterCheckpoints(b, 'sqlite'), clusterCheckpointsIndex(b));
    },
  },
  {
    // Saved timelines shared by every replica; on SQLite they came with 0006.
    name: '0003_saved_timelines',
    async postgres(db) {
      await sql`
        CREATE TABLE saved_timelines (
          id            text   PRIMARY KEY,
          title         text   NOT NULL,
          notes         text   NOT NULL,
          from_t        bigint NOT NULL,
          to_t          bigint NOT NULL,
          from_seq      bigint NOT NULL,
          to_seq        bigint NOT NULL,
          created_at    bigint NOT NULL,
          initial_codec text   NOT NULL,
          initial_state bytea  NOT NULL,
          event_count   integer NOT NULL,
          bytes         bigint NOT NULL
        )`.execute(db);
      await sql`CREATE INDEX saved_timelines_created ON saved_timelines (created_at)`.execute(db);
      await sql`
        CREATE TABLE saved_timeline_events (
          timeline_id text   NOT NULL REFERENCES saved_timelines (id) ON DELETE CASCADE,
          seq         bigint NOT NULL,
          t           bigint NOT NULL,
          body        text   NOT NULL,
          PRIMARY KEY (timeline_id, seq)
        )`.execute(db);
      await sql`
        CREATE TABLE saved_annotations (
          id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          timeline_id text   NOT NULL REFERENCES saved_timelines (id) ON DELETE CASCADE,
          t           bigint NOT NULL,
          entity      text,
          text        text   NOT NULL,
          author      text,
          created_at  bigint NOT NULL
        )`.execute(db);
      await sql`CREATE INDEX saved_annotations_by_timeline ON saved_annotations (timeline_id, t, id)`.execute(
        db,
      );
    },
    async postgresDown(db) {
      await sql`DROP TABLE IF EXISTS saved_annotations, saved_timeline_events, saved_timelines`.execute(
        db,
      );
    },
  },
  {
    /**
     * One row per bus message instead of one per event. The events stored before it move over as
     * they are, each a one-event row in FORMAT_EVENT (its body the event under its global id), so
     * a timeline keeps its whole history through the upgrade.
     */
    name: '0004_cluster_messages',
    async postgres(db) {
      await sql`
        CREATE TABLE cluster_messages (
          gid        bigint   NOT NULL,
          count      integer  NOT NULL,
          t          bigint   NOT NULL,
          t_max      bigint   NOT NULL,
          node       text     NOT NULL,
          epoch      text     NOT NULL,
          node_seq   bigint   NOT NULL,
          stream_seq bigint   NOT NULL,
          format     smallint NOT NULL,
          body       text     NOT NULL,
          PRIMARY KEY (gid, t),
          UNIQUE (node, epoch, node_seq, t)
        ) PARTITION BY RANGE (t)`.execute(db);
      await sql`CREATE INDEX cluster_messages_t_brin ON cluster_messages USING brin (t)`.execute(
        db,
      );
      const days = await sql<{ day: string }>`
        SELECT DISTINCT floor(t / ${sql.lit(DAY_MS)})::bigint AS day FROM cluster_events`.execute(
        db,
      );
      for (const { day } of days.rows) await createDayPartitionAsOwner(db, Number(day));
      await sql.raw(MOVE_CLUSTER_EVENTS).execute(db);
      await db.schema.dropTable('cluster_events').execute();
    },
    async postgresDown(db) {
      await db.schema.dropTable('cluster_messages').execute();
    },
    sqlite(db) {
      ddl(
        db,
        b.schema
          .createTable('cluster_messages')
          .addColumn('gid', 'integer', (c) => c.primaryKey())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addColumn('t', 'integer', (c) => c.notNull())
          .addColumn('t_max', 'integer', (c) => c.notNull())
          .addColumn('node', 'text', (c) => c.notNull())
          .addColumn('epoch', 'text', (c) => c.notNull())
          .addColumn('node_seq', 'integer', (c) => c.notNull())
          .addColumn('stream_seq', 'integer', (c) => c.notNull())
          .addColumn('format', 'integer', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addUniqueConstraint('cluster_messages_identity', ['node', 'epoch', 'node_seq']),
        b.schema.createIndex('cluster_messages_t').on('cluster_messages').column('t'),
      );
      db.exec(MOVE_CLUSTER_EVENTS);
      ddl(db, b.schema.dropTable('cluster_events'));
    },
  },
  {
    /**
     * Message bodies compressed with lz4 rather than PostgreSQL's default pglz: nearly every row
     * is compressed on insert, and lz4 cut PostgreSQL's CPU per stored event by about a third
     * (bench/lib/cluster-path.ts with CLUSTER_PATH_PG=1: 6.8 → 4.6 µs) for a few more bytes
     * (docs/benchmark-history.md). Set on the parent — later partitions inherit it — and on each
     * partition there already is; rows written before keep pglz. A server built without lz4 keeps
     * pglz, with a notice. SQLite has no such setting.
     */
    name: '0005_lz4_message_bodies',
    postgres: (db) => setBodyCompression(db, 'lz4'),
    postgresDown: (db) => setBodyCompression(db, 'pglz'),
  },
  {
    // Saved timelines on SQLite too (0003 made them on PostgreSQL): one saved-timeline store.
    name: '0006_saved_timelines_sqlite',
    sqlite(db) {
      ddl(
        db,
        b.schema
          .createTable('saved_timelines')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('notes', 'text', (c) => c.notNull())
          .addColumn('from_t', 'integer', (c) => c.notNull())
          .addColumn('to_t', 'integer', (c) => c.notNull())
          .addColumn('from_seq', 'integer', (c) => c.notNull())
          .addColumn('to_seq', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'integer', (c) => c.notNull())
          .addColumn('initial_codec', 'text', (c) => c.notNull())
          .addColumn('initial_state', 'blob', (c) => c.notNull())
          .addColumn('event_count', 'integer', (c) => c.notNull())
          .addColumn('bytes', 'integer', (c) => c.notNull()),
        b.schema.createIndex('saved_timelines_created').on('saved_timelines').column('created_at'),
        b.schema
          .createTable('saved_timeline_events')
          .addColumn('timeline_id', 'text', (c) =>
            c.notNull().references('saved_timelines.id').onDelete('cascade'),
          )
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('t', 'integer', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('saved_timeline_events_pk', ['timeline_id', 'seq']),
        b.schema
          .createTable('saved_annotations')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('timeline_id', 'text', (c) =>
            c.notNull().references('saved_timelines.id').onDelete('cascade'),
          )
          .addColumn('t', 'integer', (c) => c.notNull())
          .addColumn('entity', 'text')
          .addColumn('text', 'text', (c) => c.notNull())
          .addColumn('author', 'text')
          .addColumn('created_at', 'integer', (c) => c.notNull()),
        b.schema
          .createIndex('saved_annotations_by_timeline')
          .on('saved_annotations')
          .columns(['timeline_id', 't', 'id']),
      );
    },
  },
  {
    /**
     * The embedded recorder's log. A data directory written before this schema already has these
     * tables as they are here (legacy.ts): they stay, and its saved timelines move to 0006's
     * tables. `schema_version` is kept and says 4, so a Podscope from before refuses the file as
     * written by a newer one instead of calling it corrupt.
     */
    name: '0007_embedded_log',
    sqlite(db) {
      const legacy = hasTable(db, 'timelines');
      ddl(
        db,
        b.schema
          .createTable('meta')
          .ifNotExists()
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'integer', (c) => c.notNull()),
        b.schema
          .createTable('events')
          .ifNotExists()
          .addColumn('seq', 'integer', (c) => c.primaryKey())
          .addColumn('t', 'integer', (c) => c.notNull())
          .addColumn('node', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('entity', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull()),
        b.schema.createIndex('events_by_t').ifNotExists().on('events').column('t'),
        b.schema
          .createTable('checkpoints')
          .ifNotExists()
          .addColumn('seq', 'integer', (c) => c.primaryKey())
          .addColumn('t', 'integer', (c) => c.notNull())
          .addColumn('codec', 'text', (c) => c.notNull())
          .addColumn('body', 'blob', (c) => c.notNull())
          .addColumn('created_at', 'integer', (c) => c.notNull()),
        b.schema.createIndex('checkpoints_by_t').ifNotExists().on('checkpoints').column('t'),
      );
      if (legacy) {
        db.exec(`
          INSERT INTO saved_timelines (id, title, notes, from_t, to_t, from_seq, to_seq, created_at,
              initial_codec, initial_state, event_count, bytes)
            SELECT id, title, notes, from_t, to_t, from_seq, to_seq, created_at,
              initial_codec, initial_state, event_count, bytes FROM timelines;
          INSERT INTO saved_timeline_events (timeline_id, seq, t, body)
            SELECT timeline_id, seq, t, body FROM timeline_events;
          INSERT INTO saved_annotations (id, timeline_id, t, entity, text, author, created_at)
            SELECT id, timeline_id, t, entity, text, author, created_at FROM annotations;
          DROP TABLE annotations;
          DROP TABLE timeline_events;
          DROP TABLE timelines;`);
      }
      db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
          version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
      db.prepare(
        'INSERT OR IGNORE INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)',
      ).run(4, 'the one timeline schema: migrations in kysely_migration', Date.now());
    },
  },
  {
    /**
     * One checkpoints table for both logs: the embedded log's (seq, t) and the cluster's
     * cluster_checkpoints (gid, t_max, epochs, base) become `checkpoints` (seq, t_max, epochs,
     * base). An embedded checkpoint's t is the newest event time it folded in, which is what
     * t_max says; the one at the retention floor is the log's base.
     */
    name: '0008_one_checkpoints_table',
    async postgres(db) {
      await sql`ALTER TABLE cluster_checkpoints RENAME TO checkpoints`.execute(db);
      await sql`ALTER TABLE checkpoints RENAME COLUMN gid TO seq`.execute(db);
      await sql`ALTER INDEX cluster_checkpoints_t_max RENAME TO checkpoints_t_max`.execute(db);
    },
    async postgresDown(db) {
      await sql`ALTER INDEX checkpoints_t_max RENAME TO cluster_checkpoints_t_max`.execute(db);
      await sql`ALTER TABLE checkpoints RENAME COLUMN seq TO gid`.execute(db);
      await sql`ALTER TABLE checkpoints RENAME TO cluster_checkpoints`.execute(db);
    },
    sqlite(db) {
      db.exec('ALTER TABLE checkpoints RENAME TO embedded_checkpoints_v1');
      ddl(
        db,
        b.schema
          .createTable('checkpoints')
          .addColumn('seq', 'integer', (c) => c.primaryKey())
          .addColumn('t_max', 'integer', (c) => c.notNull())
          .addColumn('epochs', 'text', (c) => c.notNull())
          .addColumn('base', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('codec', 'text', (c) => c.notNull())
          .addColumn('body', 'blob', (c) => c.notNull())
          .addColumn('created_at', 'integer', (c) => c.notNull()),
      );
      db.exec(`
        INSERT INTO checkpoints (seq, t_max, epochs, base, codec, body, created_at)
          SELECT seq, t, '{}',
            CASE WHEN seq = (SELECT value FROM meta WHERE key = 'floor_seq') THEN 1 ELSE 0 END,
            codec, body, created_at FROM embedded_checkpoints_v1;
        INSERT INTO checkpoints (seq, t_max, epochs, base, codec, body, created_at)
          SELECT gid, t_max, epochs, base, codec, body, created_at FROM cluster_checkpoints;
        DROP TABLE embedded_checkpoints_v1;
        DROP TABLE cluster_checkpoints;`);
      ddl(
        db,
        b.schema.createIndex('checkpoints_t_max').on('checkpoints').columns(['t_max', 'seq']),
      );
    },
  },
  {
    /**
     * The day partitions of cluster_messages are made and dropped by two SECURITY DEFINER
     * functions owned by the schema's owner, so that the consoles' role (docs/security.md:
     * `podscope migrate --grant`) needs no CREATE on the schema and owns no table: it may add
     * and drop a day of cluster_messages and nothing else. search_path is pinned so the
     * functions resolve only the schema's own objects.
     */
    name: '0009_partition_functions',
    async postgres(db) {
      const prefix = sql.lit(PARTITION_PREFIX);
      const day = sql.lit(DAY_MS);
      const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
      const schema = sql.id(rows[0]?.schema ?? 'public');
      await sql`
        CREATE FUNCTION podscope_create_day_partition(day integer) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${schema}, pg_temp AS $fn$
        BEGIN
          EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF cluster_messages FOR VALUES FROM (%s) TO (%s)',
            ${prefix} || day, day::bigint * ${day}, (day::bigint + 1) * ${day});
        EXCEPTION WHEN duplicate_table OR unique_violation THEN
          NULL; -- two writers made the same day at once: it exists, which is what was asked
        END $fn$`.execute(db);
      await sql`
        CREATE FUNCTION podscope_drop_day_partition(day integer) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${schema}, pg_temp AS $fn$
        BEGIN
          EXECUTE format('DROP TABLE IF EXISTS %I', ${prefix} || day);
        END $fn$`.execute(db);
      for (const f of PARTITION_FUNCTIONS)
        await sql`REVOKE ALL ON FUNCTION ${sql.raw(f)} FROM PUBLIC`.execute(db);
    },
    async postgresDown(db) {
      for (const f of PARTITION_FUNCTIONS)
        await sql`DROP FUNCTION IF EXISTS ${sql.raw(f)}`.execute(db);
    },
  },
];

/** The newest migration's name. */
export const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1]?.name ?? '';

const MOVE_CLUSTER_EVENTS = `
  INSERT INTO cluster_messages (gid, count, t, t_max, node, epoch, node_seq, stream_seq, format, body)
  SELECT gid, 1, t, t, node, epoch, node_seq, stream_seq, 0, body FROM cluster_events`;

export function hasTable(db: SqliteDb, name: string): boolean {
  return (
    db
      .prepare<[string], number>(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?",
      )
      .pluck()
      .get(name) === 1
  );
}

function clusterCheckpoints(db: Kysely<unknown>, dialect: Dialect) {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  return db.schema
    .createTable('cluster_checkpoints')
    .addColumn('gid', bigint, (c) => c.primaryKey())
    .addColumn('t_max', bigint, (c) => c.notNull())
    .addColumn('epochs', 'text', (c) => c.notNull())
    .addColumn('base', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('codec', 'text', (c) => c.notNull())
    .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull());
}

function clusterCheckpointsIndex(db: Kysely<unknown>) {
  // Named for the table of 0002; 0008 renames both.
  return db.schema
    .createIndex('cluster_checkpoints_t_max')
    .on('cluster_checkpoints')
    .columns(['t_max', 'gid']);
}

/**
 * Sets how PostgreSQL compresses cluster_messages' bodies, on the table and on every partition it
 * has; a server without that method (lz4 is a build option) keeps what it had, with a notice.
 */
async function setBodyCompression(db: Kysely<unknown>, method: 'lz4' | 'pglz'): Promise<void> {
  const m = sql.raw(method); // one of two literals, never input
  await sql`
    DO $$
    DECLARE part regclass;
    BEGIN
      ALTER TABLE cluster_messages ALTER COLUMN body SET COMPRESSION ${m};
      FOR part IN SELECT inhrelid::regclass FROM pg_inherits
                  WHERE inhparent = 'cluster_messages'::regclass LOOP
        EXECUTE format('ALTER TABLE %s ALTER COLUMN body SET COMPRESSION ${m}', part);
      END LOOP;
    EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
      RAISE NOTICE 'podscope: this PostgreSQL has no ${m} (%); message bodies keep theirs', SQLERRM;
    END $$`.execute(db);
}
