'use client';
/** What the colours, icons and shapes mean: one strip, always visible above the diagram. */
import { useTranslations } from 'next-intl';
import { StateIcon } from './StateIcon';
import { TONES } from './palette';

export function Legend() {
  const t = useTranslations('ui.legend');
  return (
    <div className="ps-legend" role="group" aria-label={t('label')}>
      <ul className="ps-legend-tones">
        {TONES.map((tone) => (
          <li key={tone} className={`ps-legend-item ps-tone-${tone}`} data-tone={tone}>
            <StateIcon tone={tone} size={12} />
            <span>{t(`tone.${tone}`)}</span>
          </li>
        ))}
      </ul>
      <ul className="ps-legend-shapes">
        <li className="ps-legend-item">
          <span className="ps-swatch ps-swatch-node" aria-hidden="true" />
          <span>{t('shape.node')}</span>
        </li>
        <li className="ps-legend-item">
          <span className="ps-swatch ps-swatch-pod" aria-hidden="true" />
          <span>{t('shape.pod')}</span>
        </li>
        <li className="ps-legend-item">
          <span className="ps-swatch ps-swatch-container" aria-hidden="true" />
          <span>{t('shape.container')}</span>
        </li>
        <li className="ps-legend-item">
          <span className="ps-swatch ps-swatch-divider" aria-hidden="true" />
          <span>{t('shape.init')}</span>
        </li>
        <li className="ps-legend-item">
          <span className="ps-swatch ps-swatch-sidecar" aria-hidden="true" />
          <span>{t('shape.sidecar')}</span>
        </li>
      </ul>
    </div>
  );
}
