import { getTranslations } from 'next-intl/server';
import { Link } from '@/i18n/navigation';

/** A path that leads nowhere: say so, and offer the two ways in. */
export default async function NotFound() {
  const t = await getTranslations('ui.notFound');
  return (
    <main className="ps-notfound">
      <h1>{t('title')}</h1>
      <p>{t('text')}</p>
      <p className="ps-notfound-links">
        <Link href="/">{t('console')}</Link>
        <Link href="/learn">{t('learn')}</Link>
      </p>
    </main>
  );
}
