'use client';
/**
 * A state machine to answer with: the same states and edges the panel draws (the rule book's
 * machines), with no current state marked, and every state a button. After the answer the right
 * state is marked, and so are the wrong picks.
 */
import { useTranslations } from 'next-intl';
import { useMemo, type KeyboardEvent } from 'react';
import type { Layer } from '@/components/data/entity';
import { layoutMachine } from '@/components/panel/machine-layout';
import { MACHINE_OF } from '@/components/panel/machines';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONE_COLOR } from '@/components/visual/palette';

const W = 320;
const H = 140;

export function QuestionMachine({
  machine,
  answer,
  picked,
  settled,
  onPick,
}: {
  machine: Layer;
  /** Shown once settled. */
  answer: string;
  /** States picked so far (wrong ones are marked). */
  picked: readonly string[];
  settled: boolean;
  onPick: (state: string) => void;
}) {
  const t = useTranslations('learn.walkthrough.page');
  const m = MACHINE_OF[machine];
  const layout = useMemo(() => layoutMachine(m, W, H), [m]);
  const key = (state: string) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      onPick(state);
    }
  };
  return (
    <figure
      className="ps-machine ps-learn-machine"
      data-machine={m.id}
      data-answer-machine={machine}
    >
      <figcaption>{t(`machine.${machine}`)}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-label={t(`machine.${machine}`)}>
        <defs>
          <marker
            id={`ps-learn-arrow-${m.id}`}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0 0 L10 5 L0 10 z" className="ps-machine-arrow" />
          </marker>
        </defs>
        {layout.edges.map((e) => (
          <g key={e.key} className="ps-machine-edge">
            <path d={e.d} markerEnd={`url(#ps-learn-arrow-${m.id})`} />
          </g>
        ))}
        {layout.states.map((s) => {
          const state = m.states.find((x) => x.id === s.id);
          const tone = state?.tone ?? 'unknown';
          const label = state?.label ?? s.id;
          const right = settled && s.id === answer;
          const wrong = picked.includes(s.id) && s.id !== answer;
          const cls = `ps-machine-state ps-learn-choice ps-tone-${tone}${right ? ' is-current is-right' : ''}${wrong ? ' is-wrong' : ''}`;
          return (
            <g
              key={s.id}
              className={cls}
              data-state={s.id}
              role="button"
              tabIndex={settled ? -1 : 0}
              aria-label={t('stateButton', { state: label })}
              aria-pressed={picked.includes(s.id)}
              aria-disabled={settled}
              onClick={() => !settled && onPick(s.id)}
              onKeyDown={settled ? undefined : key(s.id)}
            >
              <rect
                x={s.cx - s.w / 2}
                y={s.cy - s.h / 2}
                width={s.w}
                height={s.h}
                rx={s.h / 2}
                stroke={TONE_COLOR[tone]}
              />
              <StateGlyph
                tone={tone}
                x={s.cx - s.w / 2 + 9}
                y={s.cy - 6}
                size={12}
                color={right ? '#fff' : undefined}
              />
              <text x={s.cx + 8} y={s.cy + 4.5} textAnchor="middle">
                {label}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
