'use client';
/**
 * The event log, linked both ways with the diagram: a row selects its entity and moves the
 * cursor to its moment; a selection narrows the log to that entity's events. Newest first;
 * rows after the cursor are the future (dimmed), the row at the cursor is marked.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useRef } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { StateIcon } from '@/components/visual/StateIcon';
import { describeEvent, podNameIndex } from './describe';
import { filterOptions } from './filter';
import { LogFilters } from './LogFilters';
import './log.css';

/** Rows drawn around the cursor; the rest of a long buffer stays out of the DOM. */
const BEFORE = 250;
const AFTER = 60;

export function EventLog() {
  const t = useTranslations('ui.log');
  const {
    buffer,
    version,
    state,
    visibleEvents,
    filter,
    selection,
    selectionLayer,
    actions,
    t: now,
    reference,
  } = useCluster();
  // Scoped to one container, the object column would repeat the selection on every row.
  const scopedToContainer = filter.followSelection && selectionLayer === 'container';

  const names = useMemo(
    () =>
      podNameIndex(
        buffer?.events ?? [],
        Object.values(state.nodes).flatMap((n) => Object.values(n.pods)),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [buffer, version, state],
  );
  const options = useMemo(
    () => filterOptions(buffer?.events ?? []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [buffer, version],
  );
  const pods = useMemo(
    () =>
      [...names.entries()]
        .filter(
          ([uid]) =>
            !filter.node ||
            Object.values(state.nodes[filter.node]?.pods ?? {}).some((p) => p.uid === uid),
        )
        .sort((a, b) => a[1].localeCompare(b[1]))
        .slice(0, 500),
    [names, filter.node, state],
  );

  // How many visible events happened by the cursor (they are in seq order, times ascending).
  let lo = 0;
  let hi = visibleEvents.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((visibleEvents[mid]?.t ?? Infinity) <= now) lo = mid + 1;
    else hi = mid;
  }
  const upTo = lo;
  const start = Math.max(0, upTo - BEFORE);
  const end = Math.min(visibleEvents.length, upTo + AFTER);
  const rows = visibleEvents.slice(start, end).reverse();
  const currentSeq = visibleEvents[upTo - 1]?.seq;

  const listRef = useRef<HTMLOListElement | null>(null);
  useEffect(() => {
    if (currentSeq === undefined) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-seq="${currentSeq}"]`);
    const list = listRef.current;
    if (!row || !list) return;
    const r = row.getBoundingClientRect();
    const l = list.getBoundingClientRect();
    if (r.top < l.top || r.bottom > l.bottom) list.scrollTop += r.top - l.top - l.height / 3;
  }, [currentSeq]);

  return (
    <section className="ps-log" aria-label={t('label')}>
      <header className="ps-log-header">
        <h2>{t('title')}</h2>
        <LogFilters
          filter={filter}
          onChange={actions.setFilter}
          nodes={options.nodes}
          pods={pods}
          reasons={options.reasons}
          hasSelection={selection !== undefined}
          count={visibleEvents.length}
        />
      </header>
      {rows.length === 0 ? (
        <p className="ps-muted ps-log-empty">{t('empty')}</p>
      ) : (
        <ol
          className={`ps-log-rows${scopedToContainer ? ' is-scoped' : ''}`}
          ref={listRef}
          reversed
          start={end}
        >
          {rows.map((e) => {
            const row = describeEvent(e, (uid) => names.get(uid));
            const future = e.t > now;
            const current = e.seq === currentSeq;
            const object =
              filter.followSelection && selectionLayer === 'pod'
                ? (row.container ?? row.pod ?? row.node)
                : row.pod
                  ? row.container
                    ? `${row.pod} › ${row.container}`
                    : row.pod
                  : row.node;
            return (
              <li
                key={e.seq}
                data-seq={e.seq}
                data-t={e.t}
                data-kind={e.kind}
                data-entity={row.entity}
                className={`ps-log-row ps-tone-${row.tone}${future ? ' is-future' : ''}${current ? ' is-current' : ''}${row.entity === selection ? ' is-selected' : ''}`}
              >
                <button
                  type="button"
                  onClick={() => actions.focusEvent(e, row.entity)}
                  aria-current={current ? 'step' : undefined}
                >
                  <RelativeTime className="ps-log-time" t={e.t} reference={reference} narrow />
                  <StateIcon tone={row.tone} size={11} />
                  <span className={`ps-log-kind ps-kind-${e.kind}`} title={t(`kind.${e.kind}`)}>
                    {t(`kindShort.${e.kind}`)}
                  </span>
                  {scopedToContainer ? null : (
                    <span className="ps-log-object" title={`${row.node} · ${object}`}>
                      {object}
                    </span>
                  )}
                  <span className="ps-log-change">
                    {row.change ??
                      (row.what ? t(`what.${row.what.key}`, row.what.values ?? {}) : e.type)}
                  </span>
                  {row.reason ? <span className="ps-log-reason">{row.reason}</span> : null}
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
