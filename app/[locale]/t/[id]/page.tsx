import { notFound } from 'next/navigation';
import { setRequestLocale } from 'next-intl/server';
import { viewFromSearchParams } from '@/components/data/url-state';
import { SharedTimelineRoot } from '@/components/incident/SharedTimelineRoot';
import { getRuntime } from '@/server/runtime';

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
  // An unknown id is a 404 page (issue 17), not a page that fails later in the browser.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id) || !(await (await getRuntime()).timelines.exists(id)))
    notFound();
  return <SharedTimelineRoot id={id} view={viewFromSearchParams(await searchParams)} />;
}
