'use client';
/** The walkthroughs' top bar: the product, where you are, the way to the console, the language. */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Link } from '@/i18n/navigation';
import { LanguageSwitcher } from '@/components/shell/LanguageSwitcher';

export function LearnTop({ children }: { children?: ReactNode }) {
  const t = useTranslations('ui');
  const tl = useTranslations('learn.walkthrough.list');
  return (
    <header className="ps-header ps-learn-top">
      <div className="ps-brand">
        <svg className="ps-logo" viewBox="0 0 24 24" aria-hidden="true">
          <rect x="2" y="3" width="20" height="18" rx="4" />
          <rect x="5.5" y="9" width="6" height="8" rx="2" />
          <rect x="13" y="9" width="5.5" height="3.5" rx="1.5" />
        </svg>
        <Link href="/learn" className="ps-learn-home">
          {t('app.title')}
        </Link>
        {children}
      </div>
      <div className="ps-header-right">
        <Link href="/" className="ps-learn-console">
          {tl('console')}
        </Link>
        <LanguageSwitcher />
      </div>
    </header>
  );
}
