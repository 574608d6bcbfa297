'use client';
/**
 * The search box: the query language's hint, the query applied as the reader types (after a
 * short pause) or on Enter, and a query that does not parse explained under the box.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';

const TYPING_MS = 250;

export function SearchBox({
  query,
  error,
  onApply,
}: {
  query: string;
  error: { message: string; at: number } | undefined;
  onApply: (q: string) => void;
}) {
  const t = useTranslations('ui.overview.search');
  const [text, setText] = useState(query);
  const [shown, setShown] = useState(query);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A query applied from elsewhere (a change group, a reason) shows in the box.
  if (query !== shown) {
    setShown(query);
    if (query !== text.trim()) setText(query);
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  const apply = (q: string) => {
    clearTimeout(timer.current);
    onApply(q.trim());
  };
  return (
    <form
      className="ps-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        apply(text);
      }}
    >
      <label className="ps-visually-hidden" htmlFor="ps-search-input">
        {t('label')}
      </label>
      <input
        id="ps-search-input"
        type="search"
        value={text}
        placeholder={t('placeholder')}
        aria-describedby="ps-search-hint ps-search-error"
        aria-invalid={error ? true : undefined}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => onApply(v.trim()), TYPING_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text) {
            e.stopPropagation();
            setText('');
            apply('');
          }
        }}
      />
      <p id="ps-search-hint" className="ps-search-hint">
        {t('hint')}
      </p>
      <p
        id="ps-search-error"
        className="ps-search-error"
        role="alert"
        data-search-error={error ? '' : undefined}
      >
        {error ? t('error', { message: error.message, at: error.at + 1 }) : null}
      </p>
    </form>
  );
}
