import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, reduce, type TimelineEvent } from '@/lib/timeline';
import { PodscopeStoreError } from './errors';
import { openStore, type TimelineStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { tempDir } from './testing/testkit';

/**
 * A full database (here: the hardLimitBytes cap, which SQLite enforces as SQLITE_FULL exactly
 * like a full disk; store.int.test.ts does it with a real full file system) must fail the batch
 * as a whole, say so clearly, and leave the store readable and usable once space is freed.
 */
let tmp: ReturnType<typeof tempDir>;
let store: TimelineStore;
beforeEach(() => {
  tmp = tempDir();
  store = openStore({ path: tmp.dir, hardLimitBytes: 3 * 1024 * 1024, checkpointEvery: 1_000 });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

describe('a full database', () => {
  it('refuses the batch whole, with a clear error, and stays readable', async () => {
    const workload = new SyntheticWorkload({ seed: 41 });
    const committed: TimelineEvent[] = [];
    let failure: unknown;
    for (let i = 0; i < 10_000 && failure === undefined; i++) {
      const batch = workload.nextBatch();
      try {
        committed.push(...store.append(batch));
      } catch (err) {
        failure = err;
      }
    }
    expect(failure).toBeInstanceOf(PodscopeStoreError);
    const err = failure as PodscopeStoreError;
    expect(err.code).toBe('DISK_FULL');
    expect(err.message).toContain(store.path);
    expect(err.message).toMatch(
      /appending \d+ events after seq \d+ failed: disk full \(SQLITE_FULL: .*\); nothing from this batch was written/,
    );

    // No partial batch: exactly the committed events are there, and seq did not move.
    const last = committed[committed.length - 1]?.seq ?? 0;
    expect(store.latestSeq()).toBe(last);
    expect(store.count()).toBe(committed.length);
    expect(store.range({ limit: Number.POSITIVE_INFINITY })).toEqual(committed);
    expect(store.stateAtSeq(last)).toEqual(committed.reduce(reduce, emptyState()));

    // Retention frees pages; appends work again and continue the seq.
    const report = await store.retention({ maxBytes: 1024 * 1024 });
    expect(report.eventsRemoved).toBeGreaterThan(0);
    const next = store.append(workload.nextBatch());
    expect(next[0]?.seq).toBe(last + 1);
  });
});
