'use client';
/** Zooming the timeline's time axis: in, out, and back to the whole recording. */
import { useTranslations } from 'next-intl';
import type { TimeWindowControls } from './use-time-window';
import { ZOOM_STEP } from './window';

export function TimeZoom({ controls }: { controls: TimeWindowControls }) {
  const t = useTranslations('ui.timeline.zoom');
  return (
    <div className="ps-time-zoom" role="group" aria-label={t('label')}>
      <button
        type="button"
        className="ps-tbtn ps-tbtn-small"
        onClick={() => controls.zoom(ZOOM_STEP)}
        aria-label={t('out')}
        title={t('outHint')}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3 8h10" />
        </svg>
      </button>
      <button
        type="button"
        className="ps-tbtn ps-tbtn-small"
        onClick={() => controls.zoom(1 / ZOOM_STEP)}
        aria-label={t('in')}
        title={t('inHint')}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3 8h10M8 3v10" />
        </svg>
      </button>
      <button
        type="button"
        className="ps-tbtn ps-tbtn-small"
        onClick={controls.fit}
        disabled={controls.fitted}
        aria-label={t('fit')}
        title={t('fitHint')}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M2 5V2.5h3M14 5V2.5h-3M2 11v2.5h3M14 11v2.5h-3M5 8h6" />
        </svg>
      </button>
    </div>
  );
}
