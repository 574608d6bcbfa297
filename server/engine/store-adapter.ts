import type { TimelineStore } from '@/server/timeline-db';
import type { EngineStore } from './recorder';

/** The engine's view of server/timeline-db's TimelineStore. */
export function engineStore(store: TimelineStore): EngineStore {
  return {
    append: (events, states) => store.append(events, states),
    latestSeq: () => store.latestSeq(),
    oldestSeq: () => {
      const b = store.bounds();
      return b.oldestSeq ?? b.latestSeq + 1;
    },
    eventsAfter: (seq, limit) => store.eventsAfter(seq, limit),
    range: (q) => store.range(q),
    stateAt: (t) => store.stateAt(t),
    stateAtSeq: (seq) => store.stateAtSeq(seq),
  };
}
