'use client';
/**
 * The console's client root: picks the data source for the view (live server, or the scripted
 * demo with `?source=demo`) and pins dates to the browser's time zone. A live cluster of more
 * than SMALL_CLUSTER_NODES nodes, and the scale view, open the overview (components/overview).
 */
import { NextIntlClientProvider, useLocale, useMessages } from 'next-intl';
import { useMemo } from 'react';
import { ClusterProvider } from '@/components/data/ClusterProvider';
import { createSource } from '@/components/data/sources';
import { LiveRoot } from '@/components/overview/LiveRoot';
import { OverviewRoot } from '@/components/overview/OverviewRoot';
import { createScaleFeed } from '@/components/overview/sources';
import type { ViewState } from '@/components/data/url-state';
import type { PodscopeClient } from '@/trpc/client';
import { useTRPCClient } from '@/trpc/react';
import { Console } from './Console';

export function ConsoleRoot({ view }: { view: ViewState }) {
  const locale = useLocale();
  const messages = useMessages();
  const client = useTRPCClient();
  // The scale view is a cluster of its own size: every node in the overview, detail per view.
  const feed = useMemo(() => (view.source === 'scale' ? createScaleFeed(view) : undefined), [view]);
  const timeZone = useMemo(
    () => (typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC'),
    [],
  );
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone={timeZone}>
      {feed ? (
        <OverviewRoot feed={feed} view={view} />
      ) : view.source === 'live' ? (
        <LiveRoot
          client={client}
          view={view}
          classic={() => <ClassicConsole view={view} client={client} />}
        />
      ) : (
        <ClassicConsole view={view} client={client} />
      )}
    </NextIntlClientProvider>
  );
}

/** The three-layer console of every node, as it always was (demo, recordings, small clusters). */
function ClassicConsole({ view, client }: { view: ViewState; client: PodscopeClient }) {
  const source = useMemo(() => createSource(view, client), [view, client]);
  return (
    <ClusterProvider source={source} initialView={view}>
      <Console />
    </ClusterProvider>
  );
}
