import { setRequestLocale } from 'next-intl/server';
import { viewFromSearchParams } from '@/components/data/url-state';
import { ImportRoot } from '@/components/incident/ImportRoot';

/**
 * Import a timeline file: check it in the browser, then save it (share link) or replay it here.
 * Rendered per request (it reads the query, the view of a local replay): pages carry the
 * per-request CSP nonce, which a prerendered page could not.
 */
export default async function ImportPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <ImportRoot view={viewFromSearchParams(await searchParams)} />;
}
