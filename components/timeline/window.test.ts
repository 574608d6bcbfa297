import { describe, expect, it } from 'vitest';
import {
  FIT,
  MIN_FIT_SPAN_MS,
  MIN_SPAN_MS,
  fitWindow,
  followCursor,
  panWindow,
  visibleWindow,
  zoomWindow,
  type TimeView,
  type WindowBounds,
} from './window';

const NOW = Date.UTC(2026, 10, 29, 9, 30, 0);
const MIN = 60_000;

/** A live console whose history request reaches back 15 min, with data from `dataAgo` ago. */
const live = (dataAgo: number): WindowBounds => ({
  edge: { from: NOW - 15 * MIN, to: NOW },
  dataFrom: NOW - dataAgo,
  live: true,
});

describe('fitted window', () => {
  it('spans the data, not the whole history request, with a two-minute minimum', () => {
    // Recording started one minute ago: the window is two minutes, ending now.
    expect(fitWindow(live(1 * MIN))).toEqual({ from: NOW - MIN_FIT_SPAN_MS, to: NOW });
    // Six minutes of data: the window starts a little before the first event.
    const w = fitWindow(live(6 * MIN));
    expect(w.to).toBe(NOW);
    expect(w.from).toBeLessThan(NOW - 6 * MIN);
    expect(w.from).toBeGreaterThan(NOW - 7 * MIN);
    // Data older than the buffer: the buffer's start.
    expect(fitWindow(live(60 * MIN))).toEqual({ from: NOW - 15 * MIN, to: NOW });
  });

  it('shows a recording from its start to its end, however short', () => {
    const b: WindowBounds = { edge: { from: NOW - 15_000, to: NOW }, dataFrom: NOW, live: false };
    expect(fitWindow(b)).toEqual({ from: NOW - 15_000, to: NOW });
  });
});

describe('zoom and pan', () => {
  const b = live(10 * MIN);

  it('zooms in around the anchor, keeping it in place on screen', () => {
    const w = visibleWindow(FIT, b);
    const anchor = w.from + (w.to - w.from) * 0.25;
    const v = zoomWindow(FIT, 0.5, anchor, b);
    const z = visibleWindow(v, b);
    expect(z.to - z.from).toBeCloseTo((w.to - w.from) / 2, 0);
    expect((anchor - z.from) / (z.to - z.from)).toBeCloseTo(0.25, 6);
    expect(v).toMatchObject({ mode: 'span' });
    expect(v.mode === 'span' && v.end !== undefined).toBe(true);
  });

  it('keeps now pinned when zooming at the live edge, and the window then follows now', () => {
    const v = zoomWindow(FIT, 0.25, NOW, b);
    expect(v).toEqual({ mode: 'span', span: expect.any(Number) });
    const later = { ...b, edge: { from: b.edge.from, to: NOW + 30_000 } };
    expect(visibleWindow(v, later).to).toBe(NOW + 30_000);
  });

  it('stops at the closest zoom and at the whole buffer, and zooming back out returns to the fit', () => {
    let v: TimeView = FIT;
    for (let i = 0; i < 20; i++) v = zoomWindow(v, 0.5, NOW, b);
    const tight = visibleWindow(v, b);
    expect(tight.to - tight.from).toBe(MIN_SPAN_MS);
    for (let i = 0; i < 20; i++) v = zoomWindow(v, 2, NOW, b);
    const wide = visibleWindow(v, b);
    expect(wide).toEqual({ from: b.edge.from, to: NOW });
    // Short data: zooming out past the fit shows the buffer; the fit itself is reachable again.
    const short = live(1 * MIN);
    const inAndOut = zoomWindow(zoomWindow(FIT, 0.5, NOW, short), 2, NOW, short);
    expect(inAndOut).toEqual(FIT);
  });

  it('pans within the buffer and pins again at the edge', () => {
    const v = zoomWindow(FIT, 0.25, NOW, b);
    const earlier = panWindow(v, -2 * MIN, b);
    const w = visibleWindow(earlier, b);
    expect(w.to).toBe(NOW - 2 * MIN);
    expect(panWindow(earlier, -60 * MIN, b)).toMatchObject({ mode: 'span' });
    expect(visibleWindow(panWindow(earlier, -60 * MIN, b), b).from).toBe(b.edge.from);
    const back = panWindow(earlier, 10 * MIN, b);
    expect(back).toEqual({ mode: 'span', span: w.to - w.from });
  });
});

describe('following the cursor', () => {
  const b = live(10 * MIN);
  const zoomed = zoomWindow(FIT, 0.1, NOW, b);

  it('leaves the window alone while the cursor is inside it', () => {
    expect(followCursor(zoomed, NOW - 1000, b)).toBe(zoomed);
  });

  it('brings a cursor that left on the left back three quarters of the way in', () => {
    const t = NOW - 8 * MIN;
    const w = visibleWindow(followCursor(zoomed, t, b), b);
    expect(t).toBeGreaterThanOrEqual(w.from);
    expect((t - w.from) / (w.to - w.from)).toBeCloseTo(0.75, 6);
  });

  it('brings a cursor that left on the right in a quarter of the way, pinned once it reaches now', () => {
    const past = panWindow(zoomed, -6 * MIN, b);
    const t = visibleWindow(past, b).to + 1000;
    const w = visibleWindow(followCursor(past, t, b), b);
    expect((t - w.from) / (w.to - w.from)).toBeCloseTo(0.25, 6);
    expect(followCursor(past, NOW, b)).toMatchObject({ mode: 'span' });
    expect(visibleWindow(followCursor(past, NOW, b), b).to).toBe(NOW);
  });

  it('moves a fitted live window when the cursor goes before the data (Home)', () => {
    const v = followCursor(FIT, b.edge.from, b);
    const w = visibleWindow(v, b);
    expect(w.from).toBe(b.edge.from);
  });
});
