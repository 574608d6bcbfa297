'use client';
/**
 * A warning while the server cannot write its timeline (disk full, a broken file …). The engine
 * then holds new events in memory and sends them to browsers only once they are stored, so a
 * live console would otherwise look merely quiet. Asked every few seconds while live.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useTRPC } from '@/trpc/react';

const POLL_MS = 5_000;

export function StoreWarning({ active }: { active: boolean }) {
  const t = useTranslations('ui');
  const trpc = useTRPC();
  // A failed ask keeps the last answer: the connection status in the header already says when
  // the server cannot be reached.
  const { data: health } = useQuery({
    ...trpc.cluster.health.queryOptions(),
    enabled: active,
    staleTime: 0,
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: true,
  });
  const trouble = health?.storeError
    ? { error: health.storeError, held: health.heldEvents }
    : undefined;
  // Replaying a recording (or the demo) says nothing about the server's store now.
  if (!active || !trouble) return null;
  return (
    <p className="ps-banner ps-banner-warn" role="alert" data-testid="store-warning">
      {t('storeFailing', { error: trouble.error, held: trouble.held })}
    </p>
  );
}
