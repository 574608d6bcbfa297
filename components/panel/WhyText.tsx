'use client';
/**
 * An explanation from lib/kubelet in plain words, in the reader's language, with the upstream
 * rule that decided it and the inputs that mattered (so nobody has to take it on trust).
 */
import { useLocale, useTranslations } from 'next-intl';
import type { Explanation } from '@/lib/kubelet/explanation';
import { formatExplanation } from '@/lib/i18n/format';
import { isLocale } from '@/lib/i18n/locales';
import { WriterLabel } from './WriterLabel';

export function useWhy(): (e: Explanation | undefined) => string | undefined {
  const locale = useLocale();
  return (e) => {
    if (!e) return undefined;
    const text = formatExplanation(e, isLocale(locale) ? locale : 'en');
    // A message the catalogue does not have yet comes back as its key.
    return text === `why.${e.id}` ? undefined : text;
  };
}

export function WhyText({
  why,
  prominent = false,
  showRule = true,
}: {
  why: Explanation | undefined;
  prominent?: boolean;
  showRule?: boolean;
}) {
  const t = useTranslations('ui.panel');
  const render = useWhy();
  if (!why) return <p className="ps-why ps-why-none">{t('noWhy')}</p>;
  const text = render(why);
  const inputs = Object.entries(why.inputs ?? {});
  return (
    <div className={prominent ? 'ps-why is-prominent' : 'ps-why'}>
      {text ? (
        <p className="ps-why-text">
          {showRule ? <WriterLabel why={why} /> : null}
          {text}
        </p>
      ) : (
        <p className="ps-why-text ps-why-missing">
          <code>{why.id}</code>
        </p>
      )}
      {showRule && (why.rule || inputs.length > 0) ? (
        // The rule and its inputs are there to check the claim, not to read first: folded.
        <details className="ps-why-rule">
          <summary>
            <span className="ps-why-rule-label">{t('rule')}</span> <code>{why.rule ?? why.id}</code>
          </summary>
          {inputs.map(([k, v]) => (
            <span key={k} className="ps-chip">
              {`${k}: ${v === null ? '—' : String(v)}`}
            </span>
          ))}
        </details>
      ) : null}
    </div>
  );
}
