'use client';
/**
 * Saving a period: title, notes, and notes pinned to moments (the cursor's, with the selected
 * entity). Once saved: the share link to copy, the file to export, a link to open it.
 */
import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { DEFAULT_LIMITS, inertText } from '@/lib/timeline/file';
import { CopyLinkButton } from './CopyLinkButton';
import { ExportLinks } from './ExportLinks';
import { clampToPeriod, entityLabel, shareUrl, type Period } from './period';
import { useMoment } from './use-moment';
import { formatDuration } from '@/components/visual/duration';
import { useTRPC } from '@/trpc/react';

interface Draft {
  t: number;
  entity?: string;
  text: string;
}

type Phase =
  | { kind: 'editing'; error?: string }
  | { kind: 'saving' }
  | { kind: 'saved'; id: string; title: string };

export function SaveDialog({ period, onClose }: { period: Period; onClose: () => void }) {
  const t = useTranslations('incident.save');
  const locale = useLocale();
  const moment = useMoment();
  const { t: cursor, selection, state } = useCluster();
  const dialog = useRef<HTMLDialogElement>(null);
  const [title, setTitle] = useState('');
  const [notes, setNotes] = useState('');
  const [note, setNote] = useState('');
  const [annotations, setAnnotations] = useState<Draft[]>([]);
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  const save = useMutation(useTRPC().timelines.save.mutationOptions());

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  const pinnedAt = clampToPeriod(cursor, period);
  const addNote = () => {
    const text = note.trim();
    if (!text) return;
    setAnnotations((list) => [
      ...list,
      { t: pinnedAt, ...(selection ? { entity: selection } : {}), text },
    ]);
    setNote('');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (phase.kind === 'saving') return;
    // A note typed but not added yet is meant to be saved too.
    const pending = note.trim();
    const all = pending
      ? [
          ...annotations,
          { t: pinnedAt, ...(selection ? { entity: selection } : {}), text: pending },
        ]
      : annotations;
    setPhase({ kind: 'saving' });
    save
      .mutateAsync({
        title: title.trim(),
        ...(notes.trim() ? { notes } : {}),
        from: period.from,
        to: period.to,
        annotations: all,
      })
      .then(
        (saved) => {
          setAnnotations(all);
          setNote('');
          setPhase({ kind: 'saved', id: saved.id, title: saved.title });
        },
        (err: unknown) =>
          setPhase({ kind: 'editing', error: err instanceof Error ? err.message : String(err) }),
      );
  };

  const link = (id: string) =>
    shareUrl({
      origin: window.location.origin,
      locale,
      id,
      at: pinnedAt,
      ...(selection ? { sel: selection } : {}),
    });

  return (
    <dialog
      ref={dialog}
      className="ps-inc-dialog"
      aria-labelledby="ps-inc-save-title"
      onClose={onClose}
      data-testid="save-dialog"
    >
      <h2 id="ps-inc-save-title">{t('heading')}</h2>
      {phase.kind === 'saved' ? (
        <div className="ps-inc-saved">
          <p role="status">{t('saved', { title: inertText(phase.title, { max: 80 }) })}</p>
          <label className="ps-inc-field">
            <span>{t('link')}</span>
            <input
              type="text"
              readOnly
              value={link(phase.id)}
              data-testid="share-url"
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
          <div className="ps-inc-actions">
            <CopyLinkButton url={() => link(phase.id)} />
            <ExportLinks id={phase.id} />
            <a className="ps-button" href={link(phase.id)} target="_blank" rel="noopener">
              {t('open')}
            </a>
            <button type="button" className="ps-button" onClick={() => dialog.current?.close()}>
              {t('close')}
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit}>
          <p className="ps-muted">
            {t('period', {
              from: moment(period.from),
              to: moment(period.to),
              duration: formatDuration(period.to - period.from, locale),
            })}
          </p>
          <label className="ps-inc-field">
            <span>{t('titleLabel')}</span>
            <input
              type="text"
              required
              maxLength={DEFAULT_LIMITS.titleChars}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              placeholder={t('titlePlaceholder')}
              data-testid="save-title"
              autoFocus
            />
          </label>
          <label className="ps-inc-field">
            <span>{t('notesLabel')}</span>
            <textarea
              rows={3}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              placeholder={t('notesPlaceholder')}
              data-testid="save-notes"
            />
          </label>
          <fieldset className="ps-inc-field">
            <legend>{t('annotationsLabel')}</legend>
            {annotations.length > 0 ? (
              <ul className="ps-inc-drafts">
                {annotations.map((a, i) => (
                  <li key={i}>
                    <span className="ps-muted">
                      {a.entity
                        ? t('pinnedTo', {
                            time: moment(a.t),
                            entity: inertText(entityLabel(state, a.entity), { max: 80 }),
                          })
                        : t('pinnedToTime', { time: moment(a.t) })}
                    </span>{' '}
                    {inertText(a.text, { max: 200 })}{' '}
                    <button
                      type="button"
                      className="ps-link"
                      onClick={() => setAnnotations((list) => list.filter((_, j) => j !== i))}
                    >
                      {t('remove')}
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="ps-inc-note-row">
              <input
                type="text"
                value={note}
                onChange={(e) => setNote(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addNote();
                  }
                }}
                placeholder={t('notePlaceholder')}
                aria-label={t('notePlaceholder')}
                data-testid="annotation-input"
              />
              <button
                type="button"
                className="ps-button"
                onClick={addNote}
                data-testid="add-annotation"
              >
                {t('addNote')}
              </button>
            </div>
            <p className="ps-muted">
              {selection
                ? t('pinHint', {
                    time: moment(pinnedAt),
                    entity: inertText(entityLabel(state, selection), { max: 80 }),
                  })
                : t('pinHintTime', { time: moment(pinnedAt) })}
            </p>
          </fieldset>
          {phase.kind === 'editing' && phase.error ? (
            <p className="ps-inc-error" role="alert">
              {t('error', { error: inertText(phase.error, { max: 300 }) })}
            </p>
          ) : null}
          <div className="ps-inc-actions">
            <button
              type="submit"
              className="ps-button ps-inc-primary"
              disabled={phase.kind === 'saving' || !title.trim()}
              data-testid="save-submit"
            >
              {phase.kind === 'saving' ? t('saving') : t('submit')}
            </button>
            <button type="button" className="ps-button" onClick={() => dialog.current?.close()}>
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
