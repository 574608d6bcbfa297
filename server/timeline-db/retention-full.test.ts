import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PodscopeStoreError } from './errors';
import { openStore, type TimelineStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { tempDir } from './testing/testkit';

/**
 * Retention is what frees a database that reached its hard limit, so it must work on one that is
 * full to the last page — when not even the checkpoint its new floor wants fits (regression: it
 * failed with DISK_FULL itself and the store stayed full for good).
 */
let tmp: ReturnType<typeof tempDir>;
let store: TimelineStore;
beforeEach(() => {
  tmp = tempDir();
  store = openStore({ path: tmp.dir, hardLimitBytes: 1024 * 1024, checkpointEvery: 150 });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

describe('retention on a full database', () => {
  it('frees space through an existing checkpoint when a new one does not fit', async () => {
    const workload = new SyntheticWorkload({ seed: 7 });
    let failure: unknown;
    for (let i = 0; i < 20_000 && failure === undefined; i++) {
      try {
        store.append(workload.nextBatch());
      } catch (err) {
        failure = err;
      }
    }
    expect((failure as PodscopeStoreError).code).toBe('DISK_FULL');
    const last = store.latestSeq();
    const state = store.stateAtSeq(last);

    const report = await store.retention({ maxBytes: 256 * 1024 });
    expect(report.eventsRemoved).toBeGreaterThan(0);
    expect(report.floorSeq).toBeGreaterThan(0);
    // What is left still rebuilds the latest state, and writing works again, seq continuing.
    expect(store.stateAtSeq(last)).toEqual(state);
    expect(store.append(workload.nextBatch())[0]?.seq).toBe(last + 1);
  });
});
