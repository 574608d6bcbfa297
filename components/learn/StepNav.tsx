'use client';
/** The steps of a walkthrough as numbered links (each step has its own URL), with where you are. */
import { useTranslations } from 'next-intl';
import type { MouseEvent } from 'react';

export function StepNav({
  count,
  current,
  settled,
  onGo,
}: {
  count: number;
  current: number;
  /** Steps (0-based) whose question is settled, or which were passed. */
  settled: ReadonlySet<number>;
  onGo: (index: number) => void;
}) {
  const t = useTranslations('learn.walkthrough.page');
  const go = (i: number) => (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    onGo(i);
  };
  return (
    <nav className="ps-learn-steps" aria-label={t('steps')}>
      <ol>
        {Array.from({ length: count }, (_, i) => {
          const status = i === current ? 'current' : settled.has(i) ? 'done' : 'todo';
          return (
            <li key={i} className={`is-${status}`}>
              <a
                href={`?step=${i + 1}`}
                onClick={go(i)}
                aria-current={i === current ? 'step' : undefined}
                aria-label={t('stepLink', { step: i + 1, status })}
              >
                {i + 1}
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
