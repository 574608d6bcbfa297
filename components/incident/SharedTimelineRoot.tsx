'use client';
/**
 * The share page's client root (`/<locale>/t/<id>?at=…`): loads the saved timeline once
 * (timelines.get) and replays it in the browser, read-only. Nothing streams: the file is all
 * there is.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import type { ViewState } from '@/components/data/url-state';
import { loaded } from '@/trpc/loaded';
import { useTRPC } from '@/trpc/react';
import { IncidentViewer } from './IncidentViewer';
import './incident.css';

export function SharedTimelineRoot({ id, view }: { id: string; view: ViewState }) {
  const t = useTranslations('incident.shared');
  const trpc = useTRPC();
  const [load] = loaded(useQuery(trpc.timelines.get.queryOptions({ id })));

  if (load.status !== 'ready') {
    return (
      <main className="ps-inc-page">
        <p role={load.status === 'loading' ? 'status' : 'alert'} data-testid="shared-status">
          {load.status === 'loading'
            ? t('loading')
            : load.status === 'notFound'
              ? t('notFound')
              : t('failed', { error: load.error.slice(0, 300) })}
        </p>
      </main>
    );
  }
  const saved = load.data;
  return (
    <IncidentViewer
      info={{
        id: saved.id,
        title: saved.title,
        notes: saved.notes,
        from: saved.from,
        to: saved.to,
        eventCount: saved.eventCount,
        annotations: saved.annotations.map((a) => ({
          t: a.t,
          text: a.text,
          ...(a.entity !== undefined ? { entity: a.entity } : {}),
        })),
      }}
      initialState={saved.initialState}
      events={saved.events}
      view={view}
    />
  );
}
