import { setRequestLocale } from 'next-intl/server';
import { ConsoleRoot } from '@/components/shell/ConsoleRoot';
import { parseView } from '@/components/data/url-state';

/**
 * The console. The view (selection, cursor time, filters, speed, source) comes from the URL so a
 * copied link reopens exactly that view; everything else happens in the browser.
 */
export default async function ConsolePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) {
    if (typeof v === 'string') query.set(k, v);
    else if (Array.isArray(v) && v[0] !== undefined) query.set(k, v[0]);
  }
  return <ConsoleRoot view={parseView(query)} />;
}
