'use client';
import { useTranslations } from 'next-intl';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONE_COLOR } from '@/components/visual/palette';
import { FONTS, type PillLayout } from '../layout';
import { fitText, pageMeasure } from '../text-fit';
import { itemProps, type SceneContext } from './scene';

export function ContainerPill({ pill, ctx }: { pill: PillLayout; ctx: SceneContext }) {
  const t = useTranslations('ui.diagram');
  const label = t('containerLabel', {
    name: pill.name,
    state: pill.state,
    reason: pill.reason ?? 'none',
    restarts: pill.status?.restartCount ?? 0,
    kind: pill.sidecar ? 'sidecar' : pill.list,
    ready: pill.readiness ?? 'none',
  });
  const unready = pill.readiness === 'notready' || pill.readiness === 'notstarted';
  const color = TONE_COLOR[pill.tone];
  const selected = ctx.selected === pill.id;
  const text =
    ctx.detail === 'full' ? fitText(pill.text, pill.labelMax, pageMeasure(FONTS.container)) : '';
  return (
    <g
      className={`ps-container ps-tone-${pill.tone}${unready ? ' is-unready' : ''}${selected ? ' is-selected' : ''}${ctx.related.has(pill.id) ? ' is-related' : ''}`}
      data-layer="container"
      data-id={pill.id}
      data-state={pill.state}
      {...(pill.readiness ? { 'data-ready': pill.readiness } : {})}
      {...(pill.reason ? { 'data-reason': pill.reason } : {})}
      {...itemProps(ctx, pill.id, 3)}
    >
      <title>{label}</title>
      <rect
        className="ps-container-bg"
        x={pill.x}
        y={pill.y}
        width={pill.w}
        height={pill.h}
        rx={4}
        stroke={color}
      />
      {ctx.pulses.has(pill.id) ? (
        <rect
          key={ctx.pulses.get(pill.id)}
          className="ps-pulse"
          x={pill.x}
          y={pill.y}
          width={pill.w}
          height={pill.h}
          rx={4}
          stroke={color}
        />
      ) : null}
      <StateGlyph tone={pill.tone} x={pill.x + 4} y={pill.y + 3} size={12} />
      {text ? (
        <text className="ps-container-label" x={pill.x + 19} y={pill.y + 12.6}>
          {text}
        </text>
      ) : null}
      {pill.sidecar ? (
        <path
          className="ps-sidecar-mark"
          d={`M${pill.x + pill.w - 7} ${pill.y} h7 v7 z`}
          fill={color}
        />
      ) : null}
    </g>
  );
}
