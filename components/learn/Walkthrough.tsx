'use client';
/**
 * A walkthrough page's client root: fetches the recording (recorded on first request, which can
 * take a few seconds), then replays it through the console's provider — a memory source, read-only,
 * never live — and opens at the step from the URL or where this browser left it.
 */
import { NextIntlClientProvider, useLocale, useMessages, useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { ClusterProvider } from '@/components/data/ClusterProvider';
import { createMemorySource } from '@/components/data/memory-source';
import type { ViewState } from '@/components/data/url-state';
import { Link } from '@/i18n/navigation';
import type { Recording } from './types';
import { LearnTop } from './LearnTop';
import { resumeStep } from './progress';
import { useRecording } from './use-learn-query';
import { useProgress } from './use-progress';
import { WalkthroughStage } from './WalkthroughStage';
import '@/components/shell/console.css';
import './learn.css';

function Replay({ recording, step }: { recording: Recording; step: number | undefined }) {
  const [progress] = useProgress();
  // Chosen once per recording (Replay is keyed on it): later progress changes must not move the
  // walkthrough.
  const [[initialStep, view]] = useState(() => {
    const n = recording.steps.length;
    const first =
      step !== undefined && step >= 1 && step <= n
        ? step - 1
        : resumeStep(progress[recording.scenario], n);
    const before =
      first === 0 ? recording.start : (recording.steps[first - 1]?.t ?? recording.start);
    const v: ViewState = {
      speed: 1,
      filter: { followSelection: true },
      source: 'live',
      at: before,
    };
    return [first, v] as const;
  });
  const source = useMemo(
    () => createMemorySource(recording.initial, recording.events),
    [recording],
  );
  return (
    <ClusterProvider source={source} initialView={view}>
      <WalkthroughStage recording={recording} initialStep={initialStep} />
    </ClusterProvider>
  );
}

export function Walkthrough({ id, step }: { id: string; step?: number }) {
  const t = useTranslations('learn.walkthrough.page');
  const locale = useLocale();
  const messages = useMessages();
  const [recording, retry] = useRecording(id);
  const timeZone = useMemo(
    () => (typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC'),
    [],
  );
  let body;
  if (recording.status === 'ready')
    body = <Replay key={recording.data.scenario} recording={recording.data} step={step} />;
  else
    body = (
      <div className="ps-console ps-learn ps-learn-list">
        <LearnTop />
        <main className="ps-learn-main">
          {recording.status === 'loading' ? (
            <div className="ps-learn-note" role="status">
              <span className="ps-learn-spinner" aria-hidden="true" />
              <p>{t('loading')}</p>
              <p className="ps-muted">{t('loadingHint')}</p>
            </div>
          ) : (
            <div className="ps-learn-note is-error" role="alert">
              <p>
                {recording.status === 'notFound'
                  ? t('notFound', { id })
                  : t('error', { error: recording.error })}
              </p>
              <p>
                {recording.status === 'error' ? (
                  <button type="button" className="ps-button" onClick={retry}>
                    {t('retry')}
                  </button>
                ) : null}{' '}
                <Link href="/learn">{t('back')}</Link>
              </p>
            </div>
          )}
        </main>
      </div>
    );
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone={timeZone}>
      {body}
    </NextIntlClientProvider>
  );
}
