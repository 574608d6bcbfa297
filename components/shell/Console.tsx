'use client';
/**
 * The console's layout: header; the diagram in the centre with the legend above it; the
 * selected entity's panel on the right; the timeline along the bottom with the event log beside
 * it (and a Drift tab there when an API server is joined). On a phone the panels stack. Owns the
 * global keyboard map.
 */
import { useTranslations } from 'next-intl';
import { useEffect } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { Diagram } from '@/components/diagram/Diagram';
import { EntityPanel } from '@/components/panel/EntityPanel';
import { Timeline } from '@/components/timeline/Timeline';
import { Legend } from '@/components/visual/Legend';
import { BottomPane } from './BottomPane';
import { Header } from './Header';
import { StoreWarning } from './StoreWarning';
import { focusKind, keyAction } from './keys';
import './console.css';

export function Console() {
  const t = useTranslations('ui');
  const { actions, edge, status, live, sourceKind, historyError } = useCluster();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target instanceof Element ? e.target : null;
      const action = keyAction(e, focusKind(target));
      if (!action) return;
      e.preventDefault();
      switch (action) {
        case 'togglePlay':
          actions.togglePlay();
          break;
        case 'stepBack':
          actions.step(-1);
          break;
        case 'stepForward':
          actions.step(1);
          break;
        case 'start':
          actions.seek(edge.from);
          break;
        case 'live':
          actions.goLive();
          break;
        case 'clearSelection':
          actions.select(undefined);
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions, edge.from]);

  return (
    <div className="ps-console">
      <a className="ps-skip" href="#ps-panel">
        {t('skipToPanel')}
      </a>
      <Header />
      <main className="ps-stage">
        <Legend />
        {live && sourceKind === 'live' && status === 'offline' ? (
          <p className="ps-banner" role="status">
            {t('noServer.text')} <a href="?source=demo">{t('noServer.demo')}</a>
          </p>
        ) : null}
        <StoreWarning active={live && sourceKind === 'live'} />
        {historyError ? (
          <p className="ps-banner ps-banner-warn" role="status">
            {t('historyError', { error: historyError })}
          </p>
        ) : null}
        <Diagram />
      </main>
      <div id="ps-panel" className="ps-side">
        <EntityPanel />
      </div>
      <div className="ps-bottom">
        <Timeline />
        <BottomPane />
      </div>
    </div>
  );
}
