import { setRequestLocale } from 'next-intl/server';
import { ConsoleRoot } from '@/components/shell/ConsoleRoot';
import { anchorDemo } from '@/components/data/demo-source';
import { viewFromSearchParams } from '@/components/data/url-state';

/**
 * The console. The view (selection, cursor time, filters, speed, source) comes from the URL so a
 * copied link reopens exactly that view; everything else happens in the browser.
 */
/**
 * The demo's world starts from the server's clock at request time; the URL then keeps that
 * start. A server component renders once per request, so reading the clock here is stable.
 */
function requestTime(): number {
  return Date.now();
}

export default async function ConsolePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <ConsoleRoot view={anchorDemo(viewFromSearchParams(await searchParams), requestTime())} />;
}
