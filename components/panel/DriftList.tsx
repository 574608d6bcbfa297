'use client';
/** Where the API server and the runtime disagree about this entity (lib/drift), with why. */
import { useTranslations } from 'next-intl';
import type { Drift } from '@/lib/drift/types';
import { useCluster } from '@/components/data/ClusterProvider';
import { paramsAt } from '@/components/drift/rows';
import { useWhy } from './WhyText';

export function DriftList({ drift }: { drift: readonly Drift[] }) {
  const t = useTranslations('ui.drift');
  const render = useWhy();
  // "N s ago" as of the moment shown, not as recorded (as in the drift view).
  const { t: now } = useCluster();
  return (
    <section
      className="ps-section ps-drift-list"
      data-testid="drift-list"
      aria-label={t('panelLabel')}
    >
      <h3>
        {t('title')} <span className="ps-muted">{t('count', { count: drift.length })}</span>
      </h3>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('columns.field')}</th>
            <th scope="col">{t('columns.api')}</th>
            <th scope="col">{t('columns.runtime')}</th>
            <th scope="col">{t('columns.status')}</th>
          </tr>
        </thead>
        <tbody>
          {drift.map((d) => (
            <tr key={`${d.kind}|${d.field}|${d.container ?? ''}`} data-drift={d.kind}>
              <th scope="row">
                <code>{d.field}</code>
                <span className="ps-condition-why">
                  {render({ ...d.why, params: paramsAt(d, now) }) ?? t(`kinds.${d.kind}`)}
                </span>
              </th>
              <td>{d.api === null ? t('none') : String(d.api)}</td>
              <td>{d.runtime === null ? t('none') : String(d.runtime)}</td>
              <td>{t(`status.${d.status}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
