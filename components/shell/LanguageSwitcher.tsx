'use client';
/** Switches the language and keeps everything else in the URL (path, selection, cursor, filters). */
import { useLocale, useTranslations } from 'next-intl';
import type { MouseEvent } from 'react';
import { usePathname } from '@/i18n/navigation';
import { LOCALES } from '@/lib/i18n/locales';

export function LanguageSwitcher() {
  const t = useTranslations('ui.language');
  const current = useLocale();
  const path = usePathname();
  const go = (locale: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    // The query changes as the view changes (replaceState), so read it at click time.
    e.preventDefault();
    window.location.assign(
      `/${locale}${path === '/' ? '' : path}${window.location.search}${window.location.hash}`,
    );
  };
  return (
    <nav className="ps-lang" aria-label={t('label')}>
      {LOCALES.map((l) => (
        <a
          key={l}
          href={`/${l}${path === '/' ? '' : path}`}
          hrefLang={l}
          lang={l}
          aria-current={l === current ? 'true' : undefined}
          onClick={go(l)}
        >
          {t(l)}
        </a>
      ))}
    </nav>
  );
}
