'use client';
/**
 * The header's incident controls on a read-only timeline: its title, a panel with the notes and
 * annotations (open at first, so a reviewer sees them), Copy link (the URL keeps the moment and
 * the selection) and Export file.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { inertText } from '@/lib/timeline/file';
import { AnnotationList } from './AnnotationList';
import { CopyLinkButton } from './CopyLinkButton';
import { ExportLinks } from './ExportLinks';
import type { SharedTimelineInfo } from './shared-context';
import { useMoment } from './use-moment';

export function SharedBar({ timeline }: { timeline: SharedTimelineInfo }) {
  const t = useTranslations('incident.shared');
  const moment = useMoment();
  const [open, setOpen] = useState(true);
  const id = timeline.id;
  return (
    <div className="ps-inc-bar" role="group" aria-label={t('label')}>
      <span className="ps-tag ps-inc-readonly">{id ? t('readOnly') : t('notSaved')}</span>
      <span className="ps-inc-title" data-testid="timeline-title" title={inertText(timeline.title)}>
        {inertText(timeline.title, { max: 60 })}
      </span>
      <button
        type="button"
        className="ps-button"
        aria-expanded={open}
        aria-controls="ps-inc-notes"
        onClick={() => setOpen((o) => !o)}
      >
        {t('notesButton', { count: timeline.annotations.length })}
      </button>
      {id ? <CopyLinkButton url={() => window.location.href} /> : null}
      {id ? <ExportLinks id={id} /> : null}
      {open ? (
        <section id="ps-inc-notes" className="ps-inc-panel" aria-label={t('notesTitle')}>
          <header className="ps-inc-panel-head">
            <h2>{inertText(timeline.title)}</h2>
            <button type="button" className="ps-link" onClick={() => setOpen(false)}>
              {t('close')}
            </button>
          </header>
          <p className="ps-muted">
            {t('period', {
              from: moment(timeline.from),
              to: moment(timeline.to),
              count: timeline.eventCount,
            })}
          </p>
          <h3>{t('notes')}</h3>
          {timeline.notes.trim() ? (
            <p className="ps-inc-notes" data-testid="timeline-notes">
              {inertText(timeline.notes, { multiline: true })}
            </p>
          ) : (
            <p className="ps-muted">{t('noNotes')}</p>
          )}
          <h3>{t('annotations')}</h3>
          <AnnotationList annotations={timeline.annotations} />
        </section>
      ) : null}
    </div>
  );
}
