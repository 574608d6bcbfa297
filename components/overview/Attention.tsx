'use client';
/**
 * What needs attention at cluster scale, from the server's aggregates: nodes by Ready, pods by
 * health, the reasons behind them (each opens a search), the worst problems first, and the
 * changes that happened together as one row each ("200 nodes lost contact, zone b, 13:02–13:03")
 * which open onto their members by applying the group's query.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { StateIcon } from '@/components/visual/StateIcon';
import type { AttentionItem, ChangeGroup } from '@/lib/overview/wire';
import type { OverviewSnapshot } from './store';
import { HEALTH_TONE } from './SearchResults';

/** "topology.kubernetes.io/zone=b" → "zone b". */
export function groupText(group: string | undefined): string | undefined {
  if (!group) return undefined;
  const eq = group.indexOf('=');
  const key = eq < 0 ? group : group.slice(0, eq);
  const value = eq < 0 ? '' : group.slice(eq + 1);
  const short = key.slice(key.lastIndexOf('/') + 1);
  return value ? `${short} ${value}` : short;
}

/** The message key of a change group's sentence. */
export function changeKey(c: Pick<ChangeGroup, 'what' | 'to'>): string {
  if (c.what === 'node.ready') {
    if (c.to === 'Unknown') return 'lostContact';
    if (c.to === 'False') return 'notReady';
    if (c.to === 'True') return 'ready';
  }
  if (c.what === 'node.gone') return 'gone';
  if (c.what.startsWith('pod.')) return 'pods';
  return 'other';
}

export function Attention({
  overview,
  onQuery,
  onPick,
}: {
  overview: OverviewSnapshot;
  onQuery: (q: string) => void;
  onPick: (item: AttentionItem) => void;
}) {
  const t = useTranslations('ui.overview.attention');
  const format = useFormatter();
  const a = overview.aggregates;
  const time = (ms: number) => format.dateTime(ms, { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="ps-attention">
      <section aria-labelledby="ps-att-counts">
        <h2 id="ps-att-counts" className="ps-side-title">
          {t('title')}
        </h2>
        <ul className="ps-att-counts">
          <li className="ps-tone-ok">
            <StateIcon tone="ok" size={12} /> {t('nodesReady', { count: a.nodesByReady.True })}
          </li>
          <li className="ps-tone-failed">
            <StateIcon tone="failed" size={12} />{' '}
            {t('nodesNotReady', { count: a.nodesByReady.False })}
          </li>
          <li className="ps-tone-unknown">
            <StateIcon tone="unknown" size={12} />{' '}
            {t('nodesUnknown', { count: a.nodesByReady.Unknown + a.nodesByReady[''] })}
          </li>
          <li className="ps-tone-failed">
            <StateIcon tone="failed" size={12} />{' '}
            {t('podsFailing', { count: a.podsByHealth.failing })}
          </li>
          <li className="ps-tone-unknown">
            <StateIcon tone="unknown" size={12} />{' '}
            {t('podsWarning', { count: a.podsByHealth.warning })}
          </li>
          <li className="ps-tone-pending">
            <StateIcon tone="pending" size={12} />{' '}
            {t('podsPending', { count: a.podsByHealth.pending })}
          </li>
        </ul>
      </section>
      {overview.changes.length > 0 ? (
        <section aria-labelledby="ps-att-changes">
          <h2 id="ps-att-changes" className="ps-side-title">
            {t('changes')}
          </h2>
          <ul className="ps-att-list">
            {overview.changes.map((c) => {
              const where = groupText(c.group);
              return (
                <li key={c.id}>
                  <button
                    type="button"
                    className="ps-att-row"
                    data-change={c.id}
                    onClick={() => onQuery(c.query)}
                  >
                    <span>
                      {t(`change.${changeKey(c)}`, { count: c.count, to: c.to, what: c.what })}
                      {where ? `, ${where}` : ''}
                    </span>
                    <span className="ps-att-meta">{`${time(c.from)}–${time(c.until)}`}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {a.reasons.length > 0 ? (
        <section aria-labelledby="ps-att-reasons">
          <h2 id="ps-att-reasons" className="ps-side-title">
            {t('reasons')}
          </h2>
          <ul className="ps-att-list">
            {a.reasons.slice(0, 8).map((r) => (
              <li key={r.reason}>
                <button
                  type="button"
                  className="ps-att-row"
                  onClick={() => onQuery(`reason:${r.reason}`)}
                >
                  <span className="ps-att-reason">{r.reason}</span>
                  <span className="ps-att-meta">
                    {t('reasonCounts', { pods: r.pods, nodes: r.nodes })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="ps-att-items">
        <h2 id="ps-att-items" className="ps-side-title">
          {t('items', { count: overview.attention.total })}
        </h2>
        {overview.attention.items.length === 0 ? <p className="ps-muted">{t('none')}</p> : null}
        <ul className="ps-att-list">
          {overview.attention.items.slice(0, 30).map((item, i) => (
            <li key={`${item.uid ?? item.node}-${i}`}>
              <button type="button" className="ps-att-row" onClick={() => onPick(item)}>
                <StateIcon tone={HEALTH_TONE[item.health]} size={12} />
                <span className="ps-result-name">
                  {item.kind === 'pod' ? `${item.namespace ?? ''}/${item.pod ?? ''}` : item.node}
                </span>
                <span className="ps-att-reason">{item.reason}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
