'use client';
import { useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import {
  containerReadiness,
  containerReason,
  containerState,
  containerTone,
  nextRestartOf,
  timeOf,
  type EntityRef,
} from '@/components/data/entity';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { BackoffTimer } from './BackoffTimer';
import { DriftList } from './DriftList';
import { PANEL_MACHINE_OF } from './machines';
import { PanelHeader } from './PanelHeader';
import { StateMachine } from './StateMachine';
import { StatusJson } from './StatusJson';
import { drawnContainerState } from './transitions';
import { useLastTransition } from './use-transition';
import { WhyText } from './WhyText';

export function ContainerDetails({
  entity,
}: {
  entity: Extract<EntityRef, { layer: 'container' }>;
}) {
  const t = useTranslations('ui.panel');
  const { actions, t: now, reference } = useCluster();
  const { pod, node, container } = entity;
  const s = container.status;
  const state = containerState(s);
  const readiness = containerReadiness(s);
  const reason = containerReason(s);
  const last = s?.lastState?.terminated;
  const due = nextRestartOf(pod, container.name, s);
  const transition = useLastTransition(entity.id, 'container');
  const kind = container.sidecar ? 'sidecar' : container.list === 'init' ? 'init' : 'app';
  const phase = pod.status.phase ?? 'Pending';
  // The pod's drift about this container (a drift row for a container selects it).
  const drift = (pod.drift ?? []).filter((d) => d.container === container.name);
  return (
    <article className="ps-details" data-panel-layer="container" data-panel-id={entity.id}>
      <PanelHeader
        layer="container"
        title={container.name}
        subtitle={`${t(`containerKind.${kind}`)} · ${s?.image ?? '—'}`}
        state={reason ? `${t(`state.${state}`)} · ${reason}` : t(`state.${state}`)}
        tone={containerTone(s)}
        crumbs={[
          { id: node.name, label: node.name },
          { id: pod.uid, label: `${pod.namespace}/${pod.name}` },
        ]}
        onSelect={actions.select}
        onClose={() => actions.select(undefined)}
      />
      <section className="ps-section" aria-label={t('why')}>
        <WhyText why={pod.why.containers[container.name]} prominent />
      </section>
      {due !== undefined ? (
        <BackoffTimer due={due} since={timeOf(last?.finishedAt)} now={now} />
      ) : null}
      <dl className="ps-facts">
        <div>
          <dt>{t('restartCount')}</dt>
          <dd data-testid="restart-count">{s?.restartCount ?? 0}</dd>
        </div>
        <div className="ps-fact-wide2">
          <dt>{t('lastExit')}</dt>
          <dd data-testid="last-exit">
            {last ? (
              <>
                {t('exitCode', { code: last.exitCode })}
                {last.reason ? ` · ${last.reason}` : ''}
                {timeOf(last.finishedAt) !== undefined ? (
                  <>
                    {' · '}
                    <RelativeTime t={timeOf(last.finishedAt) ?? 0} reference={reference} />
                  </>
                ) : null}
              </>
            ) : (
              t('none')
            )}
          </dd>
        </div>
      </dl>
      <section className="ps-section ps-pod-why" aria-label={t('podPhaseWhy', { phase })}>
        <h3>
          {state !== 'running' && phase === 'Running'
            ? t('stillRunning')
            : t('podPhaseWhy', { phase })}
        </h3>
        <WhyText why={pod.why.phase} showRule={false} />
      </section>
      <StateMachine
        machine={PANEL_MACHINE_OF.container}
        current={drawnContainerState(s)}
        readiness={readiness === 'ready' ? undefined : readiness}
        transition={transition}
        title={t('machine.container')}
      />
      {drift.length > 0 ? <DriftList drift={drift} /> : null}
      {s ? <StatusJson value={s} title={t('statusOf', { name: container.name })} /> : null}
    </article>
  );
}
