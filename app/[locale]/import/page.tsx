import { setRequestLocale } from 'next-intl/server';
import { parseView } from '@/components/data/url-state';
import { ImportRoot } from '@/components/incident/ImportRoot';

/** Import a timeline file: check it in the browser, then save it (share link) or replay it here. */
export default async function ImportPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <ImportRoot view={parseView(new URLSearchParams())} />;
}
