'use client';
/**
 * The event log, linked both ways with the diagram: a row selects its entity and moves the
 * cursor to its moment; a selection narrows the log to that entity's events. Newest first;
 * rows after the cursor are the future (dimmed), the row at the cursor is marked.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TimelineEvent } from '@/lib/timeline/events';
import { useCluster } from '@/components/data/ClusterProvider';
import { LogFilters } from './LogFilters';
import { LogRow } from './LogRow';
import { LogOptions, PodNames, RowCache } from './indexes';
import './log.css';

/** Rows drawn around the cursor; the rest of a long buffer stays out of the DOM. */
const BEFORE = 250;
const AFTER = 60;

export function EventLog() {
  const t = useTranslations('ui.log');
  const {
    buffered,
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

  // Kept up to date rather than rebuilt per update (the same Map until pods come or go).
  const [podNames] = useState(() => new PodNames());
  const names = useMemo(
    () => podNames.get(buffered?.buffer.events ?? [], state),
    [podNames, buffered, state],
  );
  const [logOptions] = useState(() => new LogOptions());
  const options = useMemo(
    () => logOptions.get(buffered?.buffer.events ?? []),
    [logOptions, buffered],
  );
  // Only the filtered node's pods matter here, not every update elsewhere in the cluster.
  const filterNodePods = filter.node ? state.nodes[filter.node]?.pods : undefined;
  const pods = useMemo(
    () =>
      [...names.entries()]
        .filter(
          ([uid]) => !filter.node || Object.values(filterNodePods ?? {}).some((p) => p.uid === uid),
        )
        .sort((a, b) => a[1].localeCompare(b[1]))
        .slice(0, 500),
    [names, filter.node, filterNodePods],
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
  const currentSeq = visibleEvents[upTo - 1]?.seq;
  // Described once per window of rows, not per frame.
  const [rowCache] = useState(() => new RowCache());
  const rows = useMemo(
    () =>
      visibleEvents
        .slice(start, end)
        .reverse()
        .map((e) => ({ e, row: rowCache.get(e, names) })),
    [rowCache, visibleEvents, start, end, names],
  );
  // Rounded up, so an event of the last fraction of a second never reads "in 1s".
  const referenceSecond = Math.ceil(reference / 1000) * 1000;
  // A stable handler for the memoised rows; it always calls the current action.
  const pick = useRef(actions.focusEvent);
  useEffect(() => {
    pick.current = actions.focusEvent;
  }, [actions.focusEvent]);
  const onPick = useCallback((e: TimelineEvent, entity: string) => pick.current(e, entity), []);

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
          {rows.map(({ e, row }) => {
            const object = scopedToContainer
              ? undefined
              : filter.followSelection && selectionLayer === 'pod'
                ? (row.container ?? row.pod ?? row.node)
                : row.pod
                  ? row.container
                    ? `${row.pod} › ${row.container}`
                    : row.pod
                  : row.node;
            return (
              <LogRow
                key={e.seq}
                event={e}
                row={row}
                object={object}
                future={e.t > now}
                current={e.seq === currentSeq}
                selected={row.entity === selection}
                reference={referenceSecond}
                onPick={onPick}
              />
            );
          })}
        </ol>
      )}
    </section>
  );
}
