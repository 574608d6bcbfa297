'use client';
/** The walkthroughs' top bar: the product, where you are, the way to the console, the language. */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Link } from '@/i18n/navigation';
import { LanguageSwitcher } from '@/components/shell/LanguageSwitcher';
import { Logo } from '@/components/shell/Logo';

export function LearnTop({ children }: { children?: ReactNode }) {
  const t = useTranslations('ui');
  const tl = useTranslations('learn.walkthrough.list');
  return (
    <header className="ps-header ps-learn-top">
      <div className="ps-brand">
        <Logo />
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
