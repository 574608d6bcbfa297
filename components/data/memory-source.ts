/**
 * A ClusterSource over an in-memory timeline: an initial state plus the events after it. It is
 * the offline replay of a timeline file and the fixture the console's tests run on.
 */
import { reduceAll } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterSource } from './source';

export function createMemorySource(initial: ClusterState, events: TimelineEvent[]): ClusterSource {
  // Only events after the initial state can change it; keep them in seq order once.
  const timeline = events.filter((e) => e.seq > initial.seq).sort((a, b) => a.seq - b.seq);
  return {
    live: false,
    watch(h) {
      let open = true;
      // Deliver after watch() returns, like a real source, so the caller holds the unsubscribe first.
      queueMicrotask(() => {
        if (!open) return;
        h.onSnapshot(initial);
        if (timeline.length > 0) h.onEvents(timeline.slice());
        h.onStatus('offline');
      });
      return () => {
        open = false;
      };
    },
    range({ from, to }) {
      return Promise.resolve(timeline.filter((e) => e.t >= from && e.t <= to));
    },
    stateAt(t) {
      return Promise.resolve(
        reduceAll(
          initial,
          timeline.filter((e) => e.t <= t),
        ),
      );
    },
  };
}
