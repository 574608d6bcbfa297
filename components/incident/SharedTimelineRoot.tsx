'use client';
/**
 * The share page's client root (`/<locale>/t/<id>?at=…`): loads the saved timeline once
 * (timelines.get) and replays it in the browser, read-only. Nothing streams: the file is all
 * there is.
 */
import { TRPCClientError } from '@trpc/client';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import type { ViewState } from '@/components/data/url-state';
import type { RouterOutputs } from '@/trpc/client';
import { incidentClient } from './client';
import { IncidentViewer } from './IncidentViewer';
import './incident.css';

type Saved = RouterOutputs['timelines']['get'];
type Load =
  | { kind: 'loading' }
  | { kind: 'ready'; saved: Saved }
  | { kind: 'missing' }
  | { kind: 'failed'; error: string };

export function SharedTimelineRoot({ id, view }: { id: string; view: ViewState }) {
  const t = useTranslations('incident.shared');
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    incidentClient()
      .timelines.get.query({ id })
      .then(
        (saved) => live && setLoad({ kind: 'ready', saved }),
        (err: unknown) => {
          if (!live) return;
          if (
            err instanceof TRPCClientError &&
            (err.data as { code?: string } | undefined)?.code === 'NOT_FOUND'
          )
            setLoad({ kind: 'missing' });
          else setLoad({ kind: 'failed', error: err instanceof Error ? err.message : String(err) });
        },
      );
    return () => {
      live = false;
    };
  }, [id]);

  if (load.kind !== 'ready') {
    return (
      <main className="ps-inc-page">
        <p role={load.kind === 'loading' ? 'status' : 'alert'} data-testid="shared-status">
          {load.kind === 'loading'
            ? t('loading')
            : load.kind === 'missing'
              ? t('notFound')
              : t('failed', { error: load.error.slice(0, 300) })}
        </p>
      </main>
    );
  }
  const { saved } = load;
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
