'use client';
/** Copies a link to the clipboard and says so; where the clipboard is refused, says where to copy it from. */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';

type Outcome = 'idle' | 'copied' | 'failed';

export function CopyLinkButton({ url }: { url: () => string }) {
  const t = useTranslations('incident.share');
  const [outcome, setOutcome] = useState<Outcome>('idle');
  useEffect(() => {
    if (outcome === 'idle') return;
    const id = setTimeout(() => setOutcome('idle'), 2500);
    return () => clearTimeout(id);
  }, [outcome]);
  const copy = () => {
    const text = url();
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clipboard) {
      setOutcome('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setOutcome('copied'),
      () => setOutcome('failed'),
    );
  };
  return (
    <span className="ps-inc-copy">
      <button type="button" className="ps-button" onClick={copy} data-testid="copy-link">
        {t('copy')}
      </button>
      <span className="ps-inc-feedback" role="status" aria-live="polite">
        {outcome === 'copied' ? t('copied') : outcome === 'failed' ? t('copyFailed') : ''}
      </span>
    </span>
  );
}
