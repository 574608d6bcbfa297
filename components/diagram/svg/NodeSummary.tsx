'use client';
/**
 * A node zoomed out: pods counted by state and a health bar, drawn at a constant on-screen size
 * (counter-scaled by the zoom) so it stays readable however many nodes share the screen.
 */
import { useTranslations } from 'next-intl';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONES, TONE_COLOR } from '@/components/visual/palette';
import type { NodeLayout } from '../layout';

export function NodeSummary({ node, k }: { node: NodeLayout; k: number }) {
  const t = useTranslations('ui.diagram');
  const total = TONES.reduce((n, tone) => n + node.counts[tone], 0);
  // Counter-scale, but never wider than the card itself.
  const scale = Math.min(1 / Math.max(k, 1e-3), node.w / 190);
  const unhealthy = node.node.conditions.filter((c) =>
    c.type === 'Ready' ? c.status !== 'True' : c.status !== 'False',
  );
  const top = node.y + 10 + 44 * scale;
  const barW = node.w - 20;
  const present = TONES.filter((tone) => node.counts[tone] > 0);
  // Each segment starts where the ones before it end.
  const segments = present.map((tone, i) => ({
    tone,
    x:
      node.x +
      10 +
      present
        .slice(0, i)
        .reduce((sum, t) => sum + (total > 0 ? (node.counts[t] / total) * barW : 0), 0),
    w: total > 0 ? (node.counts[tone] / total) * barW : 0,
  }));
  return (
    <g className="ps-node-summary">
      <g transform={`translate(${node.x + 10} ${node.y + 10}) scale(${scale})`}>
        <StateGlyph tone={node.tone} x={0} y={2} size={14} />
        <text className="ps-node-label" x={20} y={14}>
          {node.id}
        </text>
        <text className="ps-summary-conditions" y={34}>
          {unhealthy.map((c) => `${c.type}=${c.status}`).join('  ')}
        </text>
      </g>
      <g className="ps-health-bar">
        {segments.map((s) => (
          <rect
            key={s.tone}
            x={s.x}
            y={top}
            width={s.w}
            height={Math.min(14 * scale, node.h / 6)}
            fill={TONE_COLOR[s.tone]}
          />
        ))}
      </g>
      <g
        transform={`translate(${node.x + 10} ${top + Math.min(14 * scale, node.h / 6) + 6 * scale}) scale(${scale})`}
      >
        <text className="ps-summary-total" y={13}>
          {t('summary', { count: total })}
        </text>
        {TONES.filter((tone) => node.counts[tone] > 0).map((tone, i) => (
          <g key={tone} transform={`translate(${i * 58} 20)`}>
            <StateGlyph tone={tone} x={0} y={2} size={12} />
            <text className="ps-summary-count" x={16} y={12}>
              {node.counts[tone]}
            </text>
          </g>
        ))}
      </g>
    </g>
  );
}
