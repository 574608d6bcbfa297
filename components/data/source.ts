/**
 * Where the console's data comes from. The live tRPC source (trpc/), the offline replay of a
 * timeline file and the demo generator all implement this one interface, so the console cannot
 * tell them apart except by `live`.
 */
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';

export type SourceStatus = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface WatchHandlers {
  onSnapshot(state: ClusterState): void;
  onEvents(events: TimelineEvent[]): void;
  onStatus(s: SourceStatus, detail?: string): void;
}

export interface ClusterSource {
  /** Live sources call onSnapshot once (again after a resync), then onEvents with batches in seq order. */
  watch(h: WatchHandlers): () => void;
  /** Events with from <= t <= to, ascending seq. */
  range(q: { from: number; to: number }): Promise<TimelineEvent[]>;
  /** The state at time t (server: nearest checkpoint + reduce). */
  stateAt(t: number): Promise<ClusterState>;
  /** False for imported/recorded timelines (no "Live" button; read-only). */
  readonly live: boolean;
  /** False when history is not loaded from the source on connect (the overview's detail). */
  readonly history?: boolean;
  /** The source's own clock, when it is not the wall clock (the demo plays a recording's times). */
  now?: () => number;
}
