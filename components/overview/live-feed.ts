/**
 * The live OverviewFeed: ONE `overview.watch` subscription per tab (the cells and counts, and
 * the detail of the nodes in view as cluster.watch's lean wire), `overview.search` for queries.
 * A change of the view's node set re-subscribes once the set has settled (DEBOUNCE_MS; a storm
 * keeps only the last), with the last event id and the nodes already held, so the server sends
 * a snapshot of the new set and no backlog of the old.
 */
import type { SourceStatus } from '@/components/data/source';
import type { TimelineEvent } from '@/lib/timeline/events';
import { batchEvents, WIRE_VERSION, WireDecoder, WireError } from '@/lib/timeline/wire';
import type { PodscopeClient, RouterInputs } from '@/trpc/client';
import { DEBOUNCE_MS, debounce, sameNodes, type OverviewFeed, type OverviewHandlers } from './feed';

interface Subscription {
  unsubscribe(): void;
}

export function createLiveFeed(client: PodscopeClient): OverviewFeed {
  let handlers: OverviewHandlers | undefined;
  let sub: Subscription | undefined;
  let lastId: string | undefined;
  let nodes: string[] = [];
  let group: string | undefined;
  /** The nodes whose detail the page holds (the last detail snapshot's). */
  let held: string[] = [];
  // Kept across re-subscriptions: a resume that holds every node sends no new snapshot.
  let decoder = new WireDecoder();
  let status: SourceStatus | undefined;
  const set = (s: SourceStatus, detail?: string) => {
    if (s === status && detail === undefined) return;
    status = s;
    handlers?.onStatus(s, detail);
  };

  const open = () => {
    sub?.unsubscribe();
    const h = handlers;
    if (!h) return;
    if (lastId === undefined) decoder = new WireDecoder();
    if (nodes.length === 0 && held.length > 0) {
      // No node's detail is wanted any more: drop what is held rather than show it going stale.
      held = [];
      h.onDetail({ seq: 0, t: Date.now(), nodes: {} });
    }
    const input: RouterInputs['overview']['watch'] & object = { nodes, wire: WIRE_VERSION };
    if (group) input.group = group;
    if (lastId !== undefined) {
      input.lastEventId = lastId;
      input.held = held.filter((n) => nodes.includes(n));
    }
    sub = client.overview.watch.subscribe(input, {
      onStarted: () => set('live'),
      onData: ({ id, data }) => {
        set('live');
        lastId = id;
        if (data.type === 'overview' || data.type === 'overview-delta') {
          h.onOverview(data);
          return;
        }
        if (data.type === 'snapshot') {
          decoder.seed(data.state);
          held = Object.keys(data.state.nodes);
          h.onDetail(data.state);
          return;
        }
        let events: TimelineEvent[];
        try {
          events = batchEvents(decoder, data);
        } catch (err) {
          if (!(err instanceof WireError)) throw err;
          // The detail can no longer be followed: a new stream starts from a snapshot.
          set('reconnecting', err.message);
          lastId = undefined;
          open();
          return;
        }
        h.onDetailEvents(events);
      },
      onError: (err) => set('offline', err.message),
      onConnectionStateChange: (s) => {
        if (s.state === 'connecting')
          set(
            status === undefined || status === 'connecting' ? 'connecting' : 'reconnecting',
            s.error?.message,
          );
        else if (s.state === 'idle') set('offline');
      },
    });
  };
  const follow = debounce(open, DEBOUNCE_MS);

  return {
    live: true,
    watch(h) {
      handlers = h;
      set('connecting');
      open();
      return () => {
        follow.cancel();
        sub?.unsubscribe();
        sub = undefined;
        if (handlers === h) handlers = undefined;
      };
    },
    setView(next, g) {
      if (sameNodes(next, nodes) && g === group) return;
      nodes = [...next];
      group = g;
      if (handlers) follow();
    },
    search: (q, cursor) =>
      client.overview.search.query(cursor !== undefined ? { q, cursor } : { q }),
  };
}
