'use client';
/** Conditions as kubectl lists them, each with its reason, when it last changed and why. */
import { useTranslations } from 'next-intl';
import type { V1NodeCondition, V1PodCondition } from '@kubernetes/client-node';
import type { Explanation } from '@/lib/kubelet/explanation';
import { conditionTone, timeOf } from '@/components/data/entity';
import { StateIcon } from '@/components/visual/StateIcon';
import { RelativeTime } from '@/components/visual/RelativeTime';
import { useWhy } from './WhyText';
import { WriterLabel } from './WriterLabel';

export function Conditions({
  conditions,
  why,
  reference,
  kind,
}: {
  conditions: readonly (V1PodCondition | V1NodeCondition)[];
  why: Readonly<Record<string, Explanation>>;
  reference: number;
  kind: 'pod' | 'node';
}) {
  const t = useTranslations('ui.panel');
  const render = useWhy();
  return (
    <table className="ps-conditions">
      <caption>{t('conditions')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('conditionType')}</th>
          <th scope="col">{t('conditionStatus')}</th>
          <th scope="col">{t('conditionSince')}</th>
        </tr>
      </thead>
      <tbody>
        {conditions.map((c) => {
          // Pod conditions are all "good when True"; node pressure conditions are good when False.
          const tone =
            kind === 'pod'
              ? c.status === 'True'
                ? 'ok'
                : c.status === 'False'
                  ? 'failed'
                  : 'unknown'
              : conditionTone(c);
          const explanation = render(why[c.type]);
          return (
            <tr key={c.type} data-condition={c.type} data-status={c.status}>
              <th scope="row">
                {c.type}
                {c.reason ? <span className="ps-muted"> {c.reason}</span> : null}
                {explanation ? <span className="ps-condition-why">{explanation}</span> : null}
              </th>
              <td>
                <span className={`ps-status ps-tone-${tone}`}>
                  <StateIcon tone={tone} size={11} />
                  {c.status}
                </span>
                <WriterLabel why={why[c.type]} />
              </td>
              <td>
                {timeOf(c.lastTransitionTime) !== undefined ? (
                  <RelativeTime
                    t={timeOf(c.lastTransitionTime) ?? 0}
                    reference={reference}
                    narrow
                  />
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
