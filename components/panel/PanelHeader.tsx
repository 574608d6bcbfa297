'use client';
/** The panel's title: where the entity sits (node › pod › container), what it is, its state. */
import { useTranslations } from 'next-intl';
import type { Layer } from '@/components/data/entity';
import { StateIcon } from '@/components/visual/StateIcon';
import type { Tone } from '@/components/visual/palette';

export interface Crumb {
  id: string;
  label: string;
}

export function PanelHeader({
  layer,
  title,
  subtitle,
  state,
  tone,
  crumbs,
  onSelect,
  onClose,
}: {
  layer: Layer;
  title: string;
  subtitle?: string;
  state: string;
  tone: Tone;
  crumbs: Crumb[];
  onSelect: (id: string) => void;
  onClose: () => void;
}) {
  const t = useTranslations('ui.panel');
  return (
    <header className="ps-panel-header">
      {crumbs.length > 0 ? (
        <nav className="ps-crumbs" aria-label={t('path')}>
          {crumbs.map((c) => (
            <button key={c.id} type="button" className="ps-link" onClick={() => onSelect(c.id)}>
              {c.label}
            </button>
          ))}
        </nav>
      ) : null}
      <div className="ps-panel-title">
        <span className="ps-layer-badge">{t(`layer.${layer}`)}</span>
        <h2 title={title}>{title}</h2>
        <button
          type="button"
          className="ps-close"
          onClick={onClose}
          aria-label={t('close')}
          title={t('close')}
        >
          ×
        </button>
      </div>
      <div className="ps-panel-sub">
        <p className={`ps-state-chip ps-tone-${tone}`} data-testid="entity-state">
          <StateIcon tone={tone} size={13} />
          <span>{state}</span>
        </p>
        {subtitle ? <p className="ps-muted ps-subtitle">{subtitle}</p> : null}
      </div>
    </header>
  );
}
