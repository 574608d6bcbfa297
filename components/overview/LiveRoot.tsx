'use client';
/**
 * The live console's choice: a server with the overview (overview.watch) whose cluster has more
 * than SMALL_CLUSTER_NODES nodes opens the overview; a small cluster — or a server without the
 * overview — opens the three-layer console exactly as before (its own cluster.watch). The first
 * overview message decides; the probe's stream is then closed or kept as the tab's one stream.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ViewState } from '@/components/data/url-state';
import { SMALL_CLUSTER_NODES } from '@/lib/overview/wire';
import type { PodscopeClient } from '@/trpc/client';
import { createLiveFeed } from './live-feed';
import { OverviewRoot } from './OverviewRoot';

/** Past this the console stops waiting for the overview and opens as before. */
const PROBE_MS = 4_000;

/** Resolves with the cluster's node count, or undefined when the server has no overview. */
function probe(client: PodscopeClient): { done: Promise<number | undefined>; stop(): void } {
  let sub: { unsubscribe(): void } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<number | undefined>((resolve) => {
    const finish = (n: number | undefined) => {
      clearTimeout(timer);
      sub?.unsubscribe();
      resolve(n);
    };
    timer = setTimeout(() => finish(undefined), PROBE_MS);
    try {
      sub = client.overview.watch.subscribe(
        { nodes: [] },
        {
          onData: ({ data }) => {
            if (data.type === 'overview') finish(data.aggregates.nodes);
          },
          onError: () => finish(undefined),
          // No server to answer (or it failed to): the console as before says so itself.
          onConnectionStateChange: (s) => {
            if (s.error) finish(undefined);
          },
        },
      );
    } catch {
      finish(undefined);
    }
  });
  return { done, stop: () => sub?.unsubscribe() };
}

export function LiveRoot({
  client,
  view,
  classic,
}: {
  client: PodscopeClient;
  view: ViewState;
  /** The console as it always was, for a small cluster. */
  classic: () => ReactNode;
}) {
  const [choice, setChoice] = useState<'probing' | 'classic' | 'overview'>('probing');
  useEffect(() => {
    const p = probe(client);
    let live = true;
    void p.done.then((nodes) => {
      if (live)
        setChoice(nodes !== undefined && nodes > SMALL_CLUSTER_NODES ? 'overview' : 'classic');
    });
    return () => {
      live = false;
      p.stop();
    };
  }, [client]);
  const feed = useMemo(
    () => (choice === 'overview' ? createLiveFeed(client) : undefined),
    [choice, client],
  );
  if (choice === 'classic') return classic();
  if (feed) return <OverviewRoot feed={feed} view={view} />;
  return null;
}
