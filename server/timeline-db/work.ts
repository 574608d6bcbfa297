/**
 * Units of database work written once for both dialects: a generator that yields kysely queries
 * (built from the database's own Kysely, so typed by schema.ts) and receives their rows.
 *
 *   function* rename(k: Kysely<Tables>, id: string, title: string): Work<boolean> {
 *     const row = yield* first(k.selectFrom('saved_timelines').select('id').where('id', '=', id));
 *     if (!row) return false;
 *     return (yield* run(k.updateTable('saved_timelines').set({ title }).where('id', '=', id))).changes > 0;
 *   }
 *   runSync(sqlite, rename(k, id, 'x'), 'write');          // SQLite: synchronous, IMMEDIATE
 *   await runAsync(k, rename(k, id, 'x'), 'write');        // PostgreSQL: a transaction
 *
 * On SQLite a unit runs synchronously on the better-sqlite3 connection (each distinct statement
 * prepared once): nothing else on the event loop can run between its statements, which is what
 * the embedded recorder relies on — an append is committed, in order, before anything else
 * happens. On PostgreSQL the same unit runs through kysely, awaiting each statement.
 */
import type { Database as SqliteDb, Statement } from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';

/** What a statement changed. */
export interface RunResult {
  changes: number;
}

type Step = { query: Compilable<unknown>; mode: 'all' | 'run' };

/** A unit of work returning T. */
export type Work<T> = Generator<Step, T, unknown>;

/** How a unit runs: in a writing transaction, a reading one (one snapshot), or statement by statement. */
export type TxMode = 'write' | 'read' | 'none';

/** The rows of a query. */
export function* all<R>(query: Compilable<R>): Generator<Step, R[], unknown> {
  return (yield { query, mode: 'all' }) as R[];
}

/** The first row of a query, if any. */
export function* first<R>(query: Compilable<R>): Generator<Step, R | undefined, unknown> {
  const rows = yield* all(query);
  return rows[0];
}

/** A statement that returns no rows. */
export function* run(query: Compilable<unknown>): Generator<Step, RunResult, unknown> {
  return (yield { query, mode: 'run' }) as RunResult;
}

/** A raw `sql` template as a step (compiled by `db`'s dialect). */
export function raw<R>(
  db: Parameters<RawBuilder<R>['compile']>[0],
  query: RawBuilder<R>,
): Compilable<R> {
  return { compile: () => query.compile(db) };
}

const statements = new WeakMap<SqliteDb, Map<string, Statement>>();
/** Distinct statements kept prepared per connection (a unit's queries have a few shapes each). */
const MAX_PREPARED = 256;

/** The statement for this SQL on this connection, prepared once. */
export function prepared(db: SqliteDb, sqlText: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, Statement>()));
  let stmt = cache.get(sqlText);
  if (!stmt) {
    if (cache.size >= MAX_PREPARED) cache.clear();
    stmt = db.prepare(sqlText);
    cache.set(sqlText, stmt);
  }
  return stmt;
}

/** Runs one compiled query on an SQLite connection. */
export function execSync(db: SqliteDb, compiled: CompiledQuery, mode: 'all' | 'run'): unknown {
  const stmt = prepared(db, compiled.sql);
  const params = compiled.parameters as unknown[];
  if (stmt.reader) {
    const rows = stmt.all(...params);
    return mode === 'all' ? rows : { changes: rows.length };
  }
  const res = stmt.run(...params);
  return mode === 'all' ? [] : { changes: res.changes };
}

function drive<T>(work: Work<T>, exec: (step: Step) => unknown): T {
  let next = work.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = exec(next.value);
    } catch (err) {
      // The unit may catch it (a constraint it expects); otherwise it propagates.
      next = work.throw(err);
      continue;
    }
    next = work.next(value);
  }
  return next.value;
}

/** Runs a unit synchronously on an SQLite connection. */
export function runSync<T>(db: SqliteDb, work: Work<T>, tx: TxMode = 'none'): T {
  const go = () => drive(work, (s) => execSync(db, s.query.compile(), s.mode));
  if (tx === 'none') return go();
  const t = db.transaction(go);
  return tx === 'write' ? t.immediate() : t.deferred();
}

/** Runs a unit through kysely (PostgreSQL), in one transaction unless `tx` is 'none'. */
export async function runAsync<T, DB>(
  db: Kysely<DB>,
  work: Work<T>,
  tx: TxMode = 'none',
): Promise<T> {
  const go = async (on: Kysely<DB>): Promise<T> => {
    let next = work.next();
    while (!next.done) {
      const step = next.value;
      let value: unknown;
      try {
        const res = await on.executeQuery(step.query.compile());
        value =
          step.mode === 'all'
            ? res.rows
            : { changes: Number(res.numAffectedRows ?? res.rows.length) };
      } catch (err) {
        next = work.throw(err);
        continue;
      }
      next = work.next(value);
    }
    return next.value;
  };
  if (tx === 'none') return go(db);
  const t =
    tx === 'read' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return t.execute((trx) => go(trx));
}
