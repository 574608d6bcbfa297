'use client';
/**
 * One walkthrough, inside the console's provider (a memory source over the recording): the step
 * panel on the left, the console's own diagram, entity panel and timeline beside it, and the
 * step's entities highlighted. Steps have URLs (`?step=N`); progress is kept in this browser.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { layerOfId } from '@/components/data/entity';
import { Diagram } from '@/components/diagram/Diagram';
import { EntityPanel } from '@/components/panel/EntityPanel';
import { BottomPane } from '@/components/shell/BottomPane';
import { Timeline } from '@/components/timeline/Timeline';
import { Legend } from '@/components/visual/Legend';
import { reduceAll } from '@/lib/timeline/reducer';
import type { Recording } from './types';
import { highlightIds, judge, type Pick } from './answer';
import { DoneCard } from './DoneCard';
import { Highlight } from './Highlight';
import { LearnTop } from './LearnTop';
import { finishWalkthrough, settleQuestion, visitStep } from './progress';
import { QuestionCard, type Attempt } from './QuestionCard';
import { StepPanel } from './StepPanel';
import { useProgress } from './use-progress';
import { useReducedMotion } from './use-reduced-motion';
import { useStepPlayback } from './use-step-playback';

interface StepAnswers {
  attempts: Attempt[];
  settled?: 'right' | 'shown';
}

/** Puts the step in the address bar (1-based), dropping the cursor and selection of the last one. */
function writeStepToUrl(index: number): void {
  if (typeof window === 'undefined') return;
  const params = new URLSearchParams(window.location.search);
  params.set('step', String(index + 1));
  params.delete('at');
  params.delete('sel');
  params.delete('speed');
  window.history.replaceState(
    window.history.state,
    '',
    `${window.location.pathname}?${params.toString()}`,
  );
}

