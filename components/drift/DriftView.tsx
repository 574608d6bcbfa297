'use client';
/**
 * Every place the API server and the runtime disagree, across the cluster: what each side says,
 * since when, and why (the drift's Explanation, in the reader's language). Filter by kind;
 * changes still propagating to the API server are hidden unless asked for. A row's object
 * selects that entity in the console when `onSelect` is given.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { isDriftKind, type Drift, type DriftValue } from '@/lib/drift/types';
import { formatExplanation } from '@/lib/i18n/format';
import { isLocale } from '@/lib/i18n/locales';
import type { NodeView } from '@/lib/timeline/state';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { DEFAULT_FILTER, driftRows, kindCounts, paramsAt, type DriftFilter } from './rows';
import './drift.css';

export interface DriftViewProps {
  /** ClusterState.nodes at the moment shown. */
  nodes: Readonly<Record<string, NodeView>>;
  /** The moment shown (the console's cursor), for ages and lags. */
  now: number;
  initialFilter?: Partial<DriftFilter>;
  onSelect?: (entityId: string) => void;
  /** The console's selection, marked on the rows that select it. */
  selected?: string | undefined;
}

export function DriftView({ nodes, now, initialFilter, onSelect, selected }: DriftViewProps) {
  const t = useTranslations('ui.drift');
  const locale = useLocale();
  const [filter, setFilter] = useState<DriftFilter>({ ...DEFAULT_FILTER, ...initialFilter });
  const counts = useMemo(
    () => kindCounts(nodes, filter.includePropagating),
    [nodes, filter.includePropagating],
  );
  const rows = useMemo(() => driftRows(nodes, filter), [nodes, filter]);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const kinds = [...counts.keys()];
  if (filter.kind !== 'all' && !counts.has(filter.kind)) kinds.push(filter.kind);

  const explain = (d: Drift): string => {
    const text = formatExplanation(
      { ...d.why, params: paramsAt(d, now) },
      isLocale(locale) ? locale : 'en',
    );
    return text === `why.${d.why.id}` ? d.why.id : text;
  };

  const value = (v: DriftValue) => {
    if (v === null) return <span className="ps-drift-value-none">{t('none')}</span>;
    // The kubelet check's runtime side says whether the runtime still answers Podscope.
    if (typeof v === 'boolean') return <span>{t(v ? 'reachable' : 'unreachable')}</span>;
    return <code>{String(v)}</code>;
  };

  return (
    <section className="ps-drift" data-testid="drift-view" aria-labelledby="ps-drift-title">
      <header className="ps-drift-header">
        <h2 id="ps-drift-title">{t('title')}</h2>
        <span className="ps-drift-count">{t('count', { count: total })}</span>
        <label className="ps-check">
          <span>{t('filter')}</span>
          <select
            value={filter.kind}
            onChange={(e) => {
              const kind = e.target.value;
              setFilter((f) => ({ ...f, kind: isDriftKind(kind) ? kind : 'all' }));
            }}
          >
            <option value="all">{t('allKinds')}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {`${t(`kinds.${k}`)} (${counts.get(k) ?? 0})`}
              </option>
            ))}
          </select>
        </label>
        <label className="ps-check">
          <input
            type="checkbox"
            checked={filter.includePropagating}
            onChange={(e) => {
              const includePropagating = e.target.checked;
              setFilter((f) => ({ ...f, includePropagating }));
            }}
          />
          <span>{t('showPropagating')}</span>
        </label>
      </header>
      {rows.length === 0 ? (
        <p className="ps-drift-empty">
          {total === 0 && filter.kind === 'all' ? t('empty') : t('emptyFiltered')}
        </p>
      ) : (
        <div className="ps-drift-scroll">
          <table className="ps-drift-table" aria-describedby="ps-drift-title">
            <caption className="ps-visually-hidden">{t('description')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.object')}</th>
                <th scope="col">{t('columns.field')}</th>
                <th scope="col">{t('columns.api')}</th>
                <th scope="col">{t('columns.runtime')}</th>
                <th scope="col">{t('columns.why')}</th>
                <th scope="col">{t('columns.age')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ key, drift: d, entityId, entityLabel }) => (
                <tr
                  key={key}
                  className={`ps-drift-row${entityId === selected ? ' is-selected' : ''}`}
                  data-drift-kind={d.kind}
                  data-drift-status={d.status}
                  data-entity={entityId}
                >
                  <td data-label={t('columns.object')}>
                    {onSelect ? (
                      <button
                        type="button"
                        className="ps-drift-entity"
                        aria-pressed={entityId === selected}
                        onClick={() => onSelect(entityId)}
                      >
                        {entityLabel}
                      </button>
                    ) : (
                      <span>{entityLabel}</span>
                    )}
                    <span className="ps-drift-kind">{t(`kinds.${d.kind}`)}</span>
                    <span className="ps-drift-status">{t(`status.${d.status}`)}</span>
                  </td>
                  <td data-label={t('columns.field')}>
                    <code>{d.field}</code>
                  </td>
                  <td data-label={t('columns.api')}>{value(d.api)}</td>
                  <td data-label={t('columns.runtime')}>{value(d.runtime)}</td>
                  <td data-label={t('columns.why')} className="ps-drift-why">
                    {explain(d)}
                  </td>
                  <td data-label={t('columns.age')}>
                    {d.since !== undefined ? <RelativeTime t={d.since} reference={now} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
