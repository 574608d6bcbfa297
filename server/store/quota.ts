/**
 * Quotas on saved timelines: how many there may be and how many bytes they may hold together
 * (their initial states and event copies). Checked inside the transaction that adds one, after
 * its rows are written and its size recorded: over a quota, the transaction is rolled back and
 * nothing is stored. Both ways in use it — a save (timelines.ts) and an import
 * (server/timelines/writer.ts, through its own connection). In the cluster database the same
 * limits are checked by checkQuota (server/timelines/postgres.ts).
 */
import type { Database as Db } from 'better-sqlite3';
import { describeBytes } from '@/lib/timeline/file/limits';
import { PodscopeStoreError } from './errors';

export interface SavedQuota {
  /** Saved timelines at most. */
  maxCount: number;
  /** Bytes of all saved timelines together at most. */
  maxBytes: number;
}

/** Records the size of timeline `id` (just written) and throws QUOTA when a quota is passed. */
export function recordSizeAndCheckQuota(
  db: Db,
  path: string,
  id: string,
  quota: SavedQuota | undefined,
): number {
  db.prepare(
    `UPDATE timelines SET bytes = length(initial_state) + coalesce(
       (SELECT sum(octet_length(body)) FROM timeline_events WHERE timeline_id = @id), 0)
     WHERE id = @id`,
  ).run({ id });
  const own =
    db.prepare<[string], number>('SELECT bytes FROM timelines WHERE id = ?').pluck().get(id) ?? 0;
  if (!quota) return own;
  const totals = db
    .prepare<[], { count: number; bytes: number }>(
      'SELECT count(*) AS count, total(bytes) AS bytes FROM timelines',
    )
    .get() ?? { count: 0, bytes: 0 };
  checkQuota(path, quota, totals, own);
  return own;
}

/**
 * Throws QUOTA when the saved timelines, `totals` of them counting a new one of `own` bytes, are
 * past a quota. The SQLite store and the cluster database (server/timelines/postgres.ts) both
 * check through it.
 */
export function checkQuota(
  path: string,
  quota: SavedQuota,
  totals: { count: number; bytes: number },
  own: number,
): void {
  const { count, bytes } = totals;
  if (count > quota.maxCount) {
    throw new PodscopeStoreError(
      path,
      'QUOTA',
      `the saved timelines are at their quota of ${quota.maxCount} (PODSCOPE_SAVED_MAX_COUNT); delete one to keep another`,
    );
  }
  if (bytes > quota.maxBytes) {
    throw new PodscopeStoreError(
      path,
      'QUOTA',
      `this timeline (${describeBytes(own)}) would take the saved timelines past their quota of ${describeBytes(quota.maxBytes)} (PODSCOPE_SAVED_MAX_BYTES); ${describeBytes(Math.max(0, quota.maxBytes - (bytes - own)))} are free — delete some, or save a shorter period`,
    );
  }
}
