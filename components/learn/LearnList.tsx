'use client';
/**
 * /learn: every scenario as a card — title, summary, level, topics as the Kubernetes terms they
 * teach, and where this browser left it (not started, step k of n, done).
 */
import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { CONCEPT_GROUPS } from '@/lib/learn/concepts';
import type { WalkthroughSummary } from './types';
import { resumeStep, statusOf, type ProgressStatus } from './progress';
import { LearnTop } from './LearnTop';
import { useWalkthroughList } from './use-learn-query';
import { useProgress } from './use-progress';
import '@/components/shell/console.css';
import './learn.css';

function StatusBadge({ status }: { status: ProgressStatus }) {
  const t = useTranslations('learn.walkthrough.list.status');
  const text =
    status.kind === 'started' ? t('started', { step: status.step, of: status.of }) : t(status.kind);
  return (
    <span className={`ps-learn-status is-${status.kind}`} data-testid="walkthrough-progress">
      {status.kind === 'done' ? (
        <svg viewBox="0 0 12 12" width={12} height={12} className="ps-icon" aria-hidden="true">
          <path d="M2 6.3 L4.9 9.2 L10 3" />
        </svg>
      ) : null}
      {text}
    </span>
  );
}

function Card({ w }: { w: WalkthroughSummary }) {
  const t = useTranslations('learn');
  const tl = useTranslations('learn.walkthrough.list');
  const [progress] = useProgress();
  const p = progress[w.id];
  const status = statusOf(p, w.steps);
  const step = resumeStep(p, w.steps) + 1;
  const action =
    status.kind === 'new' ? tl('start') : status.kind === 'done' ? tl('again') : tl('continue');
  const href = `/learn/${w.id}?step=${step}`;
  return (
    <li
      className={`ps-learn-card is-${status.kind}`}
      data-walkthrough={w.id}
      data-progress={status.kind}
    >
      <div className="ps-learn-card-top">
        <span
          className={`ps-learn-level is-${w.level}`}
          title={tl('levelLabel', { level: tl(`level.${w.level}`) })}
        >
          {tl(`level.${w.level}`)}
        </span>
        <StatusBadge status={status} />
      </div>
      <h3>
        <Link href={href} className="ps-learn-card-title">
          {t(w.title)}
        </Link>
      </h3>
      <p className="ps-learn-summary">{t(w.summary)}</p>
      <ul className="ps-learn-topics" aria-label={tl('topics')}>
        {w.topics.map((topic) => (
          <li key={topic}>
            <code>{topic}</code>
          </li>
        ))}
      </ul>
      <div className="ps-learn-card-foot">
        <span className="ps-muted">
          {tl('steps', { count: w.steps })} · {tl('questions', { count: w.questions })}
        </span>
        <Link href={href} className="ps-learn-go" tabIndex={-1} aria-hidden="true">
          {action}
          <span aria-hidden="true"> →</span>
        </Link>
      </div>
    </li>
  );
}

export function LearnList() {
  const t = useTranslations('learn.walkthrough.list');
  const [list, retry] = useWalkthroughList();
  const [progress] = useProgress();
  const items = list.status === 'ready' ? list.data : [];
  const done = items.filter((w) => statusOf(progress[w.id], w.steps).kind === 'done').length;
  return (
    <div className="ps-console ps-learn ps-learn-list">
      <LearnTop />
      <main className="ps-learn-main">
        <section className="ps-learn-hero">
          <h1>{t('title')}</h1>
          <p className="ps-learn-intro">{t('intro')}</p>
          <ol className="ps-learn-how" aria-label={t('how.title')}>
            <li>
              <span className="ps-learn-how-n" aria-hidden="true">
                1
              </span>
              {t('how.watch')}
            </li>
            <li>
              <span className="ps-learn-how-n" aria-hidden="true">
                2
              </span>
              {t('how.answer')}
            </li>
            <li>
              <span className="ps-learn-how-n" aria-hidden="true">
                3
              </span>
              {t('how.why')}
            </li>
          </ol>
          {items.length > 0 ? (
            <p className="ps-learn-overall" data-testid="overall-progress">
              <span className="ps-learn-bar" aria-hidden="true">
                <span style={{ width: `${(100 * done) / items.length}%` }} />
              </span>
              {t('progress', { done, total: items.length })}
            </p>
          ) : null}
        </section>
        {list.status === 'loading' ? (
          <p className="ps-learn-note" role="status">
            {t('loading')}
          </p>
        ) : list.status === 'error' || list.status === 'notFound' ? (
          <p className="ps-learn-note is-error" role="alert">
            {t('error', { error: list.status === 'error' ? list.error : '404' })}{' '}
            <button type="button" className="ps-button" onClick={retry}>
              {t('retry')}
            </button>
          </p>
        ) : (
          CONCEPT_GROUPS.map((group) => {
            const cards = items.filter((w) => w.group === group);
            if (cards.length === 0) return null;
            return (
              <section
                key={group}
                className="ps-learn-group"
                aria-labelledby={`learn-group-${group}`}
                data-concept-group={group}
              >
                <h2 id={`learn-group-${group}`} className="ps-learn-group-title">
                  {t(`groups.${group}`)}
                </h2>
                <ul className="ps-learn-cards">
                  {cards.map((w) => (
                    <Card key={w.id} w={w} />
                  ))}
                </ul>
              </section>
            );
          })
        )}
      </main>
    </div>
  );
}
