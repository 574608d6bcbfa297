'use client';
/**
 * The bottom right of the console: the event log, and — once there is an API server to compare
 * with (a pod's spec came from it) or any drift at the cursor — a Drift tab beside it. Both read
 * the state at the cursor, so the drift list replays like everything else; a drift row selects
 * its entity. Without an API server there is no tab bar at all, only the log.
 */
import { useTranslations } from 'next-intl';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { DriftView } from '@/components/drift/DriftView';
import { driftRelevant, driftTotal } from '@/components/drift/rows';
import { EventLog } from '@/components/log/EventLog';

type Tab = 'log' | 'drift';
const TABS: readonly Tab[] = ['log', 'drift'];

export function BottomPane() {
  const t = useTranslations('ui');
  const { state, t: now, selection, actions } = useCluster();
  const [chosen, setChosen] = useState<Tab>('log');
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  const nodes = state.nodes;
  const relevant = useMemo(() => driftRelevant(nodes), [nodes]);
  const total = useMemo(() => driftTotal(nodes), [nodes]);

  if (!relevant) return <EventLog />;
  const tab = chosen;

  // Arrow keys move between the tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    const to =
      step !== 0
        ? TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length]
        : e.key === 'Home'
          ? TABS[0]
          : e.key === 'End'
            ? TABS[TABS.length - 1]
            : undefined;
    if (!to) return;
    e.preventDefault();
    setChosen(to);
    tabRefs.current[to]?.focus();
  };

  return (
    // A landmark of its own: the tab bar sits outside the log's and the drift list's.
    <section className="ps-bottom-pane has-tabs" aria-label={t('drift.tabsLabel')}>
      <div
        className="ps-bottom-tabs"
        role="tablist"
        aria-label={t('drift.tabsLabel')}
        onKeyDown={onKeyDown}
      >
        {TABS.map((id) => (
          <button
            key={id}
            ref={(el) => {
              tabRefs.current[id] = el;
            }}
            type="button"
            role="tab"
            id={`ps-bottom-tab-${id}`}
            className="ps-bottom-tab"
            aria-selected={tab === id}
            aria-controls="ps-bottom-tabpanel"
            tabIndex={tab === id ? 0 : -1}
            data-testid={`bottom-tab-${id}`}
            onClick={() => setChosen(id)}
          >
            {id === 'log' ? t('log.title') : t('drift.title')}
            {id === 'drift' && total > 0 ? (
              <>
                <span className="ps-bottom-tab-count" aria-hidden="true">
                  ≠{total}
                </span>
                <span className="ps-visually-hidden">{`, ${t('drift.count', { count: total })}`}</span>
              </>
            ) : null}
          </button>
        ))}
      </div>
      <div
        className="ps-bottom-tabpanel"
        id="ps-bottom-tabpanel"
        role="tabpanel"
        aria-labelledby={`ps-bottom-tab-${tab}`}
      >
        {tab === 'log' ? (
          <EventLog />
        ) : (
          <DriftView nodes={nodes} now={now} selected={selection} onSelect={actions.select} />
        )}
      </div>
    </section>
  );
}
