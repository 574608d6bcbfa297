'use client';
/**
 * What the runtime reports about a node beyond its pods: its RuntimeReady / NetworkReady
 * conditions (CRI Status, with reason and message), and CPU and memory per pod and container
 * (ListContainerStats: cores over the last sampling interval, working set).
 */
import { useTranslations } from 'next-intl';
import type { RuntimeCondition } from '@/lib/kubelet/runtime';
import type { NodeUsage, ResourceUsage } from '@/lib/kubelet/usage';
import { formatAmount } from '@/lib/kubelet/pressure';
import type { NodeView, PodView } from '@/lib/timeline/state';
import { own } from '@/lib/timeline/state';
import { RelativeTime } from '@/components/visual/RelativeTime';

/** Cores as kubectl top's millicores would round them, in cores: 1.25, 0.012, 0. */
export function formatCores(cores: number | undefined): string {
  if (cores === undefined || !Number.isFinite(cores) || cores < 0) return '—';
  if (cores === 0) return '0';
  return cores >= 1 ? cores.toFixed(2) : cores.toFixed(3);
}

const formatMemory = (bytes: number | undefined): string =>
  bytes === undefined ? '—' : formatAmount('memory.available', bytes);

/** The runtime's own conditions (CRI Status): RuntimeReady, NetworkReady, with reason and message. */
export function RuntimeConditions({ conditions }: { conditions: readonly RuntimeCondition[] }) {
  const t = useTranslations('ui.panel');
  if (conditions.length === 0) return <span className="ps-muted">{t('noRuntimeStatus')}</span>;
  return (
    <ul className="ps-runtime-conditions">
      {conditions.map((c) => (
        <li key={c.type} data-runtime-condition={c.type} data-status={String(c.status)}>
          <span className={`ps-chip ps-tone-${c.status ? 'ok' : 'failed'}`}>
            {`${c.type}=${String(c.status)}`}
          </span>
          {c.reason || c.message ? (
            <span className="ps-muted">{[c.reason, c.message].filter(Boolean).join(': ')}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function UsageCells({ usage }: { usage: ResourceUsage | undefined }) {
  return (
    <>
      <td data-cpu-cores={usage?.cpuCores ?? ''}>{formatCores(usage?.cpuCores)}</td>
      <td data-memory-bytes={usage?.memoryBytes ?? ''}>{formatMemory(usage?.memoryBytes)}</td>
    </>
  );
}

function Sampled({ usage, reference }: { usage: NodeUsage; reference: number }) {
  const t = useTranslations('ui.panel');
  return (
    <p className="ps-muted">
      {t('usageSource')} <RelativeTime t={usage.at} reference={reference} />
    </p>
  );
}

/** The node's pods by memory used, largest first. */
export function NodeResources({ node, reference }: { node: NodeView; reference: number }) {
  const t = useTranslations('ui.panel');
  const usage = node.usage;
  const rows = usage
    ? Object.entries(usage.pods)
        .map(([uid, u]) => ({ uid, u, pod: own(node.pods, uid) }))
        .sort((a, b) => (b.u.memoryBytes ?? 0) - (a.u.memoryBytes ?? 0))
    : [];
  return (
    <section className="ps-section" data-usage="node" aria-label={t('resources')}>
      <h3>{t('resources')}</h3>
      {!usage || rows.length === 0 ? (
        <p className="ps-muted">{t('noUsage')}</p>
      ) : (
        <>
          <table className="ps-conditions">
            <thead>
              <tr>
                <th scope="col">{t('usagePod')}</th>
                <th scope="col">{t('usageCpu')}</th>
                <th scope="col">{t('usageMemory')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ uid, u, pod }) => (
                <tr key={uid} data-usage-pod={uid}>
                  <th scope="row">{pod ? `${pod.namespace}/${pod.name}` : uid}</th>
                  <UsageCells usage={u} />
                </tr>
              ))}
            </tbody>
          </table>
          <Sampled usage={usage} reference={reference} />
        </>
      )}
    </section>
  );
}

/** One pod's CPU and memory, in all and per container. */
export function PodResources({
  pod,
  node,
  reference,
}: {
  pod: PodView;
  node: NodeView;
  reference: number;
}) {
  const t = useTranslations('ui.panel');
  const usage = node.usage;
  const mine = usage ? own(usage.pods, pod.uid) : undefined;
  return (
    <section className="ps-section" data-usage="pod" aria-label={t('resources')}>
      <h3>{t('resources')}</h3>
      {!usage || !mine ? (
        <p className="ps-muted">{t('noUsage')}</p>
      ) : (
        <>
          <table className="ps-conditions">
            <thead>
              <tr>
                <th scope="col">{t('usageContainer')}</th>
                <th scope="col">{t('usageCpu')}</th>
                <th scope="col">{t('usageMemory')}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(mine.containers)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([name, u]) => (
                  <tr key={name} data-usage-container={name}>
                    <th scope="row">{name}</th>
                    <UsageCells usage={u} />
                  </tr>
                ))}
              <tr data-usage-total="">
                <th scope="row">{t('usagePodTotal')}</th>
                <UsageCells usage={mine} />
              </tr>
            </tbody>
          </table>
          <Sampled usage={usage} reference={reference} />
        </>
      )}
    </section>
  );
}
