'use client';
import { useTranslations } from 'next-intl';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONE_COLOR } from '@/components/visual/palette';
import { BADGE_STEP, FONTS, type PodBadge, type PodLayout } from '../layout';
import { fitText, pageMeasure } from '../text-fit';
import { ContainerPill } from './ContainerPill';
import { itemProps, type SceneContext } from './scene';

export function PodTile({ pod, ctx }: { pod: PodLayout; ctx: SceneContext }) {
  const t = useTranslations('ui.diagram');
  const p = pod.pod;
  const ready = p.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  const label = t('podLabel', {
    namespace: p.namespace,
    name: p.name,
    phase: p.status.phase ?? 'Unknown',
    ready: ready ? 'true' : 'false',
  });
  const color = TONE_COLOR[pod.tone];
  const selected = ctx.selected === pod.id;
  // Cut to the room left by the badges, measured in the page's own font; the full name is in
  // the title and the accessible name.
  const name = fitText(p.name, pod.labelMax, pageMeasure(FONTS.pod));
  const badgeText: Record<PodBadge, string> = {
    attention: '!',
    drift: '≠',
    eviction: '⏏',
    deleting: '⌫',
  };
  return (
    <g
      className={`ps-pod ps-tone-${pod.tone}${selected ? ' is-selected' : ''}${p.deletionTimestamp !== undefined ? ' is-deleting' : ''}${ctx.related.has(pod.id) ? ' is-related' : ''}`}
      data-layer="pod"
      data-id={pod.id}
      data-state={pod.state}
      {...(p.status.reason ? { 'data-reason': p.status.reason } : {})}
      {...itemProps(ctx, pod.id, 2)}
    >
      <title>{label}</title>
      <rect
        className="ps-pod-bg"
        x={pod.x}
        y={pod.y}
        width={pod.w}
        height={pod.h}
        rx={7}
        stroke={color}
      />
      {ctx.pulses.has(pod.id) ? (
        <rect
          key={ctx.pulses.get(pod.id)}
          className="ps-pulse"
          x={pod.x}
          y={pod.y}
          width={pod.w}
          height={pod.h}
          rx={7}
          stroke={color}
        />
      ) : null}
      <rect
        className="ps-pod-accent"
        x={pod.x}
        y={pod.y + 6}
        width={3.5}
        height={pod.h - 12}
        rx={1.5}
        fill={color}
      />
      <StateGlyph tone={pod.tone} x={pod.x + 9} y={pod.y + 8} size={12} />
      <text className="ps-pod-label" x={pod.x + 26} y={pod.y + 18}>
        {name}
      </text>
      {pod.badges.map((b, i) => (
        <g key={b} className={`ps-badge ps-badge-${b}`}>
          <title>{t(`badge.${b}`)}</title>
          <circle cx={pod.x + pod.w - 10 - i * BADGE_STEP} cy={pod.y + 13} r={7} />
          <text x={pod.x + pod.w - 10 - i * BADGE_STEP} y={pod.y + 16.5} textAnchor="middle">
            {badgeText[b]}
          </text>
        </g>
      ))}
      {pod.dividerX !== undefined ? (
        <line
          className="ps-init-divider"
          x1={pod.dividerX}
          x2={pod.dividerX}
          y1={pod.y + pod.h - 27}
          y2={pod.y + pod.h - 3}
        />
      ) : null}
      <g role="group">
        {pod.pills.map((pill) => (
          <ContainerPill key={pill.id} pill={pill} ctx={ctx} />
        ))}
      </g>
      {pod.hidden > 0 ? (
        <text className="ps-more" x={pod.x + pod.w - 8} y={pod.y + pod.h - 10} textAnchor="end">
          {t('more', { count: pod.hidden })}
        </text>
      ) : null}
    </g>
  );
}
