/**
 * The overview's geometry: every node one square cell, grouped (by a node label, by the Ready
 * state, or not at all), each group a heading and a block of rows, blocks stacked. The number of
 * columns is the one that shows the whole cluster largest in the viewport. Computed once per
 * cluster shape and viewport; the painter and the hit test read it. Pure: no DOM.
 */
import type { OverviewCells, ReadyValue } from '@/lib/overview/wire';

export const CELL = 10;
export const GAP = 2;
export const PITCH = CELL + GAP;
/** A heading's height on screen (px): the layout reserves it at the zoom that fits. */
export const HEADING_PX = 22;
const GROUP_GAP_PX = 10;
/** Cells are never drawn larger than this when fitting (a handful of nodes stays a grid). */
export const MAX_FIT_CELL_PX = 48;

/** What the cells are grouped by: nothing, the Ready state, or a node label's key. */
export type GroupBy = { kind: 'none' } | { kind: 'ready' } | { kind: 'label'; key: string };

export interface GroupLayout {
  /** '' for no grouping, the Ready value, or the label value ('' when a node has none). */
  value: string;
  count: number;
  /** Offset into `order` of the group's first cell. */
  first: number;
  /** Top of the heading, and of the first row of cells (world units). */
  y: number;
  top: number;
  rows: number;
}

export interface OverviewLayout {
  width: number;
  height: number;
  cols: number;
  /** Laid-out cell indices, group after group, row by row. */
  order: Int32Array;
  /** World position of each cell by its index (NaN when not laid out: a gone node). */
  x: Float32Array;
  y: Float32Array;
  groups: GroupLayout[];
  /** The zoom at which the layout fits the viewport (headings are sized for it). */
  fitK: number;
}

const READY_ORDER: ReadyValue[] = ['False', 'Unknown', '', 'True'];
const collator = new Intl.Collator('en', { numeric: true });

/** The cells of each group, by group value, in the order groups are shown. */
export function groupCells(
  cells: OverviewCells,
  by: GroupBy,
): { value: string; cells: number[] }[] {
  const n = cells.names.length;
  const live: number[] = [];
  for (let i = 0; i < n; i++) if (!cells.gone?.[i]) live.push(i);
  live.sort((a, b) => collator.compare(cells.names[a] ?? '', cells.names[b] ?? ''));
  if (by.kind === 'none') return [{ value: '', cells: live }];
  const buckets = new Map<string, number[]>();
  const label = by.kind === 'label' ? cells.labels[by.key] : undefined;
  for (const i of live) {
    const v =
      by.kind === 'ready'
        ? (cells.ready[i] ?? '')
        : label
          ? (label.values[label.of[i] ?? -1] ?? '')
          : '';
    let b = buckets.get(v);
    if (!b) buckets.set(v, (b = []));
    b.push(i);
  }
  const values = [...buckets.keys()];
  if (by.kind === 'ready')
    values.sort(
      (a, b) => READY_ORDER.indexOf(a as ReadyValue) - READY_ORDER.indexOf(b as ReadyValue),
    );
  // Named groups first, in name order; nodes without the label last.
  else values.sort((a, b) => (a === '' ? 1 : b === '' ? -1 : collator.compare(a, b)));
  return values.map((value) => ({ value, cells: buckets.get(value) ?? [] }));
}

function stack(
  groups: { value: string; cells: number[] }[],
  cols: number,
  head: number,
  groupGap: number,
): { height: number; rows: number[] } {
  let height = 0;
  const rows = groups.map((g) => Math.max(1, Math.ceil(g.cells.length / cols)));
  rows.forEach((r, i) => (height += head + r * PITCH - GAP + (i > 0 ? groupGap : 0)));
  return { height, rows };
}

/**
 * Lays the cells out for a viewport (px). The headings take HEADING_PX on screen at the fitting
 * zoom, which depends on the headings: two passes settle it.
 */
