'use client';
/**
 * Which kubelet version's rules Podscope applied to a node, where that version came from (the API
 * server, the operator, or the default), in the reader's language.
 */
import { useTranslations } from 'next-intl';
import {
  DEFAULT_KUBELET_VERSION,
  explainKubeletVersion,
  type KubeletVersion as Version,
} from '@/lib/kubelet/version';
import { WhyText } from './WhyText';

export function KubeletVersionFact({ version }: { version: Version | undefined }) {
  const t = useTranslations('ui.panel');
  // A recording from before nodes carried their version was derived with the newest rules.
  const v = version ?? DEFAULT_KUBELET_VERSION;
  return (
    <div
      className="ps-fact-wide"
      data-kubelet-version={v.value}
      data-kubelet-version-source={v.source}
    >
      <dt>{t('kubeletVersion')}</dt>
      <dd>
        <WhyText why={explainKubeletVersion(v)} showRule={false} />
      </dd>
    </div>
  );
}
