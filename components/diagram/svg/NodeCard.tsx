'use client';
import { useTranslations } from 'next-intl';
import { StateGlyph } from '@/components/visual/StateIcon';
import { TONE_COLOR } from '@/components/visual/palette';
import type { NodeLayout } from '../layout';
import { NodeSummary } from './NodeSummary';
import { PodTile } from './PodTile';
import { itemProps, type SceneContext } from './scene';

/** Approximate width of the meta text (11 px system font: ~6.2 px per character). */
const META_CHAR_PX = 6.2;

function metaY(node: NodeLayout): number {
  const pill = node.conditions[0];
  return pill ? pill.y + pill.h - 3 : node.y + 42;
}

function metaFits(node: NodeLayout, text: string): boolean {
  if (!text) return false;
  const pillsEnd = node.conditions.reduce((end, c) => Math.max(end, c.x + c.w), node.x + 10);
  return pillsEnd + 12 + text.length * META_CHAR_PX <= node.x + node.w - 10;
}

export function NodeCard({ node, ctx }: { node: NodeLayout; ctx: SceneContext }) {
  const t = useTranslations('ui.diagram');
  const ready = node.node.conditions.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  const label = t('nodeLabel', { name: node.id, ready, pods: node.pods.length });
  const color = TONE_COLOR[node.tone];
  const selected = ctx.selected === node.id;
  const runtime = node.node.runtime ? `${node.node.runtime.name} ${node.node.runtime.version}` : '';
  const disconnected = !node.node.health.connected;
  return (
    <g
      className={`ps-node ps-tone-${node.tone}${selected ? ' is-selected' : ''}${ctx.related.has(node.id) ? ' is-related' : ''}`}
      data-layer="node"
      data-id={node.id}
      data-state={node.state}
      {...itemProps(ctx, node.id, 1)}
      aria-expanded={ctx.detail !== 'summary'}
    >
      <title>{label}</title>
      <rect className="ps-node-bg" x={node.x} y={node.y} width={node.w} height={node.h} rx={12} />
      {ctx.detail === 'summary' ? null : (
        <rect className="ps-node-header" x={node.x} y={node.y} width={node.w} height={52} rx={12} />
      )}
      <rect
        className="ps-node-accent"
        x={node.x}
        y={node.y}
        width={node.w}
        height={4}
        rx={2}
        fill={color}
      />
      {ctx.pulses.has(node.id) ? (
        <rect
          key={ctx.pulses.get(node.id)}
          className="ps-pulse"
          x={node.x}
          y={node.y}
          width={node.w}
          height={node.h}
          rx={12}
          stroke={color}
        />
      ) : null}
      {ctx.detail === 'summary' ? (
        <NodeSummary node={node} k={ctx.k} />
      ) : (
        <>
          <StateGlyph tone={node.tone} x={node.x + 10} y={node.y + 11} size={13} />
          <text className="ps-node-label" x={node.x + 29} y={node.y + 22}>
            {node.id}
          </text>
          {node.node.drift && node.node.drift.length > 0 ? (
            // The node's own disagreements with the API server (a silent kubelet, a condition,
            // pods it does not have): the same mark as a drifting pod's, top right.
            <g className="ps-badge ps-badge-drift" data-badge="drift">
              <title>{t('badge.drift')}</title>
              <circle cx={node.x + node.w - 16} cy={node.y + 18} r={8} />
              <text x={node.x + node.w - 16} y={node.y + 21.5} textAnchor="middle">
                ≠
              </text>
            </g>
          ) : null}
          {/* The runtime goes on the pills row, right-aligned, only where the pills leave room for it
              (the name row belongs to the node name; the panel always shows the runtime). */}
          {metaFits(node, disconnected ? t('disconnected') : runtime) ? (
            <text
              className="ps-node-meta"
              x={node.x + node.w - 10}
              y={metaY(node)}
              textAnchor="end"
            >
              {disconnected ? t('disconnected') : runtime}
            </text>
          ) : null}
          {node.conditions.map((c) => (
            <g
              key={c.type}
              className={`ps-cond ps-tone-${c.tone}`}
              data-condition={c.folded ? undefined : c.type}
              data-status={c.status || undefined}
            >
              <title>{c.folded ? c.folded.join(', ') : `${c.type}=${c.status}`}</title>
              <rect x={c.x} y={c.y} width={c.w} height={c.h} rx={8} stroke={TONE_COLOR[c.tone]} />
              {c.folded ? null : <StateGlyph tone={c.tone} x={c.x + 4} y={c.y + 3} size={10} />}
              <text
                x={c.folded ? c.x + c.w / 2 : c.x + 16}
                y={c.y + 11.5}
                textAnchor={c.folded ? 'middle' : 'start'}
              >
                {c.type}
              </text>
            </g>
          ))}
          <g role="group">
            {node.pods.map((p) => (
              <PodTile key={p.id} pod={p} ctx={ctx} />
            ))}
          </g>
        </>
      )}
    </g>
  );
}
