/**
 * An OverviewFeed over an in-memory cluster (the scale view, tests): the overview message is
 * built from the state, the detail is the state cut to the nodes asked for, searches run over
 * the state. It stands in for the server's overview.watch / overview.search.
 */
import type { ChangeGroup } from '@/lib/overview/wire';
import type { ClusterState } from '@/lib/timeline/state';
import { DEBOUNCE_MS, debounce, type OverviewFeed, type OverviewHandlers } from '../feed';
import { cellsOf, overviewOf, searchState } from './from-state';

/** The detail of some nodes: the state with only them. */
export function cutTo(state: ClusterState, nodes: readonly string[]): ClusterState {
  const out: ClusterState = { seq: state.seq, t: state.t, nodes: {} };
  for (const n of nodes) {
    const v = state.nodes[n];
    if (v) out.nodes[n] = v;
  }
  return out;
}

/** Change groups an in-memory state suggests: one per reason behind failing pods. */
function changesOf(
  state: ClusterState,
  reasons: { reason: string; pods: number }[],
): ChangeGroup[] {
  return reasons.slice(0, 3).map((r, i) => ({
    id: `memory-${i}`,
    what: 'pod.reason',
    to: r.reason,
    count: r.pods,
    from: state.t - 60_000,
    until: state.t,
    members: [],
    query: `reason:${r.reason}`,
  }));
}

export function createMemoryFeed(
  state: ClusterState,
  options: { live?: boolean } = {},
): OverviewFeed {
  const cells = cellsOf(state);
  let handlers: OverviewHandlers | undefined;
  const detail = debounce(
    (nodes: readonly string[]) => handlers?.onDetail(cutTo(state, nodes)),
    DEBOUNCE_MS,
  );
  return {
    live: options.live ?? false,
    watch(h) {
      handlers = h;
      queueMicrotask(() => {
        if (handlers !== h) return;
        const msg = overviewOf(state);
        msg.changes = changesOf(state, msg.aggregates.reasons);
        h.onOverview({ ...msg, cells });
        h.onDetail(cutTo(state, []));
        h.onStatus(options.live ? 'live' : 'offline');
      });
      return () => {
        detail.cancel();
        if (handlers === h) handlers = undefined;
      };
    },
    setView(nodes) {
      detail(nodes);
    },
    search(q, cursor) {
      return Promise.resolve(searchState(state, cells, q, cursor));
    },
  };
}
