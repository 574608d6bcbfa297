/**
 * The cluster timeline's schema: one kysely migration set for PostgreSQL and SQLite.
 *
 * Why kysely (0.28.x): its schema builder, Migrator and query builder are dialect-neutral for
 * what we need (ON CONFLICT DO NOTHING, RETURNING) and it ships both dialects (pg and
 * better-sqlite3), so one migration file serves both; drizzle declares tables per dialect
 * (drizzle-orm#1196). 0.29 needs Node 22, so 0.28 is pinned (package.json).
 *
 * `cluster_messages` holds one row per bus message (migration 0004; until then `cluster_events`
 * held one row per event): its body is the message as the agent published it (rows.ts), keyed
 * for idempotency by (node, epoch, node_seq) — the agent's seq of its first event — so a
 * redelivered or republished message is one row. Its `gid` is its first event's global id; it
 * holds `count` events, gids gid … gid + count − 1. On PostgreSQL the table is range-partitioned
 * by day on `t` (the earliest event time in the message, which a redelivery repeats, so the unique
 * key can include it as partitioning requires) and BRIN-indexed on t inside each partition;
 * retention drops whole partitions. SQLite keeps one table and deletes by t.
 * (An agent resends a message byte for byte; a sender that changed its times under the same seq
 * would get a second row on PostgreSQL — the console's reader drops it by seq anyway.)
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { savedTimelinesMigration } from './saved';

export type Dialect = 'postgres' | 'sqlite';

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
  /** rows.ts: FORMAT_MESSAGE (the message as published) or FORMAT_EVENT (one event, pre-0004). */
  format: number;
  body: string;
}

/**
 * The cluster state folded from the timeline up to a gid (checkpoints.ts): a seek starts from
 * the newest one before its moment, so its cost does not grow with the timeline's length.
 */
export interface ClusterCheckpointsTable {
  /** Every event with a gid up to this one is folded in. */
  gid: number;
  /** The newest event time folded in: the checkpoint serves states at t_max and later. */
  t_max: number;
  /** The agent run each node's state came from, as JSON ({ node: epoch }). */
  epochs: string;
  /** 1: written for retention, which then removed the events before it (the timeline's base). */
  base: number;
  /** server/store/snapshot.ts's codec and its bytes. */
  codec: string;
  body: Buffer;
  created_at: number;
}

export interface TimelineDatabase {
  cluster_messages: ClusterMessagesTable;
  cluster_checkpoints: ClusterCheckpointsTable;
}

export const MIGRATIONS = (dialect: Dialect): Record<string, Migration> => ({
  '0001_cluster_events': {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
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
        return;
      }
      await db.schema
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
        .addUniqueConstraint('cluster_events_identity', ['node', 'epoch', 'node_seq'])
        .execute();
      await db.schema.createIndex('cluster_events_t').on('cluster_events').column('t').execute();
      await db.schema
        .createIndex('cluster_events_entity')
        .on('cluster_events')
        .columns(['entity', 'gid'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('cluster_events').execute();
    },
  },
  '0002_cluster_checkpoints': {
    async up(db: Kysely<unknown>) {
      const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('cluster_checkpoints')
        .addColumn('gid', bigint, (c) => c.primaryKey())
        .addColumn('t_max', bigint, (c) => c.notNull())
        .addColumn('epochs', 'text', (c) => c.notNull())
        .addColumn('base', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('codec', 'text', (c) => c.notNull())
        .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cluster_checkpoints_t_max')
        .on('cluster_checkpoints')
        .columns(['t_max', 'gid'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('cluster_checkpoints').execute();
    },
  },
  // Saved timelines shared by every replica (PostgreSQL only; saved.ts).
  '0003_saved_timelines': savedTimelinesMigration(dialect),
  '0004_cluster_messages': messagesMigration(dialect),
  '0005_lz4_message_bodies': lz4BodiesMigration(dialect),
});

/** The day partitions of cluster_messages on PostgreSQL: `cluster_messages_day_<days since 1970>`. */
export const PARTITION_PREFIX = 'cluster_messages_day_';
export const DAY_MS = 86_400_000;

/** Creates cluster_messages' partition for one UTC day (days since 1970-01-01), if missing. */
export async function createDayPartition(
  db: Kysely<unknown> | Kysely<TimelineDatabase>,
  day: number,
): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS ${sql.table(`${PARTITION_PREFIX}${day}`)} PARTITION OF cluster_messages
            FOR VALUES FROM (${sql.lit(day * DAY_MS)}) TO (${sql.lit((day + 1) * DAY_MS)})`.execute(
    db,
  );
}

/**
 * One row per bus message instead of one per event. The events stored before it move over as
 * they are, each a one-event row in FORMAT_EVENT (its body the event under its global id), so a
 * timeline keeps its whole history through the upgrade.
 */
function messagesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
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
        for (const { day } of days.rows) await createDayPartition(db, Number(day));
      } else {
        await db.schema
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
          .addUniqueConstraint('cluster_messages_identity', ['node', 'epoch', 'node_seq'])
          .execute();
        await db.schema
          .createIndex('cluster_messages_t')
          .on('cluster_messages')
          .column('t')
          .execute();
      }
      await sql`
        INSERT INTO cluster_messages
          (gid, count, t, t_max, node, epoch, node_seq, stream_seq, format, body)
        SELECT gid, 1, t, t, node, epoch, node_seq, stream_seq, 0, body FROM cluster_events`.execute(
        db,
      );
      await db.schema.dropTable('cluster_events').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('cluster_messages').execute();
    },
  };
}

/**
 * Message bodies compressed with lz4 rather than PostgreSQL's default pglz. A body is the
 * message as published (~2.4 KB for a relist's half-dozen events), so nearly every row is
 * compressed on insert: lz4 cut PostgreSQL's CPU per stored event by about a third
 * (bench/lib/cluster-path.ts with CLUSTER_PATH_PG=1: 6.8 → 4.6 µs) for a few more bytes stored
 * (docs/benchmark-history.md). Set on the parent — the partitions made after inherit it — and on
 * each partition there already is (PostgreSQL does not carry it down); rows written before keep
 * pglz, which reads as before. A server built without lz4 keeps pglz, with a notice.
 * SQLite has no such setting.
 */
function lz4BodiesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await setBodyCompression(db, 'lz4');
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') await setBodyCompression(db, 'pglz');
    },
  };
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
