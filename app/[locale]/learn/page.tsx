import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { LearnList } from '@/components/learn/LearnList';

/** /learn: the guided walkthroughs, one per training scenario. */

// Rendered per request: the Content-Security-Policy's nonce must reach the page's scripts.
export const dynamic = 'force-dynamic';
export async function generateMetadata({
  params,
}: {
  params: Promise<{ locale: string }>;
}): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: 'learn.walkthrough.list' });
  const app = await getTranslations({ locale, namespace: 'ui.app' });
  return { title: `${t('title')} · ${app('title')}` };
}

export default async function LearnPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LearnList />;
}
