'use client';
/** Transport controls: previous / play-pause / next event, speed, and back to live. */
import { useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import { SPEEDS } from '@/components/data/cursor';

export function Controls({ onGoLive }: { onGoLive?: () => void }) {
  const t = useTranslations('ui.timeline');
  const { cursor, speed, actions, live, ready } = useCluster();
  const playing = cursor.mode === 'playing';
  const atLive = cursor.mode === 'live';
  return (
    <div className="ps-controls" role="toolbar" aria-label={t('controls')}>
      <button
        type="button"
        className="ps-tbtn"
        onClick={() => actions.step(-1)}
        disabled={!ready}
        aria-label={t('previous')}
        title={t('previousHint')}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3 3v10M13 3L5.5 8 13 13z" />
        </svg>
      </button>
      <button
        type="button"
        className="ps-tbtn ps-play"
        onClick={actions.togglePlay}
        disabled={!ready}
        aria-label={playing ? t('pause') : t('play')}
        title={`${playing ? t('pause') : t('play')} (${t('spaceKey')})`}
      >
        {playing ? (
          <svg viewBox="0 0 16 16" aria-hidden="true">
            <path d="M4 3h3v10H4zM9 3h3v10H9z" />
          </svg>
        ) : (
          <svg viewBox="0 0 16 16" aria-hidden="true">
            <path d="M4 2.5L13.5 8 4 13.5z" />
          </svg>
        )}
      </button>
      <button
        type="button"
        className="ps-tbtn"
        onClick={() => actions.step(1)}
        disabled={!ready}
        aria-label={t('next')}
        title={t('nextHint')}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M13 3v10M3 3l7.5 5L3 13z" />
        </svg>
      </button>
      <label className="ps-speed">
        <span className="ps-visually-hidden">{t('speed')}</span>
        <select
          value={speed}
          onChange={(e) => actions.setSpeed(Number(e.target.value))}
          aria-label={t('speed')}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {t('speedValue', { speed: s })}
            </option>
          ))}
        </select>
      </label>
      {live ? (
        <button
          type="button"
          className={`ps-live${atLive ? ' is-live' : ''}`}
          onClick={onGoLive ?? actions.goLive}
          aria-pressed={atLive}
          aria-label={t('live')}
          title={t('liveHint')}
        >
          <span className="ps-live-dot" aria-hidden="true" />
          {t('live')}
        </button>
      ) : (
        <span className="ps-recorded">{t('recorded')}</span>
      )}
    </div>
  );
}
