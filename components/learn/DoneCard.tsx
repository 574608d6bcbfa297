'use client';
/** The end of a walkthrough: well done, and where to go next. */
import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import type { Recording } from './types';
import { useWalkthroughList } from './use-learn-query';

export function DoneCard({
  recording,
  right,
  onAgain,
}: {
  recording: Recording;
  /** Questions answered right (not shown). */
  right: number;
  onAgain: () => void;
}) {
  const t = useTranslations('learn.walkthrough.page');
  const tl = useTranslations('learn');
  const tlist = useTranslations('learn.walkthrough.list');
  const [list] = useWalkthroughList();
  const all = list.status === 'ready' ? list.data : [];
  const at = all.findIndex((w) => w.id === recording.scenario);
  const next = at >= 0 ? all[(at + 1) % all.length] : undefined;
  const questions = recording.steps.filter((s) => s.question).length;
  // The last narration is the scenario's lesson.
  const last = recording.steps[recording.steps.length - 1];
  const takeaway = last?.do === 'annotate' ? last.say : undefined;
  return (
    <section className="ps-learn-done" role="status" data-testid="walkthrough-done">
      <div className="ps-learn-done-mark" aria-hidden="true">
        ✓
      </div>
      <h2>{t('doneTitle')}</h2>
      <p>{t('doneText', { title: tl(recording.title) })}</p>
      <p className="ps-learn-score" data-testid="score">
        {t('score', { right, total: questions })}
      </p>
      {takeaway ? (
        <div className="ps-learn-takeaway">
          <h3>{t('remember')}</h3>
          <p>{tl(takeaway)}</p>
        </div>
      ) : null}
      <div className="ps-learn-done-actions">
        {next && next.id !== recording.scenario ? (
          <Link href={`/learn/${next.id}?step=1`} className="ps-button ps-learn-next">
            {t('nextWalkthrough', { title: tl(next.title) })}
          </Link>
        ) : null}
        <Link href="/learn" className="ps-button">
          {t('allWalkthroughs')}
        </Link>
        <button type="button" className="ps-link" onClick={onAgain}>
          {tlist('again')}
        </button>
      </div>
    </section>
  );
}
