/**
 * Paints the overview on one 2D canvas: the cells of each tone as ONE path and one fill (seven
 * fills for the whole cluster, whatever its size), then the marks inside them, the search
 * highlights and the selection as one stroke each, and the group headings. At the pods level
 * the nodes whose detail is held get their pods as tiles, again one path per tone. Only what is
 * on screen is added to the paths. No DOM, no React: any 2D context will do.
 */
import { TONE_COLOR, TONES, type Tone } from '@/components/visual/palette';
import type { OverviewCells } from '@/lib/overview/wire';
import { CELL, PITCH, cellsInRect, viewRect, type OverviewLayout } from './grid';
import type { Level } from './levels';
import { CELL_COLOR, CELL_MARK, CELL_TONES, cellTone, type CellTone } from './tone';

export type OverviewCtx = Pick<
  CanvasRenderingContext2D,
  | 'setTransform'
  | 'clearRect'
  | 'beginPath'
  | 'rect'
  | 'moveTo'
  | 'lineTo'
  | 'fill'
  | 'stroke'
  | 'fillText'
> & {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
};

export interface OverviewPaint {
  width: number;
  height: number;
  dpr: number;
  transform: { x: number; y: number; k: number };
  level: Exclude<Level, 'diagram'>;
  /** Cell indices the search matched (drawn outlined); undefined when there is no search. */
  highlight?: Uint8Array | undefined;
  selected?: number | undefined;
  hover?: number | undefined;
  /** Per node name: its pods' tones (the detail held for the nodes in view). */
  pods?: ReadonlyMap<string, readonly Tone[]>;
  /** Group headings, already in the reader's language: "zone a · 1,204". */
  headings: readonly string[];
  colors: { text: string; muted: string; selection: string; highlight: string; mark: string };
}

/** Marks are drawn once cells are at least this large on screen (px). */
const MARK_PX = 7;
const NAME_PX = 40;

function addMark(ctx: OverviewCtx, mark: (typeof CELL_MARK)[CellTone], x: number, y: number) {
  const c = CELL;
  switch (mark) {
    case 'cross':
      ctx.moveTo(x + c * 0.28, y + c * 0.28);
      ctx.lineTo(x + c * 0.72, y + c * 0.72);
      ctx.moveTo(x + c * 0.72, y + c * 0.28);
      ctx.lineTo(x + c * 0.28, y + c * 0.72);
      break;
    case 'bar':
      ctx.moveTo(x + c * 0.28, y + c * 0.5);
      ctx.lineTo(x + c * 0.72, y + c * 0.5);
      break;
    case 'bang':
      ctx.moveTo(x + c * 0.5, y + c * 0.22);
      ctx.lineTo(x + c * 0.5, y + c * 0.56);
      ctx.moveTo(x + c * 0.5, y + c * 0.7);
      ctx.lineTo(x + c * 0.5, y + c * 0.8);
      break;
    case 'dot':
      ctx.moveTo(x + c * 0.4, y + c * 0.5);
      ctx.lineTo(x + c * 0.6, y + c * 0.5);
      ctx.moveTo(x + c * 0.5, y + c * 0.4);
      ctx.lineTo(x + c * 0.5, y + c * 0.6);
      break;
    case 'ring':
    case 'none':
      break;
  }
}

/** Pod tiles inside a cell: a square grid, as many columns as the pods need. */
export function podGrid(count: number): { cols: number; size: number; gap: number } {
  const cols = Math.max(1, Math.ceil(Math.sqrt(count)));
  const inner = CELL - 1;
  const gap = inner / cols / 6;
  return { cols, size: inner / cols - gap, gap };
}

