/**
 * Opens the cluster timeline database: PostgreSQL when a postgres:// URL is given
 * (`PODSCOPE_DATABASE_URL`), else an SQLite file (better-sqlite3), and brings it to the newest
 * migration (kysely's Migrator: migrations run once, under its lock, also with several
 * replicas starting together).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { MIGRATIONS, type Dialect, type TimelineDatabase } from './schema';

export interface OpenOptions {
  /** postgres://… or postgresql://… */
  url?: string;
  /** SQLite file when no URL is given. */
  path?: string;
  /** PostgreSQL pool size (default 4). */
  poolSize?: number;
  /** Migrate only up to this migration (upgrade tests); default the newest. */
  migrateTo?: string;
}

/** int8 columns as numbers: every bigint here (gid, t, seqs) is below 2^53. */
const int8AsNumber = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format) as unknown),
};

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL with any password replaced, for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

export async function openDatabase(
  options: OpenOptions,
): Promise<{ db: Kysely<TimelineDatabase>; dialect: Dialect; where: string }> {
  let db: Kysely<TimelineDatabase>;
  let dialect: Dialect;
  let where: string;
  if (options.url) {
    if (!isPostgresUrl(options.url))
      throw new Error(
        `database URL ${redactUrl(options.url)}: only postgres:// URLs are supported`,
      );
    dialect = 'postgres';
    where = redactUrl(options.url);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 4,
      types: int8AsNumber,
      connectionTimeoutMillis: 5_000,
    });
    // An idle client losing its server (PostgreSQL restarted) must not crash the process.
    pool.on('error', () => {});
    // Nor one in use (a transaction cut mid-way): the pool listens only to idle ones, and its
    // query fails anyway, so the caller hears of it. Without this, pg emits an unhandled 'error'.
    pool.on('connect', (client) => client.on('error', () => {}));
    db = new Kysely<TimelineDatabase>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const path = options.path ?? '.podscope/cluster.db';
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    dialect = 'sqlite';
    where = path;
    const sqlite = new Database(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<TimelineDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  try {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(MIGRATIONS(dialect)) },
    });
    const { error, results } = options.migrateTo
      ? await migrator.migrateTo(options.migrateTo)
      : await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '?';
      throw new Error(
        `${where}: migrating the cluster timeline (${failed}) failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
        { cause: error },
      );
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, dialect, where };
}
