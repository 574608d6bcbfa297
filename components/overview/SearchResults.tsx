'use client';
/**
 * A search's results: the total, then the hits a page at a time in a virtualised list (only the
 * rows in sight are in the DOM); scrolling near the end asks the server for the next page.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { StateIcon } from '@/components/visual/StateIcon';
import type { Tone } from '@/components/visual/palette';
import type { PodHealth, SearchHit } from '@/lib/overview/wire';

const ROW = 30;
const HEIGHT = 240;
const OVERSCAN = 6;

export const HEALTH_TONE: Record<PodHealth, Tone> = {
  empty: 'done',
  ok: 'ok',
  pending: 'pending',
  warning: 'unknown',
  failing: 'failed',
};

export function SearchResults({
  total,
  hits,
  more,
  loading,
  onMore,
  onPick,
}: {
  total: number;
  hits: readonly SearchHit[];
  more: boolean;
  loading: boolean;
  onMore: () => void;
  onPick: (hit: SearchHit) => void;
}) {
  const t = useTranslations('ui.overview.results');
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const last = Math.min(hits.length, Math.ceil((top + HEIGHT) / ROW) + OVERSCAN);
  return (
    <section
      className="ps-results"
      data-search-results=""
      data-count={total}
      aria-label={t('label')}
    >
      <h2 className="ps-side-title">{t('count', { count: total })}</h2>
      {hits.length > 0 ? (
        <div
          className="ps-results-scroll"
          style={{ height: Math.min(HEIGHT, hits.length * ROW) }}
          onScroll={(e) => {
            const el = e.currentTarget;
            setTop(el.scrollTop);
            if (more && !loading && el.scrollTop + el.clientHeight > el.scrollHeight - ROW * 10)
              onMore();
          }}
        >
          <ul style={{ height: hits.length * ROW, position: 'relative' }} aria-rowcount={total}>
            {hits.slice(first, last).map((h, j) => (
              <li
                key={`${h.uid ?? h.node}-${first + j}`}
                style={{
                  position: 'absolute',
                  top: (first + j) * ROW,
                  height: ROW,
                  left: 0,
                  right: 0,
                }}
              >
                <button
                  type="button"
                  className="ps-result"
                  onClick={() => onPick(h)}
                  data-hit={h.kind}
                >
                  <StateIcon tone={HEALTH_TONE[h.health]} size={12} />
                  <span className="ps-result-name">
                    {h.kind === 'pod' ? `${h.namespace ?? ''}/${h.pod ?? ''}` : h.node}
                  </span>
                  <span className="ps-result-meta">
                    {h.kind === 'pod' ? `${h.reason ?? h.phase ?? ''} · ${h.node}` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {more ? (
        <button type="button" className="ps-link-button" onClick={onMore} disabled={loading}>
          {t('more', { shown: hits.length, total })}
        </button>
      ) : null}
    </section>
  );
}
