'use client';
import { useTranslations } from 'next-intl';
import { EVENT_KINDS, isEventKind, type LogFilter } from './filter';

export function LogFilters({
  filter,
  onChange,
  nodes,
  pods,
  reasons,
  hasSelection,
  count,
}: {
  filter: LogFilter;
  onChange: (f: LogFilter) => void;
  nodes: readonly string[];
  pods: readonly [string, string][];
  reasons: readonly string[];
  hasSelection: boolean;
  count: number;
}) {
  const t = useTranslations('ui.log');
  const set = <K extends keyof LogFilter>(key: K, value: LogFilter[K] | '') => {
    const next = { ...filter };
    if (value === '' || value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const active = Boolean(filter.node || filter.pod || filter.kind || filter.reason);
  return (
    <div className="ps-log-filters" role="group" aria-label={t('filters')}>
      <div className="ps-log-selects">
        <select
          aria-label={t('filterNode')}
          value={filter.node ?? ''}
          onChange={(e) => set('node', e.target.value)}
        >
          <option value="">{t('allNodes')}</option>
          {nodes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <select
          aria-label={t('filterPod')}
          value={filter.pod ?? ''}
          onChange={(e) => set('pod', e.target.value)}
        >
          <option value="">{t('allPods')}</option>
          {pods.map(([uid, name]) => (
            <option key={uid} value={uid}>
              {name}
            </option>
          ))}
        </select>
        <select
          aria-label={t('filterKind')}
          value={filter.kind ?? ''}
          onChange={(e) => set('kind', isEventKind(e.target.value) ? e.target.value : '')}
        >
          <option value="">{t('allKinds')}</option>
          {EVENT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`kind.${k}`)}
            </option>
          ))}
        </select>
        <select
          aria-label={t('filterReason')}
          value={filter.reason ?? ''}
          onChange={(e) => set('reason', e.target.value)}
        >
          <option value="">{t('allReasons')}</option>
          {reasons.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div className="ps-log-toggles">
        <label className={`ps-check${hasSelection ? '' : ' is-disabled'}`}>
          <input
            type="checkbox"
            checked={filter.followSelection}
            disabled={!hasSelection}
            onChange={(e) => onChange({ ...filter, followSelection: e.target.checked })}
          />
          {t('followSelection')}
        </label>
        <label className="ps-check" title={t('bookkeepingHint')}>
          <input
            type="checkbox"
            checked={filter.bookkeeping === true}
            onChange={(e) => {
              const next = { ...filter };
              if (e.target.checked) next.bookkeeping = true;
              else delete next.bookkeeping;
              onChange(next);
            }}
          />
          {t('bookkeeping')}
        </label>
        {active ? (
          <button
            type="button"
            className="ps-link"
            onClick={() =>
              onChange({
                followSelection: filter.followSelection,
                ...(filter.bookkeeping ? { bookkeeping: true } : {}),
              })
            }
          >
            {t('clear')}
          </button>
        ) : null}
        <span className="ps-muted ps-log-count" aria-live="polite">
          {t('count', { count })}
        </span>
      </div>
    </div>
  );
}
