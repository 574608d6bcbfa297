'use client';
/**
 * The step's question: what to find, how to answer (click the diagram, or a state below), the
 * verdict announced to screen readers, and — once settled — the kubelet's explanation of the right
 * answer at that moment.
 */
import { useTranslations } from 'next-intl';
import type { ClusterState } from '@/lib/timeline/state';
import { resolveEntity } from '@/components/data/entity';
import { WhyText } from '@/components/panel/WhyText';
import type { Question } from './types';
import type { Pick, Verdict } from './answer';
import { explanations, type Because } from './explain';
import { QuestionMachine } from './QuestionMachine';

export interface Attempt {
  pick: Pick;
  verdict: Verdict;
}

/** The name the diagram shows for an entity. */
export function entityName(state: ClusterState, id: string): string {
  const e = resolveEntity(state, id);
  if (!e) return id;
  if (e.layer === 'container') return e.container.name;
  if (e.layer === 'pod') return `${e.pod.namespace}/${e.pod.name}`;
  return e.node.name;
}

function FocusLabel({ b }: { b: Because }) {
  const t = useTranslations('learn.walkthrough.page.focus');
  if (b.focus.startsWith('condition:'))
    return <>{t('condition', { condition: b.focus.slice('condition:'.length), name: b.name })}</>;
  const key =
    b.focus === 'lastRun' || b.focus === 'phase' || b.focus === 'eviction' || b.focus === 'drift'
      ? b.focus
      : 'state';
  return <>{t(key, { name: b.name })}</>;
}

export function QuestionCard({
  question,
  settled,
  attempts,
  state,
  onPick,
  onShow,
}: {
  question: Question;
  settled: 'right' | 'shown' | undefined;
  attempts: readonly Attempt[];
  /** The replayed state at the step's moment. */
  state: ClusterState;
  onPick: (pick: Pick) => void;
  onShow: () => void;
}) {
  const t = useTranslations('learn.walkthrough.page');
  const tl = useTranslations('learn');
  const last = attempts[attempts.length - 1];
  const answers =
    question.kind === 'entity'
      ? question.answers.map((id) => entityName(state, id))
      : [question.answer];
  const because = settled ? explanations(question, state) : [];
  const picked = attempts.flatMap((a) => (a.pick.kind === 'state' ? [a.pick.state] : []));
  let verdict: string | undefined;
  if (settled === 'right') verdict = t('right');
  else if (settled === 'shown') verdict = t('shown', { names: answers.join(', ') });
  else if (last && !last.verdict.right) {
    const p = last.pick;
    const detail =
      last.verdict.why === 'layer' && p.kind === 'entity' && question.kind === 'entity'
        ? t('wrongLayer', { picked: p.layer, wanted: question.layer })
        : p.kind === 'entity'
          ? t('youPicked', { name: entityName(state, p.id) })
          : '';
    verdict = `${t('wrong')} ${detail} ${tl(question.hint)}`.trim();
  }
  return (
    <section
      className={`ps-learn-question${settled ? ` is-${settled}` : ''}`}
      aria-labelledby="ps-learn-q"
      data-testid="question"
      data-question-kind={question.kind}
      data-settled={settled ?? 'open'}
    >
      <h3 id="ps-learn-q">
        <span className="ps-learn-q-label">{t('question')}</span>
        <span className="ps-learn-q-text">{tl(question.prompt)}</span>
      </h3>
      {!settled ? (
        <p className="ps-learn-how-to ps-muted">
          {question.kind === 'entity' ? t('howEntity') : t('howState')}
        </p>
      ) : null}
      {question.kind === 'state' ? (
        <QuestionMachine
          machine={question.machine}
          answer={question.answer}
          picked={picked}
          settled={settled !== undefined}
          onPick={(s) => onPick({ kind: 'state', state: s })}
        />
      ) : null}
      <div className="ps-learn-feedback" aria-live="polite" data-testid="feedback">
        {verdict ? (
          <p className={`ps-learn-verdict is-${settled ?? 'wrong'}`}>
            <span className="ps-learn-verdict-icon" aria-hidden="true">
              {settled === 'right' ? '✓' : settled === 'shown' ? '→' : '✗'}
            </span>
            {verdict}
          </p>
        ) : null}
        {because.length > 0 ? (
          <div className="ps-learn-because" data-testid="explanation">
            <h4>{t('because')}</h4>
            {because.map((b) => (
              <div key={`${b.entity}:${b.focus}`} className="ps-learn-because-item">
                <p className="ps-learn-because-label">
                  <FocusLabel b={b} />
                </p>
                <WhyText why={b.why} />
              </div>
            ))}
          </div>
        ) : null}
      </div>
      {!settled && attempts.length > 0 ? (
        <button type="button" className="ps-button ps-learn-show" onClick={onShow}>
          {t('showMe')}
        </button>
      ) : null}
    </section>
  );
}
