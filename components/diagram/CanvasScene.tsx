'use client';
/**
 * Large clusters on a canvas. Clicks are hit-tested against the layout; an off-screen list keeps
 * nodes (and the selected node's pods) reachable for keyboards and screen readers, carrying the
 * same data-layer / data-id / data-state contract as the SVG scene.
 */
import { useTranslations } from 'next-intl';
import {
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  type MouseEvent,
  type Ref,
} from 'react';
import { hitTest } from './hit';
import type { ClusterLayout, Detail, NodeLayout } from './layout';
import { paintCluster, type PaintOptions } from './paint';

export interface CanvasSceneProps {
  ref?: Ref<HTMLCanvasElement>;
  /** Receives the painter: Diagram hands it each transform of a gesture, outside React. */
  painter?: Ref<CanvasPainter | null>;
  layout: ClusterLayout;
  transform: { x: number; y: number; k: number };
  detail: Detail;
  selected: string | undefined;
  size: { width: number; height: number };
  onSelect: (id: string) => void;
}

/** Paints the canvas at a transform on the next animation frame (the latest one wins). */
export interface CanvasPainter {
  setTransform(tr: { x: number; y: number; k: number }): void;
}

type Colors = PaintOptions['colors'];

function cssColor(el: Element, name: string, fallback: string): string {
  const v = getComputedStyle(el).getPropertyValue(name).trim();
  return v || fallback;
}

function readColors(el: Element): Colors {
  return {
    card: cssColor(el, '--ps-card', '#ffffff'),
    cardBorder: cssColor(el, '--ps-border', '#d0d4da'),
    tile: cssColor(el, '--ps-tile', '#ffffff'),
    text: cssColor(el, '--ps-text', '#1b1f24'),
    muted: cssColor(el, '--ps-muted', '#5b6470'),
    selection: cssColor(el, '--ps-selection', '#111111'),
  };
}

export function CanvasScene(props: CanvasSceneProps) {
  const t = useTranslations('ui.diagram');
  const { layout, transform, detail, selected, size, onSelect, painter } = props;
  const local = useRef<HTMLCanvasElement | null>(null);
  // What the next paint draws. The transform follows the prop when the prop changes, and each
  // transform a gesture reports in between (Diagram commits those to React only when it ends).
  const scene = useRef({ layout, detail, selected, size, transform });
  const colors = useRef<Colors | undefined>(undefined);
  const frame = useRef<number | undefined>(undefined);
  const painted = useRef({ width: 0, height: 0, dpr: 0 });
  // "98 pods" in the reader's language, formatted once per count rather than per node per frame.
  const summaries = useMemo(() => ({ t, text: new Map<number, string>() }), [t]);

  const paint = useCallback(() => {
    frame.current = undefined;
    const canvas = local.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const { layout: l, detail: d, selected: sel, size: sz, transform: tr } = scene.current;
    const dpr = window.devicePixelRatio || 1;
    const p = painted.current;
    // Resizing the backing store clears and reallocates it: only when the size changes.
    if (p.width !== sz.width || p.height !== sz.height || p.dpr !== dpr) {
      canvas.width = Math.round(sz.width * dpr);
      canvas.height = Math.round(sz.height * dpr);
      painted.current = { width: sz.width, height: sz.height, dpr };
    }
    colors.current ??= readColors(canvas);
    paintCluster(ctx, l, {
      width: sz.width,
      height: sz.height,
      transform: tr,
      detail: d,
      selected: sel,
      dpr,
      summaryText: (count) => {
        let text = summaries.text.get(count);
        if (text === undefined) {
          text = summaries.t('summary', { count });
          summaries.text.set(count, text);
        }
        return text;
      },
      colors: colors.current,
    });
  }, [summaries]);

  const schedule = useCallback(() => {
    if (frame.current !== undefined) return;
    frame.current = requestAnimationFrame(paint);
  }, [paint]);

  useEffect(
    () => () => {
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
      frame.current = undefined;
    },
    [],
  );

  // The palette follows the page's colour scheme; read it again when that changes.
  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (!mq) return;
    const onChange = () => {
      colors.current = undefined;
      schedule();
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [schedule]);

  // Content: paint on the next frame (many updates within one frame paint once).
  useEffect(() => {
    scene.current = { ...scene.current, layout, detail, selected, size };
    schedule();
  }, [layout, detail, selected, size, schedule]);
  useEffect(() => {
    scene.current = { ...scene.current, transform };
    schedule();
  }, [transform, schedule]);

  useImperativeHandle(
    painter,
    () => ({
      setTransform(tr) {
        scene.current = { ...scene.current, transform: tr };
        schedule();
      },
    }),
    [schedule],
  );

  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    // The transform on screen, which may be ahead of the prop in the middle of a gesture.
    const tr = scene.current.transform;
    const x = (e.clientX - r.left - tr.x) / tr.k;
    const y = (e.clientY - r.top - tr.y) / tr.k;
    const hit = hitTest(layout, x, y, detail);
    if (hit) onSelect(hit.id);
  };

  // A stable handler, so the memoised list items only re-render when their node changes.
  const selectRef = useRef(onSelect);
  useEffect(() => {
    selectRef.current = onSelect;
  }, [onSelect]);
  const select = useCallback((id: string) => selectRef.current(id), []);

  const open =
    selected === undefined
      ? undefined
      : layout.nodes.find(
          (n) =>
            n.id === selected ||
            n.pods.some((p) => p.id === selected || selected.startsWith(`${p.id}/`)),
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
          <NodeItem key={n.id} node={n} open={open?.id === n.id} onSelect={select} />
        ))}
      </ul>
    </>
  );
}

/** A node in the off-screen list (and its pods while one of them is selected). */
const NodeItem = memo(function NodeItem({
  node: n,
  open,
  onSelect,
}: {
  node: NodeLayout;
  open: boolean;
  onSelect: (id: string) => void;
}) {
  const t = useTranslations('ui.diagram');
  return (
    <li>
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
      {open ? (
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
  );
});
