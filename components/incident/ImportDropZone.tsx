'use client';
/**
 * Opening a timeline file: pick or drop it; it is checked here first (located errors at once,
 * gzip inflated with a size guard), then either saved on the server and opened at its share
 * link, or replayed right here without saving.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useState, useSyncExternalStore, type DragEvent } from 'react';
import {
  DEFAULT_LIMITS,
  inertText,
  isGzip,
  readTimelineFile,
  TimelineFileError,
  type FileErrorData,
  type TimelineFile,
} from '@/lib/timeline/file';
import { FileErrors } from './FileErrors';
import { useMoment } from './use-moment';

type Phase =
  | { kind: 'idle' }
  | { kind: 'checking'; name: string }
  | { kind: 'refused'; name: string; error: FileErrorData }
  | { kind: 'valid'; name: string; file: TimelineFile; bytes: Uint8Array<ArrayBuffer> }
  | { kind: 'uploading'; name: string }
  | {
      kind: 'uploadFailed';
      name: string;
      file: TimelineFile;
      bytes: Uint8Array<ArrayBuffer>;
      error: FileErrorData;
    };

const noSubscription = () => () => undefined;

const MAX_FILE = Math.max(DEFAULT_LIMITS.maxBytes, DEFAULT_LIMITS.maxCompressedBytes);

/** The server's answer to a refused upload, as file-error data. */
function uploadError(status: number, body: unknown): FileErrorData {
  const error = (body as { error?: Partial<FileErrorData> } | null)?.error;
  return {
    code: typeof error?.code === 'string' ? error.code : status === 413 ? 'TOO_LARGE' : 'INVALID',
    message: typeof error?.message === 'string' ? error.message : `HTTP ${status}`,
    issues: Array.isArray(error?.issues) ? error.issues : [],
    more: typeof error?.more === 'number' ? error.more : 0,
  };
}

export function ImportDropZone({ onOpenHere }: { onOpenHere: (file: TimelineFile) => void }) {
  const t = useTranslations('incident.import');
  const locale = useLocale();
  const moment = useMoment();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [over, setOver] = useState(false);
  // False on the server and while hydrating: a file picked before that would be lost (tests wait for it).
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  const check = async (picked: File) => {
    const name = picked.name;
    if (picked.size > MAX_FILE) {
      setPhase({
        kind: 'refused',
        name,
        error: new TimelineFileError('TOO_LARGE', [
          { path: '(root)', message: `${picked.size} bytes; the limit is ${MAX_FILE}` },
        ]).toData(),
      });
      return;
    }
    setPhase({ kind: 'checking', name });
    try {
      const bytes = new Uint8Array(await picked.arrayBuffer());
      const file = await readTimelineFile(bytes);
      setPhase({ kind: 'valid', name, file, bytes });
    } catch (err) {
      if (err instanceof TimelineFileError)
        setPhase({ kind: 'refused', name, error: err.toData() });
      else
        setPhase({
          kind: 'refused',
          name,
          error: { code: 'INVALID', message: String(err), issues: [], more: 0 },
        });
    }
  };

  const upload = async (name: string, file: TimelineFile, bytes: Uint8Array<ArrayBuffer>) => {
    setPhase({ kind: 'uploading', name });
    try {
      const res = await fetch('/api/timelines/import', {
        method: 'POST',
        headers: { 'content-type': isGzip(bytes) ? 'application/gzip' : 'application/json' },
        body: bytes,
      });
      const body: unknown = await res.json().catch(() => null);
      const id = (body as { id?: unknown } | null)?.id;
      if (res.status === 201 && typeof id === 'string') {
        window.location.assign(`/${locale}/t/${encodeURIComponent(id)}`);
        return;
      }
      setPhase({ kind: 'uploadFailed', name, file, bytes, error: uploadError(res.status, body) });
    } catch (err) {
      setPhase({
        kind: 'uploadFailed',
        name,
        file,
        bytes,
        error: {
          code: 'INVALID',
          message: err instanceof Error ? err.message : String(err),
          issues: [],
          more: 0,
        },
      });
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const picked = e.dataTransfer.files[0];
    if (picked) void check(picked);
  };

  return (
    <div className="ps-inc-import">
      <div
        className={`ps-inc-drop${over ? ' is-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
        data-ready={ready ? 'true' : undefined}
      >
        <label className="ps-button ps-inc-primary">
          {t('choose')}
          <input
            type="file"
            className="ps-visually-hidden"
            accept=".json,.gz,application/json,application/gzip"
            data-testid="import-file"
            onChange={(e) => {
              const picked = e.target.files?.[0];
              if (picked) void check(picked);
              e.target.value = '';
            }}
          />
        </label>
        <p className="ps-muted">{t('drop')}</p>
      </div>
      <div aria-live="polite">
        {phase.kind === 'checking' ? (
          <p role="status">{t('checking', { name: inertText(phase.name, { max: 120 }) })}</p>
        ) : null}
        {phase.kind === 'uploading' ? <p role="status">{t('uploading')}</p> : null}
        {phase.kind === 'refused' ? <FileErrors name={phase.name} error={phase.error} /> : null}
        {phase.kind === 'uploadFailed' ? (
          <FileErrors name={phase.name} error={phase.error} />
        ) : null}
        {phase.kind === 'valid' || phase.kind === 'uploadFailed' ? (
          <div className="ps-inc-summary" data-testid="import-summary">
            <h2>{inertText(phase.file.title, { max: 200 })}</h2>
            <p className="ps-muted">
              {t('summary', {
                from: moment(phase.file.from),
                to: moment(phase.file.to),
                events: phase.file.events.length,
                annotations: phase.file.annotations.length,
              })}
            </p>
            <div className="ps-inc-actions">
              <button
                type="button"
                className="ps-button ps-inc-primary"
                onClick={() => void upload(phase.name, phase.file, phase.bytes)}
                data-testid="import-save"
              >
                {t('saveAndOpen')}
              </button>
              <button
                type="button"
                className="ps-button"
                onClick={() => onOpenHere(phase.file)}
                data-testid="import-open-here"
              >
                {t('openHere')}
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
