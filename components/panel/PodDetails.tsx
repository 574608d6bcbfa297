'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import {
  containerDataId,
  containerReason,
  containerTone,
  podContainers,
  podTone,
  timeOf,
  type EntityRef,
} from '@/components/data/entity';
import { formatDuration } from '@/components/visual/duration';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { StateIcon } from '@/components/visual/StateIcon';
import { Conditions } from './Conditions';
import { DriftList } from './DriftList';
import { PANEL_MACHINE_OF } from './machines';
import { PanelHeader } from './PanelHeader';
import { PodResources } from './Resources';
import { StateMachine } from './StateMachine';
import { StatusJson } from './StatusJson';
import { useLastTransition } from './use-transition';
import { WhyText } from './WhyText';
import { WriterLabel } from './WriterLabel';

export function PodDetails({ entity }: { entity: Extract<EntityRef, { layer: 'pod' }> }) {
  const t = useTranslations('ui.panel');
  const locale = useLocale();
  const { actions, t: now, reference } = useCluster();
  const { pod, node } = entity;
  const phase = pod.status.phase ?? 'Pending';
  const transition = useLastTransition(entity.id, 'pod');
  const inferred = pod.specSource === 'inferred';
  const start = timeOf(pod.status.startTime);
  return (
    <article className="ps-details" data-panel-layer="pod" data-panel-id={entity.id}>
      <PanelHeader
        layer="pod"
        title={`${pod.namespace}/${pod.name}`}
        subtitle={
          pod.status.podIP
            ? t('podOn', { node: node.name, ip: pod.status.podIP })
            : t('podOnNode', { node: node.name })
        }
        state={phase}
        tone={podTone(pod)}
        crumbs={[{ id: node.name, label: node.name }]}
        onSelect={actions.select}
        onClose={() => actions.select(undefined)}
      />
      <section className="ps-section" aria-label={t('why')}>
        <WhyText why={pod.why.phase} prominent />
      </section>
      {pod.evictionDueAt !== undefined ? (
        <p className="ps-alert" role="status">
          {pod.evictionDueAt > now
            ? t('evictionIn', { duration: formatDuration(pod.evictionDueAt - now, locale) })
            : t('evictionDue')}
          <WriterLabel writer="taintEvictionController" />
        </p>
      ) : null}
      {pod.deletionTimestamp !== undefined ? <p className="ps-alert">{t('deleting')}</p> : null}
      {pod.spec.unsupported && pod.spec.unsupported.length > 0 ? (
        <p className="ps-alert" role="status" data-unsupported={pod.spec.unsupported.join(' ')}>
          {t('unsupported', { fields: pod.spec.unsupported.join(', ') })}
        </p>
      ) : null}
      <dl className="ps-facts">
        <div>
          <dt>{t('specSource')}</dt>
          <dd>
            <span
              className={`ps-source ps-source-${pod.specSource}`}
              data-spec-source={pod.specSource}
            >
              {t(`source.${pod.specSource}`)}
            </span>
          </dd>
        </div>
        {pod.spec.probes ? (
          <div>
            <dt>{t('probes')}</dt>
            <dd data-probes>
              {Object.entries(pod.spec.probes)
                .map(([name, list]) => `${name}: ${list.map((p) => `${p}Probe`).join(', ')}`)
                .join(' · ')}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t('restartPolicy')}</dt>
          <dd>
            {pod.spec.restartPolicy}
            {inferred ? (
              <span className="ps-inferred" title={t('inferredHint')}>
                {t('inferred')}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>{t('qos')}</dt>
          <dd>{pod.status.qosClass ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('started')}</dt>
          <dd>{start !== undefined ? <RelativeTime t={start} reference={reference} /> : '—'}</dd>
        </div>
      </dl>
      <section className="ps-section">
        <h3>{t('containers')}</h3>
        <ul className="ps-entity-list">
          {podContainers(pod).map((c) => {
            const tone = containerTone(c.status);
            const reason = containerReason(c.status);
            return (
              <li key={c.name}>
                <button
                  type="button"
                  className="ps-entity-row"
                  onClick={() => actions.select(containerDataId(pod.uid, c.name))}
                >
                  <StateIcon tone={tone} size={12} />
                  <span className="ps-entity-name">{c.name}</span>
                  <span className="ps-muted">
                    {c.sidecar
                      ? t('containerKind.sidecar')
                      : c.list === 'init'
                        ? t('containerKind.init')
                        : ''}
                    {reason ? ` ${reason}` : ''}
                    {inferred && c.list === 'init' ? ` ${t('inferred')}` : ''}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>
      <PodResources pod={pod} node={node} reference={reference} />
      <Conditions
        conditions={pod.status.conditions ?? []}
        why={pod.why.conditions}
        reference={reference}
        kind="pod"
      />
      {pod.drift && pod.drift.length > 0 ? <DriftList drift={pod.drift} /> : null}
      <StateMachine
        machine={PANEL_MACHINE_OF.pod}
        current={phase}
        transition={transition}
        title={t('machine.pod')}
      />
      <StatusJson value={pod.status} title={t('statusOf', { name: pod.name })} />
    </article>
  );
}
