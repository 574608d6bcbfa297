'use client';
/**
 * A node zoomed out: its name, a health bar and pods counted by state, readable however many
 * nodes share the screen (geometry in ../summary.ts).
 */
import { useTranslations } from 'next-intl';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONES, TONE_COLOR } from '@/components/visual/palette';
import type { NodeLayout } from '../layout';
import { summaryLayout } from '../summary';

export function NodeSummary({ node, k }: { node: NodeLayout; k: number }) {
  const t = useTranslations('ui.diagram');
  const total = TONES.reduce((n, tone) => n + node.counts[tone], 0);
  const unhealthy = node.node.conditions.filter((c) =>
    c.type === 'Ready' ? c.status !== 'True' : c.status !== 'False',
  );
  const l = summaryLayout(node, k, unhealthy.length);
  return (
    <g
      className="ps-node-summary"
      transform={`translate(${l.origin.x} ${l.origin.y}) scale(${l.s})`}
    >
      <StateGlyph tone={node.tone} x={0} y={1} size={13} />
      <text className="ps-node-label" x={18} y={12}>
        {node.id}
      </text>
      {l.conditionsY !== undefined ? (
        <text className="ps-summary-conditions" y={l.conditionsY}>
          {unhealthy.map((c) => `${c.type}=${c.status}`).join(' ')}
        </text>
      ) : null}
      <g className="ps-health-bar">
        {l.bar.segments.map((s) => (
          <rect
            key={s.tone}
            x={s.x}
            y={l.bar.y}
            width={s.w}
            height={l.bar.h}
            fill={TONE_COLOR[s.tone]}
          />
        ))}
      </g>
      <text className="ps-summary-total" y={l.totalY}>
        {t('summary', { count: total })}
      </text>
      {l.counts.map((c) => (
        <g key={c.tone} transform={`translate(${c.x} ${c.y - 11})`}>
          <StateGlyph tone={c.tone} x={0} y={1} size={11} />
          <text className="ps-summary-count" x={15} y={10.5}>
            {c.count}
          </text>
        </g>
      ))}
    </g>
  );
}
