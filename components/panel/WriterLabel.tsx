'use client';
/**
 * Which upstream component writes a value (lib/kubelet/writers.ts): a small label beside the
 * value, e.g. "kubelet" or "node lifecycle controller", with the full sentence as its title.
 */
import { useTranslations } from 'next-intl';
import type { Explanation } from '@/lib/kubelet/explanation';
import { writerOf, type Writer } from '@/lib/kubelet/writers';

export function WriterLabel({
  why,
  writer,
}: {
  why?: Pick<Explanation, 'id'> | undefined;
  writer?: Writer;
}) {
  const t = useTranslations('ui.panel.writer');
  const w = writer ?? writerOf(why);
  if (!w) return null;
  return (
    <span className="ps-writer" data-writer={w} title={t('title', { writer: t(w) })}>
      {t(w)}
    </span>
  );
}
