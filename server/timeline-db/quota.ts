/**
 * Quotas on saved timelines: how many there may be and how many bytes they may hold together
 * (their initial states and event copies). Checked inside the transaction that adds one, after
 * its rows are written and its size recorded (saved.ts): over a quota, the transaction is rolled
 * back and nothing is stored.
 */
import { describeBytes } from '@/lib/timeline/file/limits';
import { PodscopeStoreError } from './errors';

export interface SavedQuota {
  /** Saved timelines at most. */
  maxCount: number;
  /** Bytes of all saved timelines together at most. */
  maxBytes: number;
}

/** Throws QUOTA when the saved timelines, `totals` of them counting a new one of `own` bytes, are past a quota. */
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
