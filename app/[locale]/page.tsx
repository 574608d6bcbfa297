import { useTranslations } from 'next-intl';
import { setRequestLocale } from 'next-intl/server';
import { use } from 'react';

export default function ConsolePage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = use(params);
  setRequestLocale(locale);
  const t = useTranslations('ui.app');
  return (
    <main>
      <h1>{t('title')}</h1>
      <p>{t('tagline')}</p>
    </main>
  );
}
