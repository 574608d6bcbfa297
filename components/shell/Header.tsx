'use client';
import { useTranslations } from 'next-intl';
import { useCluster } from '@/components/data/ClusterProvider';
import { IncidentBar } from '@/components/incident/IncidentBar';
import { Link } from '@/i18n/navigation';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';

/** `counts`: what the header shows instead of the state's own (the overview counts every node). */
export function Header({ counts }: { counts?: { nodes: number; pods: number } } = {}) {
  const t = useTranslations('ui');
  const { status, statusDetail, sourceKind, live, state } = useCluster();
  const nodes = counts?.nodes ?? Object.keys(state.nodes).length;
  const pods =
    counts?.pods ?? Object.values(state.nodes).reduce((n, x) => n + Object.keys(x.pods).length, 0);
  const statusText = live ? t(`status.${status}`) : t('status.recorded');
  return (
    <header className="ps-header">
      <div className="ps-brand">
        <Logo />
        <h1>{t('app.title')}</h1>
        <p className="ps-tagline">{t('app.tagline')}</p>
      </div>
      <div className="ps-header-right">
        <IncidentBar />
        {sourceKind !== 'live' ? (
          <span className="ps-tag ps-tag-demo">{t('status.demo')}</span>
        ) : null}
        <span
          className={`ps-status-badge is-${live ? status : 'recorded'}`}
          role="status"
          data-status={status}
          title={statusDetail}
        >
          <span className="ps-status-dot" aria-hidden="true" />
          {statusText}
        </span>
        <span className="ps-counts">{t('header.counts', { nodes, pods })}</span>
        <Link href="/learn" className="ps-header-link" title={t('header.learnHint')}>
          <svg className="ps-icon" viewBox="0 0 16 16" width={14} height={14} aria-hidden="true">
            <path d="M1.5 3.5c2.2-.9 4.4-.9 6.5.6 2.1-1.5 4.3-1.5 6.5-.6v9c-2.2-.9-4.4-.9-6.5.6-2.1-1.5-4.3-1.5-6.5-.6zM8 4.1v9" />
          </svg>
          {t('header.learn')}
        </Link>
        <LanguageSwitcher />
      </div>
    </header>
  );
}
