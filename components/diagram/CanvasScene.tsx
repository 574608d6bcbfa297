'use client';
/**
 * Large clusters on a canvas. Clicks are hit-tested against the layout; an off-screen list keeps
 * nodes (and the selected node's pods) reachable for keyboards and screen readers, carrying the
 * same data-layer / data-id / data-state contract as the SVG scene.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useRef, type MouseEvent, type Ref } from 'react';
import { hitTest } from './hit';
import type { ClusterLayout, Detail } from './layout';
import { paintCluster } from './paint';

export interface CanvasSceneProps {
  ref?: Ref<HTMLCanvasElement>;
  layout: ClusterLayout;
  transform: { x: number; y: number; k: number };
  detail: Detail;
  selected: string | undefined;
  size: { width: number; height: number };
  onSelect: (id: string) => void;
}

function cssColor(el: Element, name: string, fallback: string): string {
  const v = getComputedStyle(el).getPropertyValue(name).trim();
  return v || fallback;
}

export function CanvasScene(props: CanvasSceneProps) {
  const t = useTranslations('ui.diagram');
  const { layout, transform, detail, selected, size, onSelect } = props;
  const local = useRef<HTMLCanvasElement | null>(null);

  useEffect(() => {
    const canvas = local.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(size.width * dpr);
    canvas.height = Math.round(size.height * dpr);
    paintCluster(ctx, layout, {
      width: size.width,
      height: size.height,
      transform,
      detail,
      selected,
      dpr,
      summaryText: (count) => t('summary', { count }),
      colors: {
        card: cssColor(canvas, '--ps-card', '#ffffff'),
        cardBorder: cssColor(canvas, '--ps-border', '#d0d4da'),
        tile: cssColor(canvas, '--ps-tile', '#ffffff'),
        text: cssColor(canvas, '--ps-text', '#1b1f24'),
        muted: cssColor(canvas, '--ps-muted', '#5b6470'),
        selection: cssColor(canvas, '--ps-selection', '#111111'),
      },
    });
  }, [layout, transform, detail, selected, size, t]);

  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = (e.clientX - r.left - transform.x) / transform.k;
    const y = (e.clientY - r.top - transform.y) / transform.k;
    const hit = hitTest(layout, x, y, detail);
    if (hit) onSelect(hit.id);
  };

  const open = layout.nodes.find(
    (n) =>
      n.id === selected ||
      n.pods.some((p) => p.id === selected || selected?.startsWith(`${p.id}/`)),
  );
  return (
    <>
      <canvas
        ref={(el) => {
          local.current = el;
          if (typeof props.ref === 'function') props.ref(el);
          else if (props.ref) props.ref.current = el;
        }}
        className="ps-scene ps-canvas"
        style={{ width: size.width, height: size.height }}
        onClick={onClick}
        role="img"
        aria-label={t('canvasLabel', { nodes: layout.nodes.length, pods: layout.podCount })}
      />
      <ul className="ps-visually-hidden" aria-label={t('label')}>
        {layout.nodes.map((n) => (
          <li key={n.id}>
            <button
              type="button"
              data-layer="node"
              data-id={n.id}
              data-state={n.state}
              onClick={() => onSelect(n.id)}
            >
              {t('nodeLabel', {
                name: n.id,
                ready: n.node.conditions.find((c) => c.type === 'Ready')?.status ?? 'Unknown',
                pods: n.pods.length,
              })}
            </button>
            {open?.id === n.id ? (
              <ul>
                {n.pods.map((p) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      data-layer="pod"
                      data-id={p.id}
                      data-state={p.state}
                      onClick={() => onSelect(p.id)}
                    >
                      {`${p.pod.namespace}/${p.pod.name}`}
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
