/**
 * The timeline's visible window in time. By default it fits the data: a recording from its start
 * to its end; a live source from its first buffered event to now, never narrower than a couple of
 * minutes (a console opened one minute after the server started does not squeeze everything
 * into the last few pixels of a quarter of an hour). The reader can zoom and pan it; a window
 * that reaches the live edge stays pinned to it and follows now. Pure: tested without a browser.
 */
import type { Edge } from '@/components/data/cursor';

export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * How the reader has set the window: fitted to the data, or a span that ends at a moment — or,
 * with no `end`, at the edge (it follows now while live).
 */
export type TimeView = { mode: 'fit' } | { mode: 'span'; span: number; end?: number };

export const FIT: TimeView = { mode: 'fit' };
/** A live window is never narrower than this when fitted (the data fills it as time passes). */
export const MIN_FIT_SPAN_MS = 2 * 60_000;
/** The closest the reader can zoom in. */
export const MIN_SPAN_MS = 10_000;
/** Room left before a live source's first event, as a fraction of the window. */
const LEAD = 0.04;
/** Zoom in/out factor of one button press or key. */
export const ZOOM_STEP = 1.6;

export interface WindowBounds {
  edge: Edge;
  /** When the data starts: the first buffered event (live), or the start of a recording. */
  dataFrom: number;
  live: boolean;
}

export function fitWindow({ edge, dataFrom, live }: WindowBounds): TimeWindow {
  const to = edge.to;
  if (!live) return { from: edge.from, to: Math.max(to, edge.from + 1000) };
  const start = Math.min(Math.max(dataFrom, edge.from), to);
  let from = Math.max(edge.from, to - (to - start) / (1 - LEAD));
  if (to - from < MIN_FIT_SPAN_MS) from = to - MIN_FIT_SPAN_MS;
  return { from, to };
}

/** The earliest moment the window may start at: the buffer's start, or the fitted window's. */
function lowest(b: WindowBounds): number {
  return Math.min(b.edge.from, fitWindow(b).from);
}

/** The widest the window may get: everything buffered, or the fitted window if that is wider. */
export function maxSpan(b: WindowBounds): number {
  return Math.max(b.edge.to - lowest(b), MIN_SPAN_MS);
}

export function visibleWindow(view: TimeView, b: WindowBounds): TimeWindow {
  if (view.mode === 'fit') return fitWindow(b);
  const span = Math.min(Math.max(view.span, MIN_SPAN_MS), maxSpan(b));
  const to = Math.min(view.end ?? b.edge.to, b.edge.to);
  const from = Math.max(to - span, lowest(b));
  return { from, to: from + span };
}

/** The view for a window: pinned when it reaches the edge; the fitted view when it is the fit. */
function viewOf(w: TimeWindow, b: WindowBounds): TimeView {
  const fit = fitWindow(b);
  const span = w.to - w.from;
  const pinned = w.to >= b.edge.to - 1;
  if (pinned && Math.abs(w.from - fit.from) < Math.max(1, span * 0.001)) return FIT;
  return pinned ? { mode: 'span', span } : { mode: 'span', span, end: w.to };
}

/**
 * Zooms by `factor` (< 1 in, > 1 out) keeping the moment `anchor` where it is on screen. Anchored
 * at the edge (the live cursor), the window stays pinned to now.
 */
export function zoomWindow(
  view: TimeView,
  factor: number,
  anchor: number,
  b: WindowBounds,
): TimeView {
  const w = visibleWindow(view, b);
  const span = w.to - w.from;
  const next = Math.min(Math.max(span * factor, MIN_SPAN_MS), maxSpan(b));
  const a = Math.min(Math.max(anchor, w.from), w.to);
  let from = a - (a - w.from) * (next / span);
  let to = from + next;
  if (to > b.edge.to) {
    to = b.edge.to;
    from = to - next;
  }
  const lo = lowest(b);
  if (from < lo) {
    from = lo;
    to = Math.min(b.edge.to, from + next);
  }
  return viewOf({ from, to }, b);
}

/** Moves the window by `deltaMs` (negative: earlier), within what can be shown. */
export function panWindow(view: TimeView, deltaMs: number, b: WindowBounds): TimeView {
  const w = visibleWindow(view, b);
  const span = w.to - w.from;
  const lo = lowest(b);
  const to = Math.min(Math.max(w.to + deltaMs, lo + span), b.edge.to);
  return viewOf({ from: to - span, to }, b);
}

/**
 * Keeps the moment `t` (the cursor) in view: a cursor that leaves the window on the right
 * brings the next stretch in with it a quarter of the way in; one that leaves on the left, three
 * quarters of the way in (the lead-up to it stays visible either way).
 */
export function followCursor(view: TimeView, t: number, b: WindowBounds): TimeView {
  const w = visibleWindow(view, b);
  if (t >= w.from && t <= w.to) return view;
  const span = w.to - w.from;
  const from = t > w.to ? t - span * 0.25 : t - span * 0.75;
  const lo = lowest(b);
  const start = Math.min(Math.max(from, lo), b.edge.to - span);
  return viewOf({ from: start, to: start + span }, b);
}
