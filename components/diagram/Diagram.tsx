'use client';
/**
 * The cluster diagram: nodes → pods → containers at the cursor, with d3-zoom for pan and zoom
 * and a level of detail that follows the zoom. React owns the SVG; d3 only does the maths and
 * listens for gestures. Above CANVAS_THRESHOLD pods a canvas painter takes over the drawing.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior } from 'd3';
import { useCluster } from '@/components/data/ClusterProvider';
import { CanvasScene, type CanvasPainter } from './CanvasScene';
import {
  DEFAULT_MAX_FIT_ZOOM,
  detailAt,
  fitTransform,
  layoutCluster,
  type ClusterLayout,
} from './layout';
import { isNavKey, navigate } from './navigate';
import { recentChanges } from './pulses';
import { SvgScene } from './SvgScene';
import { useElementSize } from './use-element-size';
import { useStableSlots } from './use-stable-slots';
import './diagram.css';

export const CANVAS_THRESHOLD = 1500;
/** Below this width the diagram grows downwards instead of shrinking to fit. */
const NARROW = 600;
const ZOOM_STRIP = 40;
const NO_PULSES: ReadonlyMap<string, number> = new Map();

/**
 * On a phone the details panel sits below the diagram, out of sight: a tap that selects
 * something brings it into view (where it is already on screen, nothing moves).
 */
function revealPanel(): void {
  if (typeof window === 'undefined' || !window.matchMedia('(max-width: 900px)').matches) return;
  const panel = document.getElementById('ps-panel');
  if (!panel || panel.getBoundingClientRect().top < window.innerHeight - 120) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  panel.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
}

interface Transform {
  x: number;
  y: number;
  k: number;
}

