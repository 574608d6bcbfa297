'use client';
/** The annotations of a saved timeline, in time order: each jumps to its moment and selects its entity. */
import { useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import { inertText, type TimelineAnnotation } from '@/lib/timeline/file';
import { entityLabel } from './period';
import { useMoment } from './use-moment';

export function AnnotationList({ annotations }: { annotations: readonly TimelineAnnotation[] }) {
  const t = useTranslations('incident.shared');
  const moment = useMoment();
  const { actions, state } = useCluster();
  if (annotations.length === 0) return <p className="ps-muted">{t('noAnnotations')}</p>;
  const jump = (a: TimelineAnnotation) => {
    actions.seek(a.t);
    if (a.entity) actions.select(a.entity);
  };
  return (
    <ol className="ps-inc-annotations" data-testid="annotation-list">
      {annotations.map((a, i) => (
        <li key={`${a.t}-${i}`}>
          <button
            type="button"
            className="ps-link"
            onClick={() => jump(a)}
            title={t('jump', { time: moment(a.t) })}
          >
            {moment(a.t)}
          </button>
          {a.entity ? (
            <span className="ps-inc-entity">
              {inertText(entityLabel(state, a.entity), { max: 120 })}
            </span>
          ) : null}
          {a.author ? <span className="ps-muted">{inertText(a.author, { max: 80 })}</span> : null}
          <p className="ps-inc-annotation-text" data-testid="annotation-text">
            {inertText(a.text, { multiline: true })}
          </p>
        </li>
      ))}
    </ol>
  );
}
