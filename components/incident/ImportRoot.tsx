'use client';
/** The import page: the drop zone, then (when asked) the file replayed here without saving. */
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ViewState } from '@/components/data/url-state';
import type { TimelineFile } from '@/lib/timeline/file';
import { ImportDropZone } from './ImportDropZone';
import { IncidentViewer } from './IncidentViewer';
import './incident.css';

export function ImportRoot({ view }: { view: ViewState }) {
  const t = useTranslations('incident.import');
  const locale = useLocale();
  const [file, setFile] = useState<TimelineFile | undefined>(undefined);
  if (file) {
    return (
      <IncidentViewer
        info={{
          title: file.title,
          notes: file.notes,
          from: file.from,
          to: file.to,
          eventCount: file.events.length,
          annotations: file.annotations,
        }}
        initialState={file.initialState}
        events={file.events}
        view={view}
      />
    );
  }
  return (
    <main className="ps-inc-page">
      <h1>{t('heading')}</h1>
      <p>{t('intro')}</p>
      <ImportDropZone onOpenHere={setFile} />
      <p>
        <a href={`/${locale}`}>{t('back')}</a>
      </p>
    </main>
  );
}
