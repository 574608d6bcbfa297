'use client';
/**
 * A small mark on anything whose API-server status disagrees with the runtime: the count of
 * drifts, with an accessible name that says what it means. Changes still propagating are shown
 * muted (dashed) and only when there is no real drift; nothing at all when both sides agree.
 */
import { useTranslations } from 'next-intl';
import type { Drift } from '@/lib/drift/types';
import { badgeCounts } from './rows';
import './drift.css';

export function DriftBadge({
  drift,
  entity,
  className,
}: {
  drift: readonly Drift[] | undefined;
  /** The entity's name as the reader knows it (node name, pod name, container name). */
  entity: string;
  className?: string;
}) {
  const t = useTranslations('ui.drift.badge');
  const counts = badgeCounts(drift);
  if (counts.drift === 0 && counts.propagating === 0) return null;
  const propagatingOnly = counts.drift === 0;
  const count = propagatingOnly ? counts.propagating : counts.drift;
  const label = t(propagatingOnly ? 'propagatingLabel' : 'driftLabel', { entity, count });
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={['ps-drift-badge', propagatingOnly ? 'is-propagating' : '', className ?? '']
        .filter(Boolean)
        .join(' ')}
      data-drift-count={count}
      data-drift-status={propagatingOnly ? 'propagating' : 'drift'}
    >
      <span aria-hidden="true">≠</span>
      <span aria-hidden="true">{count}</span>
    </span>
  );
}
