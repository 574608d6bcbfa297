'use client';
/**
 * The console on one saved timeline, read-only: a memory ClusterSource over its initial state
 * and events (live = false, so no Live button), the cursor at the link's moment, and the
 * timeline's title, notes and annotations for the header and the timeline to show.
 */
import { NextIntlClientProvider, useLocale, useMessages } from 'next-intl';
import { useEffect, useMemo } from 'react';
import { ClusterProvider } from '@/components/data/ClusterProvider';
import { createMemorySource } from '@/components/data/memory-source';
import type { ViewState } from '@/components/data/url-state';
import { Console } from '@/components/shell/Console';
import type { TimelineEvent } from '@/lib/timeline/events';
import { inertText } from '@/lib/timeline/file';
import type { ClusterState } from '@/lib/timeline/state';
import { SharedTimelineProvider, type SharedTimelineInfo } from './shared-context';

export interface IncidentViewerProps {
  info: SharedTimelineInfo;
  initialState: ClusterState;
  events: readonly TimelineEvent[];
  view: ViewState;
}

export function IncidentViewer({ info, initialState, events, view }: IncidentViewerProps) {
  const source = useMemo(() => {
    // The console's track starts at the base state's t (the time of its last event). For a
    // saved period that is `from`: the same state, taken at the start of the period, so the
    // track spans the period even when its first event comes long after the one before it.
    // Every later state is the same either way: each event of the period is after `from`.
    const base = initialState.t >= info.from ? initialState : { ...initialState, t: info.from };
    return createMemorySource(base, events.slice());
  }, [initialState, events, info.from]);
  const locale = useLocale();
  const messages = useMessages();
  const timeZone = useMemo(
    () => (typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC'),
    [],
  );
  useEffect(() => {
    document.title = `${inertText(info.title, { max: 80 })} · Podscope`;
  }, [info.title]);
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone={timeZone}>
      <SharedTimelineProvider timeline={info}>
        <ClusterProvider source={source} initialView={view}>
          <Console />
        </ClusterProvider>
      </SharedTimelineProvider>
    </NextIntlClientProvider>
  );
}
