'use client';
/**
 * The console at cluster scale: the overview's one stream feeds the cells (held here) and the
 * detail of the nodes in view (a ClusterSource for the usual ClusterProvider, so the diagram,
 * panel, log and timeline work as they always did for those nodes).
 */
import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { ClusterProvider } from '@/components/data/ClusterProvider';
import type { ViewState } from '@/components/data/url-state';
import type { OverviewDelta, OverviewMessage } from '@/lib/overview/wire';
import { DetailRelay } from './detail-source';
import type { OverviewFeed } from './feed';
import { OverviewConsole } from './OverviewConsole';
import { applyMessage, emptyOverview, type OverviewSnapshot } from './store';

export interface OverviewView {
  overview: OverviewSnapshot;
  feed: OverviewFeed;
  /** Whether the first overview message has arrived. */
  ready: boolean;
}

const Ctx = createContext<OverviewView | null>(null);

export function useOverview(): OverviewView {
  const v = useContext(Ctx);
  if (!v) throw new Error('useOverview() outside <OverviewRoot>');
  return v;
}

export function OverviewRoot({ feed, view }: { feed: OverviewFeed; view: ViewState }) {
  const relay = useMemo(() => new DetailRelay(feed.live), [feed]);
  const [overview, setOverview] = useState<OverviewSnapshot>(emptyOverview);
  const pending = useRef<(OverviewMessage | OverviewDelta)[]>([]);
  useEffect(() => {
    let frame: number | undefined;
    // Many messages within one frame fold in one render.
    const flush = () => {
      frame = undefined;
      const msgs = pending.current;
      pending.current = [];
      setOverview((s) => msgs.reduce(applyMessage, s));
    };
    const stop = feed.watch({
      onOverview(msg) {
        pending.current.push(msg);
        frame ??= requestAnimationFrame(flush);
      },
      onDetail: (s) => relay.snapshot(s),
      onDetailEvents: (e) => relay.events(e),
      onStatus: (s, d) => relay.setStatus(s, d),
    });
    return () => {
      stop();
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [feed, relay]);
  const value = useMemo(() => ({ overview, feed, ready: overview.version > 0 }), [overview, feed]);
  return (
    <Ctx.Provider value={value}>
      <ClusterProvider source={relay} initialView={view}>
        <OverviewConsole initialQuery={view.q ?? ''} />
      </ClusterProvider>
    </Ctx.Provider>
  );
}