export function Diagram({
  maxZoom = DEFAULT_MAX_FIT_ZOOM,
}: {
  /** The largest zoom fitting the cluster to the view may use (the reader can zoom further). */
  maxZoom?: number;
} = {}) {
  const t = useTranslations('ui.diagram');
  const { state, selection, actions, buffered, cursor, t: now, speed } = useCluster();
  const [box, size] = useElementSize<HTMLDivElement>();
  const svgRef = useRef<SVGSVGElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const painterRef = useRef<CanvasPainter | null>(null);
  const zoomRef = useRef<ZoomBehavior<Element, unknown> | null>(null);
  const [transform, setTransform] = useState<Transform>({ x: 0, y: 0, k: 1 });
  const userZoomed = useRef(false);
  const [focusId, setFocusId] = useState<string | undefined>(undefined);

  const slots = useStableSlots(state);
  // On a phone the page scrolls: lay the cluster out for the width, as tall as it needs.
  const narrow = size.width > 0 && size.width < NARROW;
  const vp = useMemo(
    () => ({
      width: Math.max(size.width, 1),
      // A portrait page's worth of height picks the grid; the drawing then grows as needed.
      height: narrow ? size.width * 1.6 : Math.max(size.height, 1),
    }),
    [size.width, size.height, narrow],
  );
  const layout: ClusterLayout = useMemo(() => layoutCluster(state, slots, vp), [state, slots, vp]);
  // Fitting leaves the zoom buttons' strip on the right free (narrow screens scroll instead).
  const fitVp = useMemo(
    () =>
      narrow
        ? { width: vp.width, height: 1e6 }
        : { width: vp.width - ZOOM_STRIP, height: vp.height },
    [narrow, vp],
  );
  const tallHeight = narrow
    ? Math.ceil(layout.height * fitTransform(layout, fitVp, 16, maxZoom).k) + 32
    : undefined;
  const mode = layout.podCount > CANVAS_THRESHOLD ? 'canvas' : 'svg';
  const detail = detailAt(transform.k);

  // Attach d3-zoom to whichever surface is drawing; it only reports transforms. The canvas is
  // painted straight from the gesture, one paint per frame, and React hears of the transform
  // when the gesture ends or the level of detail changes: a pan re-renders nothing.
  useEffect(() => {
    const el = mode === 'svg' ? svgRef.current : canvasRef.current;
    if (!el) return;
    let committed: Transform | undefined;
    let latest: Transform | undefined;
    const commit = (tr: Transform) => {
      committed = tr;
      setTransform(tr);
    };
    const behaviour = d3zoom<Element, unknown>()
      .scaleExtent([0.01, 6])
      .on('zoom', (event: { transform: Transform; sourceEvent: unknown }) => {
        if (event.sourceEvent) userZoomed.current = true;
        const tr = { x: event.transform.x, y: event.transform.y, k: event.transform.k };
        latest = tr;
        const painter = painterRef.current;
        if (mode === 'canvas' && painter && committed && detailAt(tr.k) === detailAt(committed.k))
          painter.setTransform(tr);
        else commit(tr);
      })
      .on('end', () => {
        if (latest && latest !== committed) commit(latest);
      });
    zoomRef.current = behaviour;
    const sel = select<Element, unknown>(el);
    sel.call(behaviour).on('dblclick.zoom', null);
    return () => {
      sel.on('.zoom', null);
    };
  }, [mode]);

  const applyTransform = useCallback(
    (tr: Transform) => {
      const el = mode === 'svg' ? svgRef.current : canvasRef.current;
      const behaviour = zoomRef.current;
      if (!el || !behaviour) {
        setTransform(tr);
        return;
      }
      select<Element, unknown>(el).call((sel) =>
        behaviour.transform(sel, zoomIdentity.translate(tr.x, tr.y).scale(tr.k)),
      );
    },
    [mode],
  );

  const fit = useCallback(() => {
    userZoomed.current = false;
    applyTransform(fitTransform(layout, fitVp, 16, maxZoom));
  }, [applyTransform, layout, fitVp, maxZoom]);

  // Fit on first draw and whenever the cluster's outline or the viewport changes, unless the
  // user has zoomed themselves.
  const { width: outlineWidth, height: outlineHeight } = layout;
  useEffect(() => {
    if (!userZoomed.current && size.width > 0)
      applyTransform(
        fitTransform({ width: outlineWidth, height: outlineHeight }, fitVp, 16, maxZoom),
      );
  }, [applyTransform, outlineWidth, outlineHeight, fitVp, size.width, maxZoom]);

  const zoomBy = (factor: number) => {
    const el = mode === 'svg' ? svgRef.current : canvasRef.current;
    const behaviour = zoomRef.current;
    if (el && behaviour) {
      userZoomed.current = true;
      select<Element, unknown>(el).call((sel) => behaviour.scaleBy(sel, factor));
    }
  };

  // Pulses are recomputed four times a second at most, not every frame: at the quarter second.
  const pulseAt = Math.floor(now / 250) * 250;
  // Only the SVG scene draws them.
  const pulses = useMemo(
    () =>
      buffered && cursor.mode !== 'paused' && mode === 'svg'
        ? recentChanges(buffered.buffer, pulseAt, 1500 * Math.max(1, speed))
        : NO_PULSES,
    [buffered, cursor.mode, pulseAt, speed, mode],
  );

  const onKeyDown = (e: KeyboardEvent) => {
    if (isNavKey(e.key)) {
      e.preventDefault();
      e.stopPropagation();
      const next = navigate(layout, focusId, e.key);
      if (next) {
        setFocusId(next);
        const el = svgRef.current?.querySelector<SVGElement>(`[data-id="${CSS.escape(next)}"]`);
        el?.focus();
      }
    } else if (e.key === 'Enter' && focusId) {
      e.preventDefault();
      actions.select(focusId);
    }
  };

  const empty = layout.nodes.length === 0;
  return (
    <div
      className={narrow ? 'ps-diagram is-tall' : 'ps-diagram'}
      ref={box}
      style={tallHeight !== undefined ? { height: Math.min(tallHeight, 1600) } : undefined}
    >
      {mode === 'svg' ? (
        <SvgScene
          ref={svgRef}
          layout={layout}
          transform={transform}
          detail={detail}
          selected={selection}
          focusId={focusId ?? layout.nodes[0]?.id}
          pulses={pulses}
          onSelect={(id) => {
            actions.select(id);
            revealPanel();
          }}
          onFocus={setFocusId}
          onBackground={() => actions.select(undefined)}
          onKeyDown={onKeyDown}
          label={t('label')}
        />
      ) : (
        <CanvasScene
          ref={canvasRef}
          painter={painterRef}
          layout={layout}
          transform={transform}
          detail={detail}
          selected={selection}
          size={vp}
          onSelect={(id) => {
            actions.select(id);
            revealPanel();
          }}
        />
      )}
      {empty ? <p className="ps-diagram-empty">{t('empty')}</p> : null}
      <div className="ps-zoom" role="group" aria-label={t('zoom.label')}>
        <button
          type="button"
          onClick={() => zoomBy(1.4)}
          aria-label={t('zoom.in')}
          title={t('zoom.in')}
        >
          +
        </button>
        <button
          type="button"
          onClick={() => zoomBy(1 / 1.4)}
          aria-label={t('zoom.out')}
          title={t('zoom.out')}
        >
          −
        </button>
        <button type="button" onClick={fit} aria-label={t('zoom.fit')} title={t('zoom.fit')}>
          ⤢
        </button>
      </div>
    </div>
  );
}
