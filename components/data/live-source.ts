/**
 * The live ClusterSource: cluster.watch over SSE (snapshot, then tracked batches; the link
 * reconnects by itself and resumes from the last seq it saw), timeline queries over HTTP.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
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
      const sub = client.cluster.watch.subscribe(undefined, {
        onStarted: () => set('live'),
        onData: ({ data }) => {
          set('live');
          if (data.type === 'snapshot') h.onSnapshot(data.state);
          else h.onEvents(data.events);
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
      return () => sub.unsubscribe();
    },
    async range({ from, to }) {
      const out: TimelineEvent[] = [];
      let afterSeq: number | undefined;
      for (;;) {
        const page = await client.timeline.range.query({
          from,
          to,
          limit: PAGE,
          ...(afterSeq !== undefined ? { afterSeq } : {}),
        });
        out.push(...page);
        if (page.length < PAGE) return out;
        afterSeq = page[page.length - 1]?.seq;
      }
    },
    stateAt: (t) => client.timeline.stateAt.query({ t }),
  };
}
