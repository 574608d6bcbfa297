'use client';
/**
 * Marking and saving a period of the live recording: Mark start / Mark end at the cursor (in the
 * live view or while looking back), Save… with the marked period, and Import…. Saving needs the
 * server's recording, so it is off for the scripted demo.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { marksStore, useMarks } from './marks-store';
import { periodToSave } from './period';
import { SaveDialog } from './SaveDialog';
import { useAbsoluteTime } from '@/components/visual/RelativeTime';
import { useMoment } from './use-moment';

export function LiveBar() {
  const t = useTranslations('incident.bar');
  const locale = useLocale();
  const moment = useMoment();
  const clock = useAbsoluteTime();
  const { t: cursor, edge, ready, sourceKind, status } = useCluster();
  const marks = useMarks();
  const [saving, setSaving] = useState(false);
  const canSave = ready && sourceKind === 'live' && status !== 'offline';
  const period = periodToSave(marks, cursor, edge);
  const marked = marks.start !== undefined || marks.end !== undefined;
  return (
    <div className="ps-inc-bar" role="group" aria-label={t('label')}>
      <button
        type="button"
        className="ps-button"
        disabled={!ready}
        onClick={() => marksStore.setStart(cursor)}
        title={t('markStartHint')}
        data-testid="mark-start"
      >
        {t('markStart')}
      </button>
      <button
        type="button"
        className="ps-button"
        disabled={!ready}
        onClick={() => marksStore.setEnd(cursor)}
        title={t('markEndHint')}
        data-testid="mark-end"
      >
        {t('markEnd')}
      </button>
      {marked && ready ? (
        <span
          className="ps-inc-period"
          data-testid="marked-period"
          title={t('period', { from: moment(period.from), to: moment(period.to) })}
        >
          {t('period', { from: clock(period.from), to: clock(period.to) })}{' '}
          <button type="button" className="ps-link" onClick={marksStore.clear}>
            {t('clearMarks')}
          </button>
        </span>
      ) : null}
      <button
        type="button"
        className="ps-button ps-inc-primary"
        disabled={!canSave}
        onClick={() => setSaving(true)}
        title={canSave ? t('saveHint') : t('saveUnavailable')}
        data-testid="save-period"
      >
        {t('save')}
      </button>
      <a className="ps-button" href={`/${locale}/import`} title={t('importHint')}>
        {t('import')}
      </a>
      {saving ? <SaveDialog period={period} onClose={() => setSaving(false)} /> : null}
    </div>
  );
}
