'use client';
/** "Export file": downloads the saved timeline (FORMAT.md), optionally gzip-compressed. */
import { useTranslations } from 'next-intl';
import { useState } from 'react';

export function exportHref(id: string, gzip: boolean): string {
  return `/api/timelines/${encodeURIComponent(id)}/export${gzip ? '?gzip=1' : ''}`;
}

export function ExportLinks({ id }: { id: string }) {
  const t = useTranslations('incident.export');
  const [gzip, setGzip] = useState(false);
  return (
    <span className="ps-inc-export">
      <a
        className="ps-button"
        href={exportHref(id, gzip)}
        download
        data-testid="export-file"
        title={t('hint')}
      >
        {t('file')}
      </a>
      <label className="ps-inc-check">
        <input type="checkbox" checked={gzip} onChange={(e) => setGzip(e.target.checked)} />
        {t('gzip')}
      </label>
    </span>
  );
}
