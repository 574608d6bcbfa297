'use client';
/**
 * Every node as one cell on ONE canvas, with d3-zoom for wheel, pinch and drag. The painter runs
 * straight from the gesture, once per frame; React hears of the transform when a gesture ends
 * (the nodes in view, the level). Hover names a node and its counts, a click selects it, and the
 * keyboard moves between cells (arrows), selects (Enter) and zooms (+, −, 0).
 */
import { useTranslations } from 'next-intl';
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior } from 'd3';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type Ref,
} from 'react';
import type { Tone } from '@/components/visual/palette';
import type { OverviewCells } from '@/lib/overview/wire';
import { CELL, PITCH, fitOverview, hitCell, type OverviewLayout } from './grid';
import { levelAt, type Level } from './levels';
import { paintOverview, type OverviewPaint } from './paint';

export interface Transform {
  x: number;
  y: number;
  k: number;
}

export interface OverviewCanvasHandle {
  zoomBy(factor: number): void;
  zoomTo(k: number): void;
  fit(): void;
  /** Centres a cell (a search hit, an attention row). */
  reveal(index: number, k?: number): void;
}

type Colors = OverviewPaint['colors'];

function readColors(el: Element): Colors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--ps-text', '#1b1f24'),
    muted: v('--ps-muted', '#5b6470'),
    selection: v('--ps-selection', '#111111'),
    highlight: v('--ps-accent', '#0072b2'),
    mark: v('--ps-surface', '#ffffff'),
  };
}

