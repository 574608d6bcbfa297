/**
 * The live ClusterSource: cluster.watch over SSE (snapshot, then tracked batches; the link
 * reconnects by itself and resumes from the last seq it saw), timeline queries over HTTP.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import { batchEvents, WIRE_VERSION, WireDecoder, WireError } from '@/lib/timeline/wire';
import type { PodscopeClient } from '@/trpc/client';
import type { ClusterSource, SourceStatus } from './source';

const PAGE = 10_000;

/** Over the page's one tRPC client (trpc/react.tsx). */
export function createLiveSource(client: PodscopeClient): ClusterSource {
  return {
    live: true,
    watch(h) {
      let status: SourceStatus | undefined;
      const set = (s: SourceStatus, detail?: string) => {
        if (s === status && detail === undefined) return;
        status = s;
        h.onStatus(s, detail);
      };
      set('connecting');
      // The lean wire (lib/timeline/wire.ts): the decoder turns frames back into the events the
      // server recorded, which go through the same reducer as a replay's.
      let sub: { unsubscribe(): void } | undefined;
      const start = () => {
        const decoder = new WireDecoder();
        sub = client.cluster.watch.subscribe(
          { wire: WIRE_VERSION },
          {
            onStarted: () => set('live'),
            onData: ({ data }) => {
              set('live');
              if (data.type === 'snapshot') {
                decoder.seed(data.state);
                h.onSnapshot(data.state);
                return;
              }
              let events: TimelineEvent[];
              try {
                events = batchEvents(decoder, data);
              } catch (err) {
                if (!(err instanceof WireError)) throw err;
                // The stream can no longer be followed: start a new one (it begins with a snapshot).
                set('reconnecting', err.message);
                sub?.unsubscribe();
                start();
                return;
              }
              h.onEvents(events);
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
          },
        );
      };
      start();
      return () => sub?.unsubscribe();
    },
    async range({ from, to }) {
      // Page by the server's cursor: each answer stays within its byte budget.
      const out: TimelineEvent[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await client.timeline.range.query({
          from,
          to,
          limit: PAGE,
          ...(cursor !== undefined ? { cursor } : {}),
        });
        out.push(...page.events);
        if (page.nextCursor === null) return out;
        cursor = page.nextCursor;
      }
    },
    stateAt: (t) => client.timeline.stateAt.query({ t }),
  };
}
