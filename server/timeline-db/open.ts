/**
 * Finding, opening, configuring and migrating a timeline database: an SQLite file synchronously
 * (`openConnection`, the embedded store's), or either dialect behind kysely (`openDatabase`, the
 * cluster timeline's: PostgreSQL when a postgres:// URL is given, `PODSCOPE_DATABASE_URL`).
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { PodscopeStoreError, wrapError } from './errors';
import { checkPostgresSchema, migratePostgres, migrateSqlite } from './migrate';
import type { Dialect, Tables, TimelineMigration } from './schema';

export const DEFAULT_DIR = '.podscope';
export const DEFAULT_FILE = 'timeline.db';
export const MEMORY = ':memory:';

/**
 * `path` is a directory (created if missing; the database is `<dir>/timeline.db`), a file path
 * ending in `.db`/`.sqlite` or naming an existing file, or `:memory:`. Relative paths resolve
 * against the working directory.
 */
export function resolveDatabasePath(path: string = DEFAULT_DIR): string {
  if (path === MEMORY) return MEMORY;
  const full = resolve(path);
  let dir: string;
  let file: string;
  if (/\.(db|sqlite3?)$/i.test(full) || isFile(full)) {
    dir = dirname(full);
    file = full;
  } else {
    dir = full;
    file = join(full, DEFAULT_FILE);
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new PodscopeStoreError(
      file,
      'CANNOT_OPEN',
      `cannot create the directory ${dir} (${message})`,
      err,
    );
  }
  return file;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface ConnectionOptions {
  /** Refuse writes that would grow the file beyond this (SQLite max_page_count); SQLITE_FULL then. */
  hardLimitBytes?: number;
  migrations?: readonly TimelineMigration[];
  /** Migrate only up to this migration (upgrade tests); default the newest. */
  upTo?: string;
}

/** Opens (creating if needed) a Podscope timeline database, identified, configured and migrated. */
export function openConnection(file: string, options: ConnectionOptions = {}): Db {
  let db: Db;
  try {
    db = new Database(file);
  } catch (err) {
    throw wrapError(file, 'opening the database', err);
  }
  try {
    migrateSqlite(db, file, {
      ...(options.migrations ? { migrations: options.migrations } : {}),
      ...(options.upTo ? { upTo: options.upTo } : {}),
      configure: (fresh) => configure(db, fresh, options),
    });
    return db;
  } catch (err) {
    db.close();
    throw wrapError(file, 'opening the database', err);
  }
}

function configure(db: Db, fresh: boolean, options: ConnectionOptions): void {
  // Only possible before the first table exists. Lets retention hand freed pages back to the OS
  // (PRAGMA incremental_vacuum) in small steps instead of a blocking full VACUUM.
  if (fresh) db.pragma('auto_vacuum = INCREMENTAL');
  // WAL: readers (SSE backfill, seeks) never block the writer and vice versa, and a commit is a
  // single append to the -wal file.
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode syncs only at WAL checkpoints, not at every commit. A committed
  // transaction is already in the -wal file (in the OS page cache) when COMMIT returns, so a
  // killed process loses nothing; only an OS crash or power cut can roll back the newest
  // commits, and even then the file stays consistent. FULL would fsync every relist batch.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  // 32 MiB of page cache: a seek touches one checkpoint and up to checkpointEvery event rows.
  db.pragma('cache_size = -32768');
  // Keep the -wal file from staying at its largest size after a burst.
  db.pragma('journal_size_limit = 67108864');
  if (options.hardLimitBytes !== undefined) {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = Math.max(1, Math.floor(options.hardLimitBytes / pageSize));
    db.pragma(`max_page_count = ${pages}`);
  }
}

export interface OpenOptions {
  /** postgres://… or postgresql://… */
  url?: string;
  /** SQLite file when no URL is given. */
  path?: string;
  /** PostgreSQL pool size (default 4). */
  poolSize?: number;
  /** Migrate only up to this migration (upgrade tests); default the newest. */
  migrateTo?: string;
  /**
   * PostgreSQL: 'on' (default) migrates on open; 'off' only checks that the schema is current,
   * for a console whose role may not change it (`podscope migrate` runs as the owner).
   */
  migrate?: 'on' | 'off';
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

/** A migrated database behind kysely: PostgreSQL (a pool) or an SQLite file (its connection). */
export interface OpenedDatabase {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** The SQLite file, or the PostgreSQL URL with its password hidden. */
  where: string;
  /** SQLite: the connection underneath, for work run synchronously (work.ts). */
  sqlite?: Db;
}

export async function openDatabase(options: OpenOptions): Promise<OpenedDatabase> {
  if (!options.url) {
    const path = options.path ?? '.podscope/cluster.db';
    if (path !== MEMORY) mkdirSync(dirname(path), { recursive: true });
    const sqlite = openConnection(path, options.migrateTo ? { upTo: options.migrateTo } : {});
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect: 'sqlite', where: path, sqlite };
  }
  if (!isPostgresUrl(options.url))
    throw new Error(`database URL ${redactUrl(options.url)}: only postgres:// URLs are supported`);
  const where = redactUrl(options.url);
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
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (options.migrate === 'off')
      await checkPostgresSchema(db as unknown as Kysely<unknown>, where);
    else await migratePostgres(db as unknown as Kysely<unknown>, where, options.migrateTo);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, dialect: 'postgres', where };
}
