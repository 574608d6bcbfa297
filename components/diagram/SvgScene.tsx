'use client';
/** Draws a cluster layout as SVG (React owns every element; the transform comes from d3-zoom). */
import type { KeyboardEvent, Ref } from 'react';
import { useMemo } from 'react';
import type { ClusterLayout, Detail } from './layout';
import { NodeCard } from './svg/NodeCard';
import type { SceneContext } from './svg/scene';

export interface SvgSceneProps {
  ref?: Ref<SVGSVGElement>;
  layout: ClusterLayout;
  transform: { x: number; y: number; k: number };
  detail: Detail;
  selected: string | undefined;
  focusId: string | undefined;
  pulses: ReadonlyMap<string, number>;
  onSelect: (id: string) => void;
  onFocus: (id: string) => void;
  onBackground: () => void;
  onKeyDown?: (e: KeyboardEvent) => void;
  label: string;
}

/** The selection's ancestors: drawn as "contains the selection". */
function ancestors(layout: ClusterLayout, id: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!id) return out;
  for (const node of layout.nodes) {
    for (const pod of node.pods) {
      if (pod.id === id || pod.pills.some((p) => p.id === id)) {
        out.add(node.id);
        if (pod.id !== id) out.add(pod.id);
      }
    }
  }
  return out;
}

export function SvgScene({
  ref,
  layout,
  transform,
  detail,
  selected,
  focusId,
  pulses,
  onSelect,
  onFocus,
  onBackground,
  onKeyDown,
  label,
}: SvgSceneProps) {
  const related = useMemo(() => ancestors(layout, selected), [layout, selected]);
  const ctx: SceneContext = {
    detail,
    k: transform.k,
    selected,
    focusId,
    pulses,
    related,
    onSelect,
    onFocus,
  };
  return (
    <svg
      ref={ref}
      className="ps-scene"
      role="tree"
      aria-label={label}
      onKeyDown={onKeyDown}
      onClick={onBackground}
    >
      <g transform={`translate(${transform.x} ${transform.y}) scale(${transform.k})`}>
        {layout.nodes.map((n) => (
          <NodeCard key={n.id} node={n} ctx={ctx} />
        ))}
      </g>
    </svg>
  );
}