export function paintOverview(
  ctx: OverviewCtx,
  l: OverviewLayout,
  cells: OverviewCells,
  o: OverviewPaint,
): { drawn: number; fills: number } {
  const { x: tx, y: ty, k } = o.transform;
  ctx.setTransform(o.dpr, 0, 0, o.dpr, 0, 0);
  ctx.clearRect(0, 0, o.width, o.height);
  ctx.setTransform(o.dpr * k, 0, 0, o.dpr * k, o.dpr * tx, o.dpr * ty);
  const view = viewRect(o.transform, o);
  const shown = cellsInRect(l, {
    x0: view.x0 - CELL,
    y0: view.y0 - CELL,
    x1: view.x1,
    y1: view.y1,
  });
  // Bucket by tone, then one path and one fill per tone.
  const byTone: number[][] = CELL_TONES.map(() => []);
  for (const i of shown) {
    const t = cellTone(cells.ready[i], cells.health[i], cells.pressure[i], cells.gone?.[i]);
    byTone[CELL_TONES.indexOf(t)]?.push(i);
  }
  let fills = 0;
  const podsLevel = o.level === 'pods' && o.pods !== undefined;
  CELL_TONES.forEach((tone, ti) => {
    const list = byTone[ti] ?? [];
    if (list.length === 0) return;
    ctx.beginPath();
    for (const i of list) {
      // A cell with pods to draw is a frame in its tone, the pods inside it.
      if (podsLevel && o.pods?.has(cells.names[i] ?? '')) continue;
      ctx.rect(l.x[i] ?? 0, l.y[i] ?? 0, CELL, CELL);
    }
    ctx.fillStyle = CELL_COLOR[tone];
    ctx.fill();
    fills++;
  });
  const px = CELL * k;
  if (px >= MARK_PX) {
    ctx.beginPath();
    CELL_TONES.forEach((tone, ti) => {
      if (CELL_MARK[tone] === 'none') return;
      for (const i of byTone[ti] ?? []) {
        if (podsLevel && o.pods?.has(cells.names[i] ?? '')) continue;
        addMark(ctx, CELL_MARK[tone], l.x[i] ?? 0, l.y[i] ?? 0);
      }
    });
    ctx.strokeStyle = o.colors.mark;
    ctx.lineWidth = Math.max(1.2 / k, CELL * 0.09);
    ctx.stroke();
  }
  if (podsLevel && o.pods) paintPods(ctx, l, cells, shown, o, () => fills++);
  if (o.highlight) {
    ctx.beginPath();
    let any = false;
    for (const i of shown)
      if (o.highlight[i]) {
        ctx.rect((l.x[i] ?? 0) - 1, (l.y[i] ?? 0) - 1, CELL + 2, CELL + 2);
        any = true;
      }
    if (any) {
      ctx.strokeStyle = o.colors.highlight;
      ctx.lineWidth = Math.min(2, Math.max(1, CELL * k * 0.12)) / k;
      ctx.stroke();
    }
  }
  for (const [i, width] of [
    [o.hover, 1.5],
    [o.selected, 2.5],
  ] as const) {
    if (i === undefined || Number.isNaN(l.x[i] ?? Number.NaN)) continue;
    ctx.beginPath();
    const pad = width / k + 0.5;
    ctx.rect((l.x[i] ?? 0) - pad, (l.y[i] ?? 0) - pad, CELL + 2 * pad, CELL + 2 * pad);
    ctx.strokeStyle = o.colors.selection;
    ctx.lineWidth = width / k;
    ctx.stroke();
  }
  // Text in screen pixels: headings, and node names once cells are large.
  ctx.setTransform(o.dpr, 0, 0, o.dpr, 0, 0);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.fillStyle = o.colors.text;
  l.groups.forEach((g, gi) => {
    const sy = g.top * k + ty - 6;
    if (sy < -4 || g.y * k + ty > o.height) return;
    ctx.fillText(o.headings[gi] ?? '', Math.max(4, tx), sy);
  });
  if (px >= NAME_PX) {
    ctx.font = `${Math.min(12, Math.max(9, px / 9))}px system-ui, sans-serif`;
    ctx.fillStyle = o.colors.text;
    for (const i of shown) {
      const sx = (l.x[i] ?? 0) * k + tx;
      const sy = (l.y[i] ?? 0) * k + ty;
      ctx.fillText(clip(cells.names[i] ?? '', px), sx, sy - 3);
    }
  }
  return { drawn: shown.length, fills };
}

function clip(name: string, px: number): string {
  const max = Math.max(4, Math.floor((px + PITCH) / 6.5));
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

function paintPods(
  ctx: OverviewCtx,
  l: OverviewLayout,
  cells: OverviewCells,
  shown: readonly number[],
  o: OverviewPaint,
  filled: () => void,
) {
  const pods = o.pods;
  if (!pods) return;
  // The frames of nodes whose pods are drawn, in their own tone.
  ctx.beginPath();
  const framed: number[] = [];
  for (const i of shown) if (pods.has(cells.names[i] ?? '')) framed.push(i);
  const byNodeTone = new Map<CellTone, number[]>();
  for (const i of framed) {
    const t = cellTone(cells.ready[i], cells.health[i], cells.pressure[i], cells.gone?.[i]);
    const list = byNodeTone.get(t) ?? [];
    list.push(i);
    byNodeTone.set(t, list);
  }
  for (const [tone, list] of byNodeTone) {
    ctx.beginPath();
    for (const i of list)
      ctx.rect((l.x[i] ?? 0) + 0.15, (l.y[i] ?? 0) + 0.15, CELL - 0.3, CELL - 0.3);
    ctx.strokeStyle = CELL_COLOR[tone];
    ctx.lineWidth = 0.3;
    ctx.stroke();
  }
  const byTone = new Map<Tone, [number, number, number][]>();
  for (const i of framed) {
    const tones = pods.get(cells.names[i] ?? '') ?? [];
    const g = podGrid(tones.length);
    tones.forEach((tone, j) => {
      const list = byTone.get(tone) ?? [];
      list.push([
        (l.x[i] ?? 0) + 0.5 + (j % g.cols) * (g.size + g.gap) + g.gap / 2,
        (l.y[i] ?? 0) + 0.5 + Math.floor(j / g.cols) * (g.size + g.gap) + g.gap / 2,
        g.size,
      ]);
      byTone.set(tone, list);
    });
  }
  for (const tone of TONES) {
    const list = byTone.get(tone);
    if (!list) continue;
    ctx.beginPath();
    for (const [x, y, s] of list) ctx.rect(x, y, s, s);
    ctx.fillStyle = TONE_COLOR[tone];
    ctx.fill();
    filled();
  }
}
