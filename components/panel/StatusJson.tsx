'use client';
/** The full API status, collapsible, printed the way `kubectl get -o json` prints it. */
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { encode } from '@/lib/timeline/codec';

export function StatusJson({ value, title }: { value: unknown; title: string }) {
  const t = useTranslations('ui.panel');
  const text = useMemo(
    () => JSON.stringify(JSON.parse(encode(value)) as unknown, null, 2),
    [value],
  );
  return (
    <details className="ps-json">
      <summary>
        {title} <span className="ps-muted">{t('json')}</span>
      </summary>
      <pre tabIndex={0}>{text}</pre>
    </details>
  );
}
