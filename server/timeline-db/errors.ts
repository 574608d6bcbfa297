/**
 * The one error type the store throws. Its message always starts with the database path, so a
 * log line says which file failed, and `code` lets callers (tRPC, CLI) pick a response without
 * parsing text. The SQLite error, when there is one, rides along as `cause`.
 */

export type StoreErrorCode =
  /** The file is not a Podscope timeline (not SQLite, or SQLite with someone else's tables). */
  | 'NOT_PODSCOPE'
  /** Written by a newer Podscope: its schema version is above what this build knows. */
  | 'NEWER_SCHEMA'
  /** SQLite reports the file damaged (SQLITE_CORRUPT / SQLITE_NOTADB after identification). */
  | 'CORRUPT'
  /** The disk (or the configured hard limit) is full; the failed write left nothing behind. */
  | 'DISK_FULL'
  /** Any other failed write or read at the OS level (SQLITE_IOERR_*). */
  | 'IO'
  /** The file or its directory cannot be opened or written (permissions, read-only mount). */
  | 'CANNOT_OPEN'
  /** Another connection holds the write lock for longer than the busy timeout. */
  | 'BUSY'
  /** An event, title, note or annotation above its size limit. */
  | 'TOO_LARGE'
  /** Malformed input (non-finite time, unknown kind, from after to …). */
  | 'INVALID'
  /** No saved timeline with that id. */
  | 'NOT_FOUND'
  /** The moment asked for is older than retention kept. */
  | 'NOT_RETAINED'
  /** The store was closed. */
  | 'CLOSED'
  /** Another live process is already recording this timeline (lock.ts). */
  | 'LOCKED'
  /** A saved-timeline quota (count or bytes) would be exceeded; nothing was stored. */
  | 'QUOTA'
  /** Any other SQLite error. */
  | 'SQLITE'
  /** The database server (PostgreSQL, cluster mode) cannot be reached; nothing was changed. */
  | 'UNAVAILABLE'
  /** Any other error of the database server (PostgreSQL, cluster mode). */
  | 'POSTGRES';

/**
 * Marks a PodscopeStoreError whichever copy of this module made it: Next.js can bundle the module
 * twice (a route and the runtime), and then `instanceof` is false across the copies.
 */
const BRAND = Symbol.for('podscope.PodscopeStoreError');

export class PodscopeStoreError extends Error {
  override name = 'PodscopeStoreError';
  readonly code: StoreErrorCode;
  readonly path: string;
  readonly [BRAND] = true;

  constructor(path: string, code: StoreErrorCode, detail: string, cause?: unknown) {
    super(`${path}: ${detail}`, cause === undefined ? undefined : { cause });
    this.code = code;
    this.path = path;
  }

  /** The message without the database path: what a client may be told. */
  get publicMessage(): string {
    return this.message.startsWith(`${this.path}: `)
      ? this.message.slice(this.path.length + 2)
      : this.message;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isPodscopeStoreError(value);
  }
}

/** True for a PodscopeStoreError from any copy of this module (see BRAND). */
export function isPodscopeStoreError(err: unknown): err is PodscopeStoreError {
  return typeof err === 'object' && err !== null && (err as { [BRAND]?: unknown })[BRAND] === true;
}

/** The SQLite result code better-sqlite3 puts on its errors (`SQLITE_FULL`, `SQLITE_IOERR_WRITE` …). */
export function sqliteCode(err: unknown): string | undefined {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

function classify(code: string | undefined): StoreErrorCode {
  if (!code) return 'SQLITE';
  if (code === 'SQLITE_FULL') return 'DISK_FULL';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'CORRUPT';
  if (code.startsWith('SQLITE_IOERR')) return 'IO';
  if (
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code === 'SQLITE_PERM'
  ) {
    return 'CANNOT_OPEN';
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'BUSY';
  return 'SQLITE';
}

/**
 * Wraps whatever a database call threw into a PodscopeStoreError that names the file and the
 * operation. Errors that already are PodscopeStoreErrors pass through unchanged.
 */
export function wrapError(
  path: string,
  operation: string,
  err: unknown,
  consequence?: string,
): PodscopeStoreError {
  if (err instanceof PodscopeStoreError) return err;
  const code = sqliteCode(err);
  const message = err instanceof Error ? err.message : String(err);
  const kind = classify(code);
  const hint =
    kind === 'DISK_FULL'
      ? 'disk full'
      : kind === 'CORRUPT'
        ? 'the database file is corrupt'
        : kind === 'BUSY'
          ? 'the database is locked by another process'
          : undefined;
  const detail = `${operation} failed${hint ? `: ${hint}` : ''} (${code ? `${code}: ` : ''}${message})${consequence ? `; ${consequence}` : ''}`;
  return new PodscopeStoreError(path, kind, detail, err);
}

/** PostgreSQL's SQLSTATE, or Node's error code for a failed connection (ECONNREFUSED …). */
function sqlState(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return undefined;
}

/** Losing the server: connection refused, reset or timed out, or the server shutting down. */
function unreachable(code: string | undefined, message: string): boolean {
  if (
    code &&
    /^(E(CONNREFUSED|CONNRESET|HOSTUNREACH|NETUNREACH|NOTFOUND|TIMEDOUT|PIPE|AI_AGAIN))$/.test(code)
  )
    return true;
  // Class 08: connection exceptions; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
  if (code && (code.startsWith('08') || /^57P0[123]$/.test(code))) return true;
  // pg's own words for a client whose server went away (the rollback after a cut connection
  // fails with the last of these).
  return /Connection terminated|timeout exceeded when trying to connect|Connection ended|connection error and is not queryable/i.test(
    message,
  );
}

function classifyPostgres(code: string | undefined, message: string): StoreErrorCode {
  if (unreachable(code, message)) return 'UNAVAILABLE';
  if (code === '53100') return 'DISK_FULL';
  return 'POSTGRES';
}

function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // A refused connection to several addresses is an AggregateError with an empty message.
  if (err.message) return err.message;
  const first = err instanceof AggregateError ? (err.errors[0] as unknown) : undefined;
  return first instanceof Error ? first.message : err.name;
}

/** A PodscopeStoreError naming the database (its URL, password hidden) and the operation. */
export function wrapPostgresError(
  where: string,
  operation: string,
  err: unknown,
  consequence?: string,
): PodscopeStoreError {
  if (isPodscopeStoreError(err)) return err;
  const code = sqlState(err);
  const message = messageOf(err);
  const kind = classifyPostgres(code, message);
  const hint =
    kind === 'UNAVAILABLE'
      ? 'PostgreSQL cannot be reached'
      : kind === 'DISK_FULL'
        ? 'PostgreSQL is out of disk'
        : undefined;
  const detail = `${operation} failed${hint ? `: ${hint}` : ''} (${code ? `${code}: ` : ''}${message})${consequence ? `; ${consequence}` : ''}`;
  return new PodscopeStoreError(where, kind, detail, err);
}
