/**
 * Where the overview's data comes from: ONE stream per tab (`overview.watch`) carrying every
 * node as a cell, the aggregates, and the detail (pods, containers, conditions, whys) of the
 * nodes the view shows; and searches answered by the server (`overview.search`). The live tRPC
 * feed (live-feed.ts) and the in-memory one (testing/memory-feed.ts) implement this interface.
 */
import type { SourceStatus } from '@/components/data/source';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import type { OverviewDelta, OverviewMessage, SearchResult } from '@/lib/overview/wire';

export interface OverviewHandlers {
  onOverview(msg: OverviewMessage | OverviewDelta): void;
  /** The detail of the nodes the view asked for, whole (first, and after the set changed). */
  onDetail(state: ClusterState): void;
  /** Later events of those nodes, in seq order. */
  onDetailEvents(events: TimelineEvent[]): void;
  onStatus(s: SourceStatus, detail?: string): void;
}

export interface OverviewFeed {
  readonly live: boolean;
  watch(h: OverviewHandlers): () => void;
  /**
   * The nodes whose detail the view shows (the viewport's and the selection's, at most
   * MAX_DETAIL_NODES). Calls within DEBOUNCE_MS collapse into the last one: a storm of viewport
   * changes re-subscribes once.
   */
  setView(nodes: readonly string[], group?: string): void;
  search(q: string, cursor?: string): Promise<SearchResult>;
}

/** How long viewport changes settle before the subscription follows them. */
export const DEBOUNCE_MS = 150;

/** Calls `run` with the last arguments once calls have stopped for `ms`. */
export function debounce<A extends unknown[]>(
  run: (...args: A) => void,
  ms: number,
): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const f = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      run(...args);
    }, ms);
  };
  f.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return f;
}

/** Whether two node sets are the same (order aside). */
export function sameNodes(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((n) => s.has(n));
}
