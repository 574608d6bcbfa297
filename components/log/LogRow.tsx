'use client';
/** One event in the log. Memoised: while playing, only rows whose flags change re-render. */
import { useLocale, useTranslations } from 'next-intl';
import { memo } from 'react';
import type { TimelineEvent } from '@/lib/timeline/events';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { StateIcon } from '@/components/visual/StateIcon';
import type { Row } from './describe';
import { sayPhrases, type Phrase } from './phrases';

export interface LogRowProps {
  event: TimelineEvent;
  row: Row;
  /** What the row names as its object; undefined hides the column (log scoped to one container). */
  object: string | undefined;
  future: boolean;
  current: boolean;
  selected: boolean;
  /** Whole seconds, so the relative time re-renders once a second at most. */
  reference: number;
  onPick: (e: TimelineEvent, entity: string) => void;
}

export const LogRow = memo(function LogRow({
  event: e,
  row,
  object,
  future,
  current,
  selected,
  reference,
  onPick,
}: LogRowProps) {
  const t = useTranslations('ui.log');
  const locale = useLocale();
  const say = (phrases: readonly Phrase[]) => sayPhrases(phrases, t, locale);
  return (
    <li
      data-seq={e.seq}
      data-t={e.t}
      data-kind={e.kind}
      data-entity={row.entity}
      className={`ps-log-row ps-tone-${row.tone}${future ? ' is-future' : ''}${current ? ' is-current' : ''}${selected ? ' is-selected' : ''}`}
    >
      <button
        type="button"
        onClick={() => onPick(e, row.entity)}
        aria-current={current ? 'step' : undefined}
      >
        <RelativeTime className="ps-log-time" t={e.t} reference={reference} narrow />
        <StateIcon tone={row.tone} size={11} />
        <span className={`ps-log-kind ps-kind-${e.kind}`} title={t(`kind.${e.kind}`)}>
          {t(`kindShort.${e.kind}`)}
        </span>
        {object === undefined ? null : (
          <span className="ps-log-object" title={`${row.node} · ${object}`}>
            {object}
          </span>
        )}
        <span className="ps-log-change">{row.change ?? (row.what ? say(row.what) : e.type)}</span>
        {row.reason ? <span className="ps-log-reason">{row.reason}</span> : null}
      </button>
    </li>
  );
});
