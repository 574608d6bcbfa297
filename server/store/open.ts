/**
 * Finding, opening and configuring the timeline database file.
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PodscopeStoreError, wrapError } from './errors';
import { MIGRATIONS, migrate, type Migration } from './schema';

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
  migrations?: readonly Migration[];
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
    migrate(db, file, options.migrations ?? MIGRATIONS, (fresh) => configure(db, fresh, options));
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