export function OverviewCanvas({
  ref,
  layout,
  cells,
  size,
  headings,
  highlight,
  selected,
  pods,
  onSelect,
  onView,
}: {
  ref?: Ref<OverviewCanvasHandle>;
  layout: OverviewLayout;
  cells: OverviewCells;
  size: { width: number; height: number };
  headings: readonly string[];
  highlight: Uint8Array | undefined;
  selected: number | undefined;
  pods: ReadonlyMap<string, readonly Tone[]>;
  onSelect: (index: number) => void;
  /** The transform once a gesture settles (or the level changes mid-gesture). */
  onView: (tr: Transform, level: Exclude<Level, 'diagram'>) => void;
}) {
  const t = useTranslations('ui.overview');
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const tr = useRef<Transform>({ x: 0, y: 0, k: 1 });
  const frame = useRef<number | undefined>(undefined);
  const colors = useRef<Colors | undefined>(undefined);
  const [hover, setHover] = useState<{ index: number; x: number; y: number } | undefined>();
  const [focus, setFocus] = useState<number | undefined>(undefined);
  const userZoomed = useRef(false);
  const scene = useRef({ layout, cells, size, headings, highlight, selected, pods, hover: -1 });

  const paint = useCallback(() => {
    frame.current = undefined;
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const s = scene.current;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(s.size.width * dpr);
    const h = Math.round(s.size.height * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    colors.current ??= readColors(canvas);
    paintOverview(ctx, s.layout, s.cells, {
      width: s.size.width,
      height: s.size.height,
      dpr,
      transform: tr.current,
      level: levelAt(tr.current.k),
      highlight: s.highlight,
      selected: s.selected,
      hover: s.hover >= 0 ? s.hover : undefined,
      pods: s.pods,
      headings: s.headings,
      colors: colors.current,
    });
  }, []);

  const schedule = useCallback(() => {
    if (frame.current === undefined) frame.current = requestAnimationFrame(paint);
  }, [paint]);

  useEffect(
    () => () => {
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  useEffect(() => {
    scene.current = {
      layout,
      cells,
      size,
      headings,
      highlight,
      selected,
      pods,
      hover: hover?.index ?? focus ?? -1,
    };
    schedule();
  }, [layout, cells, size, headings, highlight, selected, pods, hover, focus, schedule]);

  const onViewRef = useRef(onView);
  useEffect(() => {
    onViewRef.current = onView;
  }, [onView]);

  useEffect(() => {
    const el = canvasRef.current;
    if (!el) return;
    let level = levelAt(tr.current.k);
    const behaviour = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.05, 60])
      .on('zoom', (e: { transform: Transform; sourceEvent: unknown }) => {
        if (e.sourceEvent) userZoomed.current = true;
        tr.current = { x: e.transform.x, y: e.transform.y, k: e.transform.k };
        schedule();
        const now = levelAt(tr.current.k);
        if (now !== level) {
          level = now;
          onViewRef.current(tr.current, now);
        }
      })
      .on('end', () => onViewRef.current(tr.current, levelAt(tr.current.k)));
    zoomRef.current = behaviour;
    const sel = select(el);
    sel.call(behaviour).on('dblclick.zoom', null);
    return () => {
      sel.on('.zoom', null);
    };
  }, [schedule]);

  const apply = useCallback((next: Transform) => {
    const el = canvasRef.current;
    const behaviour = zoomRef.current;
    if (!el || !behaviour) return;
    select(el).call((s) =>
      behaviour.transform(s, zoomIdentity.translate(next.x, next.y).scale(next.k)),
    );
  }, []);

  // Fit on first draw and when the layout or the viewport changes, unless the reader zoomed.
  useEffect(() => {
    if (size.width > 0 && !userZoomed.current) apply(fitOverview(layout, size));
  }, [layout, size, apply]);

  const around = useCallback(
    (k: number, cx = size.width / 2, cy = size.height / 2): Transform => {
      const c = tr.current;
      const wx = (cx - c.x) / c.k;
      const wy = (cy - c.y) / c.k;
      return { k, x: cx - wx * k, y: cy - wy * k };
    },
    [size],
  );

  useImperativeHandle(
    ref,
    () => ({
      zoomBy: (f) => {
        userZoomed.current = true;
        apply(around(tr.current.k * f));
      },
      zoomTo: (k) => {
        userZoomed.current = true;
        apply(around(k));
      },
      fit: () => {
        userZoomed.current = false;
        apply(fitOverview(layout, size));
      },
      reveal: (i, k) => {
        const x = layout.x[i];
        const y = layout.y[i];
        if (x === undefined || y === undefined || Number.isNaN(x)) return;
        userZoomed.current = true;
        const kk = k ?? tr.current.k;
        apply({
          k: kk,
          x: size.width / 2 - (x + CELL / 2) * kk,
          y: size.height / 2 - (y + CELL / 2) * kk,
        });
      },
    }),
    [apply, around, layout, size],
  );

  const at = (e: MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const sx = e.clientX - r.left;
    const sy = e.clientY - r.top;
    const c = tr.current;
    return { i: hitCell(layout, (sx - c.x) / c.k, (sy - c.y) / c.k), sx, sy };
  };

  const onMove = (e: MouseEvent<HTMLCanvasElement>) => {
    const { i, sx, sy } = at(e);
    setHover((h) =>
      i === undefined ? undefined : h?.index === i ? h : { index: i, x: sx, y: sy },
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const order = layout.order;
    const pos = focus === undefined ? -1 : order.indexOf(focus);
    const step: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: layout.cols,
      ArrowUp: -layout.cols,
    };
    if (e.key in step) {
      e.preventDefault();
      e.stopPropagation();
      const next = order[Math.min(order.length - 1, Math.max(0, pos + (step[e.key] ?? 0)))];
      if (next !== undefined) {
        setFocus(next);
        let x = (layout.x[next] ?? 0) * tr.current.k + tr.current.x;
        let y = (layout.y[next] ?? 0) * tr.current.k + tr.current.y;
        if (x < 0 || y < 0 || x > size.width - PITCH || y > size.height - PITCH) {
          reveal(next);
          x = size.width / 2;
          y = size.height / 2;
        }
        setHover({ index: next, x, y });
      }
    } else if (e.key === 'Enter' && focus !== undefined) {
      e.preventDefault();
      onSelect(focus);
    } else if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      apply(around(tr.current.k * 1.5));
    } else if (e.key === '-' || e.key === '_') {
      e.preventDefault();
      apply(around(tr.current.k / 1.5));
    } else if (e.key === '0') {
      e.preventDefault();
      apply(fitOverview(layout, size));
    }
  };
  const reveal = (i: number) => {
    const x = layout.x[i] ?? 0;
    const y = layout.y[i] ?? 0;
    const k = tr.current.k;
    apply({ k, x: size.width / 2 - (x + CELL / 2) * k, y: size.height / 2 - (y + CELL / 2) * k });
  };

  const shown = hover?.index;
  const tip =
    shown !== undefined
      ? t('tip', {
          name: cells.names[shown] ?? '',
          ready: cells.ready[shown] || '—',
          pods: cells.pods[shown] ?? 0,
          notReady: cells.notReady[shown] ?? 0,
        })
      : undefined;
  const tipAt = hover;
  return (
    <>
      <canvas
        ref={canvasRef}
        className="ps-overview-canvas"
        style={{ width: size.width, height: size.height }}
        tabIndex={0}
        role="application"
        aria-roledescription={t('roledescription')}
        aria-label={t('canvasLabel', { nodes: layout.order.length })}
        aria-describedby="ps-overview-tip"
        onMouseMove={onMove}
        onMouseLeave={() => setHover(undefined)}
        onClick={(e) => {
          const { i } = at(e);
          if (i !== undefined) {
            setFocus(i);
            onSelect(i);
          }
        }}
        onKeyDown={onKeyDown}
      />
      <div
        id="ps-overview-tip"
        className="ps-overview-tip"
        role="status"
        hidden={tip === undefined}
        style={
          tipAt
            ? {
                left: Math.min(tipAt.x + 14, Math.max(0, size.width - 240)),
                top: Math.min(tipAt.y + 14, Math.max(0, size.height - 40)),
              }
            : undefined
        }
      >
        {tip}
      </div>
    </>
  );
}
