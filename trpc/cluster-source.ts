/**
 * The live ClusterSource: cluster.watch over SSE (snapshot, then tracked batches; the link
 * reconnects by itself and resumes from the last seq it saw), timeline queries over HTTP.
 */
import type { ClusterSource, SourceStatus } from '@/components/data/source';
import type { TimelineEvent } from '@/lib/timeline/events';
import { createClient } from './client';

const PAGE = 10_000;

export function createTrpcSource(baseUrl = ''): ClusterSource {
  const client = createClient(baseUrl);
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
