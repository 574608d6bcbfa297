/**
 * Rebuilding the state at any stored seq: the closest known state at or before it (a recent
 * seek's result, the live state, or the nearest checkpoint — none below the retention floor,
 * where the events after a state may be gone), then the events after it through the reducer.
 * Replay moves forward a little at a time, so starting from the previous answer makes each step
 * cheap; the last few answers are kept (immutable values).
 */
import { emptyState, reduce, type ClusterState, type TimelineEvent } from '@/lib/timeline';
import type { SqliteCheckpoints } from './checkpoints';
import { fastDecode } from './decode';
import { PodscopeStoreError } from './errors';
import type { EventTable } from './events';

const RECENT_STATES = 4;

export interface SeekSources {
  /** The database's path, for errors. */
  path: string;
  events: EventTable;
  checkpoints: SqliteCheckpoints;
  /** The retention floor now. */
  floorSeq: () => number;
  /** The state at the latest seq, when the store knows it. */
  live: () => ClusterState | undefined;
  /** Inside a transaction the rows read may still be rolled back. */
  inTransaction: () => boolean;
}

export class StateSeeker {
  /** The last few states rebuilt, newest first. */
  private recent: ClusterState[] = [];

  constructor(private readonly s: SeekSources) {}

  /** A state rebuilt earlier at exactly this seq, if one is kept. */
  recentAt(seq: number): ClusterState | undefined {
    return this.recent.find((r) => r.seq === seq);
  }

  /** The state after every event up to and including `seq` (0 and below: the empty state). */
  foldTo(seq: number): ClusterState {
    if (seq <= 0) return emptyState();
    const floor = this.s.floorSeq();
    let base: ClusterState | undefined;
    for (const known of [this.s.live(), ...this.recent]) {
      // Below the floor, the events after a state may already be gone.
      if (known && known.seq <= seq && known.seq >= floor && (!base || known.seq > base.seq))
        base = known;
    }
    if (base?.seq === seq) return base;
    const checkpointSeq = this.s.checkpoints.nearestSeq(seq);
    if (
      checkpointSeq !== undefined &&
      checkpointSeq >= floor &&
      (!base || checkpointSeq > base.seq)
    ) {
      base = this.s.checkpoints.nearest(seq);
    }
    if (!base) {
      if (floor > 0) {
        throw new PodscopeStoreError(
          this.s.path,
          'CORRUPT',
          `the database file is corrupt: no checkpoint at the retention floor (seq ${floor})`,
        );
      }
      base = emptyState();
    }
    let state = base;
    for (const body of this.s.events.bodies(state.seq, seq))
      state = reduce(state, fastDecode<TimelineEvent>(body));
    // Remember only committed answers.
    if (!this.s.inTransaction()) {
      this.recent = [state, ...this.recent.filter((r) => r.seq !== state.seq)].slice(
        0,
        RECENT_STATES,
      );
    }
    return state;
  }
}
