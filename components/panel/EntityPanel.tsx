'use client';
/** The right-hand panel: the selected node, pod or container — or where to start. */
import { useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import { resolveEntity } from '@/components/data/entity';
import { ContainerDetails } from './ContainerDetails';
import { NodeDetails } from './NodeDetails';
import { PodDetails } from './PodDetails';
import { StartHere } from './StartHere';
import './panel.css';

export function EntityPanel() {
  const t = useTranslations('ui.panel');
  const { state, selection, actions } = useCluster();
  const entity = selection ? resolveEntity(state, selection) : undefined;
  let body;
  if (!selection) body = <StartHere />;
  else if (!entity)
    body = (
      <article className="ps-details">
        <p>{t('gone')}</p>
        <button type="button" className="ps-button" onClick={() => actions.select(undefined)}>
          {t('close')}
        </button>
      </article>
    );
  else if (entity.layer === 'container') body = <ContainerDetails entity={entity} />;
  else if (entity.layer === 'pod') body = <PodDetails entity={entity} />;
  else body = <NodeDetails entity={entity} />;
  return (
    <aside className="ps-panel" aria-label={t('label')}>
      {body}
    </aside>
  );
}
