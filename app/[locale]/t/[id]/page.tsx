import { notFound } from 'next/navigation';
import { setRequestLocale } from 'next-intl/server';
import { parseView } from '@/components/data/url-state';
import { SharedTimelineRoot } from '@/components/incident/SharedTimelineRoot';

/**
 * A saved timeline, read-only, at a moment: `/<locale>/t/<id>?at=<time>&sel=<entity>`. The
 * timeline is loaded and replayed in the browser; the view (moment, selection, filters) comes
 * from the URL like the console's, so a copied link reopens exactly that view.
 */
export default async function SharedTimelinePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) notFound();
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) {
    if (typeof v === 'string') query.set(k, v);
    else if (Array.isArray(v) && v[0] !== undefined) query.set(k, v[0]);
  }
  return <SharedTimelineRoot id={id} view={parseView(query)} />;
}
