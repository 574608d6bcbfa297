'use client';
import { useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import { nodeTone, podNeedsAttention, podTone, type EntityRef } from '@/components/data/entity';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { StateIcon } from '@/components/visual/StateIcon';
import { Conditions } from './Conditions';
import { DriftList } from './DriftList';
import { KubeletVersionFact } from './KubeletVersion';
import { PANEL_MACHINE_OF } from './machines';
import { PanelHeader } from './PanelHeader';
import { NodeResources, RuntimeConditions } from './Resources';
import { StateMachine } from './StateMachine';
import { StatusJson } from './StatusJson';
import { useLastTransition } from './use-transition';
import { WhyText } from './WhyText';

export function NodeDetails({ entity }: { entity: Extract<EntityRef, { layer: 'node' }> }) {
  const t = useTranslations('ui.panel');
  const { actions, reference } = useCluster();
  const { node } = entity;
  const ready = node.conditions.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  const transition = useLastTransition(entity.id, 'node');
  const pods = Object.values(node.pods).sort(
    (a, b) =>
      Number(podNeedsAttention(b)) - Number(podNeedsAttention(a)) || a.name.localeCompare(b.name),
  );
  const h = node.health;
  return (
    <article className="ps-details" data-panel-layer="node" data-panel-id={entity.id}>
      <PanelHeader
        layer="node"
        title={node.name}
        subtitle={
          node.runtime
            ? `${node.endpoint} · ${node.runtime.name} ${node.runtime.version}`
            : node.endpoint
        }
        state={`Ready=${ready}`}
        tone={nodeTone(node)}
        crumbs={[]}
        onSelect={actions.select}
        onClose={() => actions.select(undefined)}
      />
      <section className="ps-section" aria-label={t('why')}>
        <WhyText why={node.why.Ready} prominent />
      </section>
      <dl className="ps-facts">
        <div>
          <dt>{t('connection')}</dt>
          <dd>{h.connected ? t('connected') : t('disconnected')}</dd>
        </div>
        <div>
          <dt>{t('lastRelist')}</dt>
          <dd>
            {h.lastRelistAt !== undefined ? (
              <RelativeTime t={h.lastRelistAt} reference={reference} />
            ) : (
              '—'
            )}
          </dd>
        </div>
        {h.lastError ? (
          <div className="ps-fact-wide">
            <dt>{t('lastError')}</dt>
            <dd>
              <code>{h.lastError}</code>
            </dd>
          </div>
        ) : null}
        <KubeletVersionFact version={node.kubelet} />
        <div className="ps-fact-wide">
          <dt>{t('runtimeConditions')}</dt>
          <dd>
            <RuntimeConditions conditions={node.runtimeConditions} />
          </dd>
        </div>
      </dl>
      <Conditions conditions={node.conditions} why={node.why} reference={reference} kind="node" />
      <NodeResources node={node} reference={reference} />
      {node.drift && node.drift.length > 0 ? <DriftList drift={node.drift} /> : null}
      <StateMachine
        machine={PANEL_MACHINE_OF.node}
        current={ready}
        transition={transition}
        title={t('machine.node')}
      />
      <section className="ps-section">
        <h3>{t('podsOnNode', { count: pods.length })}</h3>
        <ul className="ps-entity-list">
          {pods.map((p) => (
            <li key={p.uid}>
              <button type="button" className="ps-entity-row" onClick={() => actions.select(p.uid)}>
                <StateIcon tone={podTone(p)} size={12} />
                <span className="ps-entity-name">{`${p.namespace}/${p.name}`}</span>
                <span className="ps-muted">{p.status.phase}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <StatusJson
        value={{
          conditions: node.conditions,
          runtime: node.runtime,
          runtimeConditions: node.runtimeConditions,
          ...(node.kubelet ? { kubelet: node.kubelet } : {}),
          ...(node.usage ? { usage: node.usage } : {}),
        }}
        title={t('statusOf', { name: node.name })}
      />
    </article>
  );
}
