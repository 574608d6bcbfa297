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

/** Rows of CPU and memory under one header, then when they were sampled. */
function UsageTable({
  first,
  rows,
  usage,
  reference,
}: {
  first: string;
  rows: { key: string; label: string; usage: ResourceUsage; hook: Record<string, string> }[];
  usage: NodeUsage;
  reference: number;
}) {
  const t = useTranslations('ui.panel');
  return (
    <>
      <table className="ps-conditions">
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col">{t('usageCpu')}</th>
            <th scope="col">{t('usageMemory')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} {...r.hook}>
              <th scope="row">{r.label}</th>
              <UsageCells usage={r.usage} />
            </tr>
          ))}
        </tbody>
      </table>
      <p className="ps-muted">
        {t('usageSource')} <RelativeTime t={usage.at} reference={reference} />
      </p>
    </>
  );
}

/** The node's pods by memory used, largest first. */
export function NodeResources({ node, reference }: { node: NodeView; reference: number }) {
  const t = useTranslations('ui.panel');
  const usage = node.usage;
  const rows = usage
    ? Object.entries(usage.pods)
        .sort(([, a], [, b]) => (b.memoryBytes ?? 0) - (a.memoryBytes ?? 0))
        .map(([uid, u]) => {
          const pod = own(node.pods, uid);
          return {
            key: uid,
            label: pod ? `${pod.namespace}/${pod.name}` : uid,
            usage: u,
            hook: { 'data-usage-pod': uid },
          };
        })
    : [];
  return (
    <section className="ps-section" data-usage="node" aria-label={t('resources')}>
      <h3>{t('resources')}</h3>
      {!usage || rows.length === 0 ? (
        <p className="ps-muted">{t('noUsage')}</p>
      ) : (
        <UsageTable first={t('usagePod')} rows={rows} usage={usage} reference={reference} />
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
  const rows = mine
    ? [
        ...Object.entries(mine.containers)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, u]) => ({
            key: name,
            label: name,
            usage: u,
            hook: { 'data-usage-container': name },
          })),
        { key: '', label: t('usagePodTotal'), usage: mine, hook: { 'data-usage-total': '' } },
      ]
    : [];
  return (
    <section className="ps-section" data-usage="pod" aria-label={t('resources')}>
      <h3>{t('resources')}</h3>
      {!usage || !mine ? (
        <p className="ps-muted">{t('noUsage')}</p>
      ) : (
        <UsageTable first={t('usageContainer')} rows={rows} usage={usage} reference={reference} />
      )}
    </section>
  );
}
