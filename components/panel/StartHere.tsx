'use client';
/** The panel before anything is selected: what this is, and the first things worth clicking. */
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { StateIcon } from '@/components/visual/StateIcon';
import { attentionList } from './attention';

export function StartHere() {
  const t = useTranslations('ui.start');
  const { state, actions, ready } = useCluster();
  const items = useMemo(() => attentionList(state), [state]);
  return (
    <article className="ps-details ps-start">
      <h2>{t('title')}</h2>
      <p>{t('intro')}</p>
      <section className="ps-section" aria-labelledby="ps-attention">
        <h3 id="ps-attention">{t('attention')}</h3>
        {!ready ? (
          <p className="ps-muted">{t('waiting')}</p>
        ) : items.length === 0 ? (
          <p className="ps-muted">{t('allGood')}</p>
        ) : (
          <ul className="ps-entity-list">
            {items.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  className="ps-entity-row ps-attention-row"
                  onClick={() => actions.select(a.id)}
                  data-target={a.id}
                >
                  <StateIcon tone={a.tone} size={13} />
                  <span className="ps-entity-name">{a.title}</span>
                  <span className={`ps-reason ps-tone-${a.tone}`}>{a.reason}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="ps-section ps-keys" aria-labelledby="ps-keys">
        <h3 id="ps-keys">{t('keys')}</h3>
        <dl>
          <div>
            <dt>
              <kbd>Tab</kbd> <kbd>←</kbd>
              <kbd>→</kbd>
              <kbd>↑</kbd>
              <kbd>↓</kbd>
            </dt>
            <dd>{t('keyMove')}</dd>
          </div>
          <div>
            <dt>
              <kbd>Enter</kbd> <kbd>Esc</kbd>
            </dt>
            <dd>{t('keySelect')}</dd>
          </div>
          <div>
            <dt>
              <kbd>Space</kbd>
            </dt>
            <dd>{t('keyPlay')}</dd>
          </div>
          <div>
            <dt>
              <kbd>←</kbd>
              <kbd>→</kbd> <kbd>Home</kbd> <kbd>End</kbd>
            </dt>
            <dd>{t('keyStep')}</dd>
          </div>
        </dl>
      </section>
    </article>
  );
}
