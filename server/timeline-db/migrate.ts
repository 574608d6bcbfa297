/**
 * Running the one migration set (schema.ts): synchronously on an SQLite file, through kysely's
 * Migrator on PostgreSQL. Both record what ran in kysely's `kysely_migration` table.
 *
 * An SQLite file is recognised before anything is written to it: SQLite's header field
 * `application_id` carries PODSCOPE_APPLICATION_ID (a cluster database from before the one schema
 * has 0 and a `kysely_migration` table, and is marked when migrated). A file that is SQLite but
 * not ours is never modified. Each pending migration runs in its own IMMEDIATE transaction
 * together with the row that records it, so a crash mid-migration leaves the previous state
 * intact and a second process opening the same file waits instead of migrating twice.
 */
import type { Database } from 'better-sqlite3';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { PodscopeStoreError, sqliteCode, wrapError } from './errors';
import { LEGACY_LATEST, upgradeLegacy } from './legacy';
import { MIGRATIONS, PODSCOPE_APPLICATION_ID, type TimelineMigration } from './schema';

/** What identification found in a file before anything is written to it. */
type Identity =
  | { kind: 'empty' }
  /** A data directory from before the one schema, at this legacy version. */
  | { kind: 'legacy'; version: number }
  | { kind: 'current'; applied: Set<string> };

function userTables(db: Database): string[] {
  return db
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all();
}

function applied(db: Database): Set<string> {
  return new Set(db.prepare<[], string>('SELECT name FROM kysely_migration').pluck().all());
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
  const kysely = tables.includes('kysely_migration');
  if (appId !== PODSCOPE_APPLICATION_ID && !(appId === 0 && kysely)) {
    if (appId === 0 && tables.length === 0) return { kind: 'empty' };
    const what =
      appId !== 0
        ? `SQLite application_id is 0x${appId.toString(16)}, Podscope's is 0x${PODSCOPE_APPLICATION_ID.toString(16)}`
        : `an SQLite database with other tables: ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ' …' : ''}`;
    throw new PodscopeStoreError(path, 'NOT_PODSCOPE', `not a Podscope timeline (${what})`);
  }
  if (kysely) return { kind: 'current', applied: applied(db) };
  if (!tables.includes('schema_version')) {
    throw new PodscopeStoreError(
      path,
      'CORRUPT',
      'the database file is corrupt (a Podscope header but no schema_version table)',
    );
  }
  const version =
    db.prepare<[], number | null>('SELECT max(version) FROM schema_version').pluck().get() ?? 0;
  if (version > LEGACY_LATEST) {
    throw new PodscopeStoreError(
      path,
      'NEWER_SCHEMA',
      `written by a newer Podscope (timeline schema v${version}, without the migrations it needs)`,
    );
  }
  return { kind: 'legacy', version };
}

export interface SqliteMigrateOptions {
  migrations?: readonly TimelineMigration[];
  /** Stop after this migration (upgrade tests); default: all of them. */
  upTo?: string;
  /**
   * Runs once the file is known to be empty or ours, before any migration: settings that write
   * (journal_mode = WAL) must not touch a file that is not ours, and some (auto_vacuum) only take
   * effect before the first table.
   */
  configure?: (fresh: boolean) => void;
}

/** Identifies the SQLite file and runs the pending migrations. Returns the names applied now. */
export function migrateSqlite(
  db: Database,
  path: string,
  options: SqliteMigrateOptions = {},
): string[] {
  const migrations = options.migrations ?? MIGRATIONS;
  const identity = identify(db, path);
  if (identity.kind === 'current') {
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...identity.applied].filter((n) => !known.has(n)).sort();
    if (unknown.length > 0) {
      throw new PodscopeStoreError(
        path,
        'NEWER_SCHEMA',
        `written by a newer Podscope (timeline migration ${unknown.join(', ')}; this build knows up to ${migrations.at(-1)?.name ?? 'none'})`,
      );
    }
  }
  options.configure?.(identity.kind === 'empty');
  if (identity.kind === 'legacy') {
    try {
      upgradeLegacy(db, identity.version);
    } catch (err) {
      throw wrapError(path, `migrating the timeline schema from v${identity.version}`, err);
    }
  }
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS kysely_migration (
        name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL);
      CREATE TABLE IF NOT EXISTS kysely_migration_lock (
        id varchar(255) NOT NULL PRIMARY KEY, is_locked integer DEFAULT 0 NOT NULL);
      INSERT OR IGNORE INTO kysely_migration_lock (id, is_locked) VALUES ('migration_lock', 0);`);
  } catch (err) {
    throw wrapError(path, 'creating the migration table', err);
  }
  const ran: string[] = [];
  for (const m of migrations) {
    const apply = db.transaction(() => {
      // Another process may have migrated while we waited for the write lock.
      if (applied(db).has(m.name)) return;
      m.sqlite?.(db);
      if (db.pragma('application_id', { simple: true }) !== PODSCOPE_APPLICATION_ID)
        db.pragma(`application_id = ${PODSCOPE_APPLICATION_ID}`);
      db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
        m.name,
        new Date().toISOString(),
      );
      ran.push(m.name);
    });
    try {
      apply.immediate();
    } catch (err) {
      throw wrapError(path, `migrating the timeline schema (${m.name})`, err);
    }
    if (m.name === options.upTo) break;
  }
  return ran;
}

/** Runs the PostgreSQL halves through kysely's Migrator (its lock: replicas starting together). */
export async function migratePostgres(
  db: Kysely<unknown>,
  where: string,
  migrateTo?: string,
  migrations: readonly TimelineMigration[] = MIGRATIONS,
): Promise<void> {
  const noop = () => Promise.resolve();
  const provided: Record<string, Migration> = Object.fromEntries(
    migrations.map((m) => [
      m.name,
      { up: m.postgres ?? noop, down: m.postgresDown ?? noop } satisfies Migration,
    ]),
  );
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(provided) },
  });
  const { error, results } = migrateTo
    ? await migrator.migrateTo(migrateTo)
    : await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '?';
    throw new Error(
      `${where}: migrating the timeline (${failed}) failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
}

/**
 * For a console that does not own the schema (`PODSCOPE_DATABASE_MIGRATE=off`): reads which
 * migrations ran, changes nothing, and refuses a schema this build does not match, saying what
 * to run.
 */
export async function checkPostgresSchema(
  db: Kysely<unknown>,
  where: string,
  migrations: readonly TimelineMigration[] = MIGRATIONS,
): Promise<void> {
  let ran: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
    ran = new Set(rows.map((r) => r.name));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '42P01')
      throw new Error(
        `${where}: the timeline schema is not there yet: run \`podscope migrate\` with the schema owner's URL first`,
        { cause: err },
      );
    throw new Error(
      `${where}: reading the timeline schema's version failed: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  const missing = migrations.filter((m) => !ran.has(m.name)).map((m) => m.name);
  if (missing.length > 0)
    throw new Error(
      `${where}: the timeline schema lacks ${missing.join(', ')}: run \`podscope migrate\` with the schema owner's URL (this console does not migrate: PODSCOPE_DATABASE_MIGRATE=off)`,
    );
  const known = new Set(migrations.map((m) => m.name));
  const newer = [...ran].filter((n) => !known.has(n)).sort();
  if (newer.length > 0)
    throw new Error(
      `${where}: the timeline schema is newer than this build (${newer.join(', ')}): upgrade the console`,
    );
}