export function WalkthroughStage({
  recording,
  initialStep,
}: {
  recording: Recording;
  initialStep: number;
}) {
  const t = useTranslations('learn.walkthrough.page');
  const tl = useTranslations('learn');
  const tp = useTranslations('ui.panel');
  const { actions, selection, state, ready } = useCluster();
  const reduced = useReducedMotion();
  const [, updateProgress] = useProgress();
  const n = recording.steps.length;
  const [index, setIndex] = useState(() => Math.max(0, Math.min(initialStep, n - 1)));
  const [backwards, setBackwards] = useState(false);
  const [answers, setAnswers] = useState<Record<number, StepAnswers>>({});
  const [finished, setFinished] = useState(false);
  const step = recording.steps[index] ?? recording.steps[0];
  const from = index === 0 ? recording.start : (recording.steps[index - 1]?.t ?? recording.start);
  const { playback, skip, replay } = useStepPlayback(index, from, step?.t ?? recording.start, {
    reduced,
    backwards,
  });

  // The state at the step's moment: where the answers and explanations come from.
  const stateAtStep = useMemo(
    () =>
      reduceAll(
        recording.initial,
        recording.events.filter((e) => e.t <= (step?.t ?? 0)),
      ),
    [recording, step?.t],
  );

  const go = useCallback(
    (next: number) => {
      if (next < 0 || next >= n) return;
      setBackwards(next < index);
      setIndex(next);
      setFinished(false);
      // A clean selection to answer the next question with.
      actions.select(undefined);
    },
    [index, n, actions],
  );

  // Entering a step: its URL and its place in the progress.
  useEffect(() => {
    writeStepToUrl(index);
    updateProgress((m) => visitStep(m, recording.scenario, index, n, Date.now()));
  }, [index, recording.scenario, n, updateProgress]);

  const current = answers[index] ?? { attempts: [] };
  const q = step?.question;

  // Clicking (or choosing with the keyboard) an entity in the diagram answers an entity
  // question: each new selection is one attempt, judged as the render sees it.
  const [seenSelection, setSeenSelection] = useState(selection);
  if (selection !== seenSelection) {
    setSeenSelection(selection);
    if (selection && step && q?.kind === 'entity' && playback === 'arrived' && !current.settled) {
      const p: Pick = { kind: 'entity', id: selection, layer: layerOfId(state, selection) };
      const verdict = judge(q, p);
      setAnswers((a) => ({
        ...a,
        [index]: {
          attempts: [...(a[index]?.attempts ?? []), { pick: p, verdict }],
          ...(verdict.right ? { settled: 'right' as const } : {}),
        },
      }));
    }
  }

  // When an entity question opens, nothing is selected yet: a selection made while watching
  // would otherwise make clicking that same entity again count for nothing.
  const open = playback === 'arrived' && q?.kind === 'entity' && !current.settled;
  // Only as the question opens: `actions` changes with every cursor move.
  const clearSelection = useEffectEvent(() => actions.select(undefined));
  useEffect(() => {
    if (open) clearSelection();
  }, [open, index]);

  const pickState = useCallback(
    (state: string) => {
      if (q?.kind !== 'state' || playback !== 'arrived') return;
      const p: Pick = { kind: 'state', state };
      const verdict = judge(q, p);
      // Right: the panel opens on the entity asked about, with its state machine and its why.
      if (verdict.right && !answers[index]?.settled) actions.select(q.entity);
      setAnswers((a) => {
        if (a[index]?.settled) return a;
        return {
          ...a,
          [index]: {
            attempts: [...(a[index]?.attempts ?? []), { pick: p, verdict }],
            ...(verdict.right ? { settled: 'right' as const } : {}),
          },
        };
      });
    },
    [q, playback, index, answers, actions],
  );

  // A settled question is kept in this browser's progress.
  const settledNow = current.settled;
  const stepKey = step?.key;
  useEffect(() => {
    if (!settledNow || !stepKey) return;
    updateProgress((m) =>
      settleQuestion(m, recording.scenario, stepKey, settledNow, n, Date.now()),
    );
  }, [settledNow, stepKey, recording.scenario, n, updateProgress]);

  const show = useCallback(() => {
    if (!q || !step) return;
    setAnswers((a) => ({
      ...a,
      [index]: { attempts: a[index]?.attempts ?? [], settled: 'shown' },
    }));
    const first = q.kind === 'entity' ? q.answers[0] : q.entity;
    if (first) actions.select(first);
  }, [q, step, index, actions]);

  const next = useCallback(() => {
    if (index < n - 1) go(index + 1);
    else {
      updateProgress((m) => finishWalkthrough(m, recording.scenario, n, Date.now()));
      setFinished(true);
    }
  }, [index, n, go, updateProgress, recording.scenario]);

  const passed = useMemo(() => {
    const out = new Set<number>();
    for (let i = 0; i < n; i++) if (answers[i]?.settled || i < index || finished) out.add(i);
    return out;
  }, [answers, index, n, finished]);

  if (!step) return null;
  const settled = current.settled !== undefined || !q;
  const highlight = highlightIds(step, recording.node, settled);

  return (
    <div className="ps-console ps-learn ps-learn-stage" data-walkthrough={recording.scenario}>
      <Highlight ids={ready ? highlight : []} />
      <LearnTop>
        <span className="ps-learn-crumb-sep" aria-hidden="true">
          /
        </span>
        <h1 className="ps-learn-title">{tl(recording.title)}</h1>
      </LearnTop>
      <aside className="ps-learn-side" aria-label={tl(recording.title)}>
        {finished ? (
          <DoneCard
            recording={recording}
            right={Object.values(answers).filter((a) => a.settled === 'right').length}
            onAgain={() => {
              setAnswers({});
              go(0);
            }}
          />
        ) : (
          <StepPanel
            recording={recording}
            step={step}
            stateAtStep={stateAtStep}
            lookAt={highlight}
            playback={playback}
            from={from}
            passed={passed}
            onGo={go}
            onSkip={skip}
            onReplay={replay}
            onNext={next}
            question={
              q ? (
                <QuestionCard
                  question={q}
                  settled={current.settled}
                  attempts={current.attempts}
                  state={stateAtStep}
                  onPick={(p) => p.kind === 'state' && pickState(p.state)}
                  onShow={show}
                />
              ) : null
            }
          />
        )}
      </aside>
      <main className="ps-stage" aria-label={t('diagramTitle')}>
        <Legend />
        <Diagram maxZoom={2} />
      </main>
      <div id="ps-panel" className="ps-side">
        {selection ? (
          <EntityPanel />
        ) : (
          // The same landmark the panel is once something is selected.
          <aside className="ps-panel" aria-label={tp('label')}>
            <p className="ps-learn-panel-hint">{t('panelHint')}</p>
          </aside>
        )}
      </div>
      <div className="ps-bottom">
        <Timeline />
        {/* The log, and a Drift tab once the scenario's API server disagrees with the node. */}
        <BottomPane />
      </div>
    </div>
  );
}
