/**
 * store_events_per_s and seek_ms_p95_1m_events: server/timeline-db's own benchmarks (server/timeline-db/testing/bench.ts),
 * run here so `npm run bench` reports them with everything else.
 *
 * - store_events_per_s: sustained appends of relist-sized batches (50–300 events) of realistic
 *   events to a fresh file database (WAL), median of the runs, wall clock.
 * - seek_ms_p95_1m_events: stateAt at random moments of a 1,000,000-event timeline (nearest
 *   checkpoint + fold), median over runs of each run's p95, wall clock. The timeline is built once
 *   per bench run (about a minute) in a temporary folder.
 */
import { benchSeek, benchStoreEventsPerSecond } from '@/server/timeline-db/testing/bench';

export interface StoreResult {
  store_events_per_s: number;
  details: ReturnType<typeof benchStoreEventsPerSecond>;
}

export function benchStoreAppend(runs = 5): StoreResult {
  const r = benchStoreEventsPerSecond({ runs });
  return { store_events_per_s: r.median, details: r };
}

export interface SeekResult {
  seek_ms_p95_1m_events: number;
  details: ReturnType<typeof benchSeek>;
}

export function benchStoreSeek(runs = 5, events = 1_000_000): SeekResult {
  const r = benchSeek({ runs, events });
  return { seek_ms_p95_1m_events: r.p95Ms, details: r };
}
