/**
 * Replaying a timeline file: the initial state, then the events through the shared reducer. The
 * state at moment t holds every event whose timeline time (the running maximum of t, as the
 * store files events) is at or before t — the same rule as the store's stateAt, so a file
 * replays state for state like the server it came from.
 */
import type { TimelineEvent } from '../events';
import { reduce } from '../reducer';
import type { ClusterState } from '../state';

export interface Replayable {
  initialState: ClusterState;
  events: readonly TimelineEvent[];
}

/** Timeline time of each event: max(initial t, t of every event up to it). */
export function timelineTimes(file: Replayable): number[] {
  let t = file.initialState.t;
  return file.events.map((e) => (t = Math.max(t, e.t)));
}

/** Number of events filed at or before t. */
export function countUntil(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] ?? Infinity) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function stateAtTime(file: Replayable, t: number): ClusterState {
  const k = countUntil(timelineTimes(file), t);
  let state = file.initialState;
  for (let i = 0; i < k; i++) {
    const e = file.events[i];
    if (e) state = reduce(state, e);
  }
  return state;
}
