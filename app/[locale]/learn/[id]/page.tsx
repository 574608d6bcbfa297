import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Walkthrough } from '@/components/learn/Walkthrough';

/** /learn/<id>?step=N: one walkthrough, each step with its own link. */
const ID = /^[a-z][a-z0-9-]{0,63}$/;

export async function generateMetadata({
  params,
}: {
  params: Promise<{ locale: string; id: string }>;
}): Promise<Metadata> {
  const { locale, id } = await params;
  const t = await getTranslations({ locale, namespace: 'learn' });
  const app = await getTranslations({ locale, namespace: 'ui.app' });
  const key = `scenarios.${id}.title`;
  return { title: ID.test(id) && t.has(key) ? `${t(key)} · ${app('title')}` : app('title') };
}

export default async function WalkthroughPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  if (!ID.test(id)) notFound();
  const raw = (await searchParams).step;
  const step = Number(Array.isArray(raw) ? raw[0] : raw);
  return <Walkthrough id={id} {...(Number.isInteger(step) && step >= 1 ? { step } : {})} />;
}
