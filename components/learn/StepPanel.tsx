'use client';
/**
 * The walkthrough's left column: which scenario and step, the step's narration, what to look at,
 * then — once the replay reached the step's moment — its question; and the way on.
 */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import type { ClusterState } from '@/lib/timeline/state';
import type { Recording, RecordedStep } from './types';
import { entityName } from './QuestionCard';
import { StepNav } from './StepNav';
import type { Playback } from './use-step-playback';

export function StepPanel({
  recording,
  step,
  stateAtStep,
  lookAt,
  playback,
  from,
  passed,
  onGo,
  onSkip,
  onReplay,
  onNext,
  question,
}: {
  recording: Recording;
  step: RecordedStep;
  stateAtStep: ClusterState;
  /** What the diagram highlights (not the answer, while the question is open). */
  lookAt: readonly string[];
  playback: Playback;
  /** The moment the replay of this step starts from. */
  from: number;
  passed: ReadonlySet<number>;
  onGo: (index: number) => void;
  onSkip: () => void;
  onReplay: () => void;
  onNext: () => void;
  question: ReactNode;
}) {
  const t = useTranslations('learn.walkthrough.page');
  const tl = useTranslations('learn');
  const { t: now, speed, edge } = useCluster();
  const n = recording.steps.length;
  const to = Math.min(step.t, edge.to);
  const played = to > from ? Math.max(0, Math.min(1, (now - from) / (to - from))) : 1;
  const last = step.index === n - 1;
  const look = lookAt.map((id) => entityName(stateAtStep, id));
  return (
    <section
      className="ps-learn-step"
      aria-labelledby="ps-learn-step-title"
      data-step={step.index + 1}
    >
      <StepNav count={n} current={step.index} settled={passed} onGo={onGo} />
      <div className="ps-learn-stephead">
        <h2 id="ps-learn-step-title" className="ps-learn-stepof">
          {t('stepOf', { step: step.index + 1, of: n })}
        </h2>
        {playback === 'arrived' ? (
          <button type="button" className="ps-link ps-learn-replay" onClick={onReplay}>
            <span aria-hidden="true">↻ </span>
            {t('replay')}
          </button>
        ) : null}
      </div>
      {step.say ? (
        <p className="ps-learn-say" data-testid="narration">
          {tl(step.say)}
        </p>
      ) : null}
      {look.length > 0 ? (
        <p className="ps-learn-look">
          <span className="ps-learn-look-label">{t('lookAt')}</span>
          {look.map((name, i) => (
            <code key={`${name}:${i}`} className="ps-chip">
              {name}
            </code>
          ))}
        </p>
      ) : null}
      {playback === 'watching' ? (
        <div className="ps-learn-watching" role="status">
          <span className="ps-learn-spinner" aria-hidden="true" />
          <span className="ps-learn-watching-text">
            {t('watching')}
            <span className="ps-muted"> {t('replaying', { speed })}</span>
          </span>
          <button type="button" className="ps-button" onClick={onSkip}>
            {t('skip')}
          </button>
          <span className="ps-learn-played" aria-hidden="true">
            <span style={{ width: `${Math.round(played * 100)}%` }} />
          </span>
        </div>
      ) : (
        question
      )}
      <div className="ps-learn-nav">
        <button
          type="button"
          className="ps-button"
          onClick={() => onGo(step.index - 1)}
          disabled={step.index === 0}
        >
          <span aria-hidden="true">← </span>
          {t('prev')}
        </button>
        <button
          type="button"
          className="ps-button ps-learn-next"
          onClick={onNext}
          disabled={playback === 'watching'}
        >
          {last ? t('finish') : t('next')}
          <span aria-hidden="true"> →</span>
        </button>
      </div>
    </section>
  );
}
