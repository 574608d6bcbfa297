'use client';
/** The kubelet's crash-loop back-off, counting down to the next restart at the cursor's "now". */
import { useLocale, useTranslations } from 'next-intl';
import { formatDuration } from '@/components/visual/duration';

export function BackoffTimer({
  due,
  since,
  now,
}: {
  due: number;
  since: number | undefined;
  now: number;
}) {
  const t = useTranslations('ui.panel');
  const locale = useLocale();
  const left = due - now;
  const span = since !== undefined && due > since ? due - since : undefined;
  const done = span !== undefined ? Math.min(1, Math.max(0, 1 - left / span)) : undefined;
  return (
    <div className="ps-backoff" data-testid="backoff" data-due={due}>
      <p className="ps-backoff-text">
        {left > 0 ? t('backoff.in', { duration: formatDuration(left, locale) }) : t('backoff.due')}
        {span !== undefined ? (
          <span className="ps-muted ps-backoff-window">
            {' '}
            {t('backoff.window', { duration: formatDuration(span, locale) })}
          </span>
        ) : null}
      </p>
      {done !== undefined ? (
        <div
          className="ps-backoff-bar"
          role="progressbar"
          aria-label={t('backoff.label')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(done * 100)}
        >
          <span style={{ width: `${done * 100}%` }} />
        </div>
      ) : null}
    </div>
  );
}