export function layoutOverview(
  cells: OverviewCells,
  by: GroupBy,
  vp: { width: number; height: number },
): OverviewLayout {
  const groups = groupCells(cells, by);
  const total = groups.reduce((n, g) => n + g.cells.length, 0);
  const W = Math.max(1, vp.width);
  const H = Math.max(1, vp.height);
  const maxK = MAX_FIT_CELL_PX / CELL;
  let k = 1;
  let best = { cols: 1, k: 0, rows: [] as number[], height: 0, head: 0, gap: 0 };
  for (let pass = 0; pass < 2; pass++) {
    const head = HEADING_PX / k;
    const gap = GROUP_GAP_PX / k;
    best = { cols: 1, k: 0, rows: [], height: 0, head, gap };
    const maxCols = Math.max(1, Math.min(total, 2000));
    for (let cols = 1; cols <= maxCols; cols++) {
      const { height, rows } = stack(groups, cols, head, gap);
      const width = cols * PITCH - GAP;
      const fit = Math.min(W / width, H / height, maxK);
      // Past the widest useful grid, more columns only shrink it.
      if (fit > best.k + 1e-9) best = { cols, k: fit, rows, height, head, gap };
      else if (W / width < best.k) break;
    }
    k = best.k || 1;
  }
  const { cols, rows, head, gap } = best;
  const x = new Float32Array(cells.names.length).fill(Number.NaN);
  const y = new Float32Array(cells.names.length).fill(Number.NaN);
  const order = new Int32Array(total);
  const out: GroupLayout[] = [];
  let top = 0;
  let o = 0;
  groups.forEach((g, gi) => {
    if (gi > 0) top += gap;
    const gy = top;
    const cellsTop = top + head;
    const first = o;
    g.cells.forEach((i, j) => {
      order[o++] = i;
      x[i] = (j % cols) * PITCH;
      y[i] = cellsTop + Math.floor(j / cols) * PITCH;
    });
    const r = rows[gi] ?? 1;
    out.push({ value: g.value, count: g.cells.length, first, y: gy, top: cellsTop, rows: r });
    top = cellsTop + r * PITCH - GAP;
  });
  return {
    width: Math.max(PITCH, cols * PITCH - GAP),
    height: Math.max(PITCH, top),
    cols,
    order,
    x,
    y,
    groups: out,
    fitK: k,
  };
}

/** The cell index at a world point, if the point is on a cell (not a gap or a heading). */
export function hitCell(l: OverviewLayout, wx: number, wy: number): number | undefined {
  if (wx < 0) return undefined;
  const col = Math.floor(wx / PITCH);
  if (col >= l.cols || wx - col * PITCH > CELL) return undefined;
  for (const g of l.groups) {
    if (wy < g.top || wy >= g.top + g.rows * PITCH) continue;
    const row = Math.floor((wy - g.top) / PITCH);
    if (wy - g.top - row * PITCH > CELL) return undefined;
    const j = row * l.cols + col;
    return j < g.count ? l.order[g.first + j] : undefined;
  }
  return undefined;
}

/** Cell indices whose cells meet a world rectangle, group by group, at most `limit`. */
export function cellsInRect(
  l: OverviewLayout,
  r: { x0: number; y0: number; x1: number; y1: number },
  limit = Infinity,
): number[] {
  const out: number[] = [];
  const c0 = Math.max(0, Math.floor(r.x0 / PITCH));
  const c1 = Math.min(l.cols - 1, Math.floor(r.x1 / PITCH));
  if (c1 < c0) return out;
  for (const g of l.groups) {
    const r0 = Math.max(0, Math.floor((r.y0 - g.top) / PITCH));
    const r1 = Math.min(g.rows - 1, Math.floor((r.y1 - g.top) / PITCH));
    for (let row = r0; row <= r1; row++)
      for (let col = c0; col <= c1; col++) {
        const j = row * l.cols + col;
        if (j >= g.count) break;
        const i = l.order[g.first + j];
        if (i !== undefined) out.push(i);
        if (out.length >= limit) return out;
      }
  }
  return out;
}

/** The transform that shows the whole layout centred in the viewport. */
export function fitOverview(
  l: OverviewLayout,
  vp: { width: number; height: number },
): { x: number; y: number; k: number } {
  const k = l.fitK;
  return {
    k,
    x: Math.max(4, (vp.width - l.width * k) / 2),
    y: Math.max(4, (vp.height - l.height * k) / 2),
  };
}

/** The world rectangle a transform shows in a viewport. */
export function viewRect(
  tr: { x: number; y: number; k: number },
  vp: { width: number; height: number },
): { x0: number; y0: number; x1: number; y1: number } {
  return {
    x0: -tr.x / tr.k,
    y0: -tr.y / tr.k,
    x1: (vp.width - tr.x) / tr.k,
    y1: (vp.height - tr.y) / tr.k,
  };
}
