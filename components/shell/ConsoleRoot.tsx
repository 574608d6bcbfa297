'use client';
/**
 * The console's client root: picks the data source for the view (live server, or the scripted
 * demo with `?source=demo`) and pins dates to the browser's time zone.
 */
import { NextIntlClientProvider, useLocale, useMessages } from 'next-intl';
import { useMemo } from 'react';
import { ClusterProvider } from '@/components/data/ClusterProvider';
import { createSource } from '@/components/data/sources';
import type { ViewState } from '@/components/data/url-state';
import { useTRPCClient } from '@/trpc/react';
import { Console } from './Console';

export function ConsoleRoot({ view }: { view: ViewState }) {
  const locale = useLocale();
  const messages = useMessages();
  const client = useTRPCClient();
  const source = useMemo(() => createSource(view, client), [view, client]);
  const timeZone = useMemo(
    () => (typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC'),
    [],
  );
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone={timeZone}>
      <ClusterProvider source={source} initialView={view}>
        <Console />
      </ClusterProvider>
    </NextIntlClientProvider>
  );
}
