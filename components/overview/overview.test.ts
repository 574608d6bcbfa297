/**
 * The overview's pure parts: folding the stream into cells, a cell's tone, the grouped grid
 * and its hit test, and the painter's batching (one fill per tone, whatever the node count).
 */
import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { syntheticCluster } from '@/lib/timeline/synthetic';
import type { OverviewCells, OverviewDelta } from '@/lib/overview/wire';
import { CELL, PITCH, cellsInRect, fitOverview, hitCell, layoutOverview } from './grid';
import { levelAt, pastDiagram } from './levels';
import { paintOverview, type OverviewCtx } from './paint';
import { applyMessage, emptyOverview, liveNodeCount, podCount } from './store';
import { cellTone } from './tone';
import { cellsOf, overviewOf, searchState } from './testing/from-state';

function cellsFor(n: number, labels = false): OverviewCells {
  const names = Array.from({ length: n }, (_, i) => `node-${i}`);
  const cells: OverviewCells = {
    names,
    ready: names.map((_, i) => (i % 50 === 7 ? 'Unknown' : 'True')),
    health: names.map((_, i) => i % 5),
    pressure: names.map(() => 0),
    pods: names.map(() => 10),
    notReady: names.map(() => 0),
    labels: {},
  };
  if (labels)
    cells.labels['topology.kubernetes.io/zone'] = {
      values: ['a', 'b', 'c'],
      of: names.map((_, i) => (i % 4 === 3 ? -1 : i % 3)),
    };
  return cells;
}

/** A 2D context that records what is drawn. */
function recorder() {
  const calls: Record<string, number> = {};
  const count = (name: string) => () => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const ctx: OverviewCtx = {
    setTransform: count('setTransform'),
    clearRect: count('clearRect'),
    beginPath: count('beginPath'),
    rect: count('rect'),
    moveTo: count('moveTo'),
    lineTo: count('lineTo'),
    fill: count('fill'),
    stroke: count('stroke'),
    fillText: count('fillText'),
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textAlign: 'left',
    textBaseline: 'alphabetic',
  };
  return { ctx, calls };
}

const COLORS = {
  text: '#000',
  muted: '#666',
  selection: '#111',
  highlight: '#0072b2',
  mark: '#fff',
};

describe('store', () => {
  it('takes an overview message whole, then applies deltas (new nodes, gone nodes, labels)', () => {
    const first = applyMessage(emptyOverview(), {
      type: 'overview',
      seq: 5,
      t: 1,
      cells: cellsFor(3),
      aggregates: emptyOverview().aggregates,
      attention: { total: 0, items: [] },
      changes: [],
    });
    expect(first.index.get('node-2')).toBe(2);
    expect(liveNodeCount(first.cells)).toBe(3);
    expect(podCount(first.cells)).toBe(30);
    const delta: OverviewDelta = {
      type: 'overview-delta',
      seq: 9,
      t: 2,
      cells: {
        index: [1, 3],
        names: ['node-3'],
        ready: ['False', 'True'],
        health: [4, 1],
        pressure: [1, 0],
        pods: [2, 4],
        notReady: [1, 0],
        gone: [0, 0],
        labels: { 'podscope.dev/pool': { added: ['gpu'], of: [0, -1] } },
      },
    };
    const next = applyMessage(first, delta);
    expect(next.cells.names).toEqual(['node-0', 'node-1', 'node-2', 'node-3']);
    expect(next.index.get('node-3')).toBe(3);
    expect(next.cells.ready[1]).toBe('False');
    expect(next.cells.pods).toEqual([10, 2, 10, 4]);
    expect(next.cells.labels['podscope.dev/pool']).toEqual({
      values: ['gpu'],
      of: [-1, 0, -1, -1],
    });
    expect(next.shape).toBeGreaterThan(first.shape);
    // The earlier snapshot is untouched.
    expect(first.cells.ready[1]).toBe('True');
    expect(first.cells.names).toHaveLength(3);
    const gone = applyMessage(next, {
      type: 'overview-delta',
      seq: 10,
      t: 3,
      cells: {
        index: [0],
        ready: [''],
        health: [0],
        pressure: [0],
        pods: [0],
        notReady: [0],
        gone: [1],
      },
    });
    expect(liveNodeCount(gone.cells)).toBe(3);
    expect(podCount(gone.cells)).toBe(16);
  });
});

describe('tone', () => {
  it('is the worse of the node and its pods; gone and unknown override', () => {
    expect(cellTone('True', 1, 0, 0)).toBe('ok');
    expect(cellTone('True', 0, 0, 0)).toBe('empty');
    expect(cellTone('True', 4, 0, 0)).toBe('failing');
    expect(cellTone('True', 1, 1, 0)).toBe('warning');
    expect(cellTone('True', 4, 1, 0)).toBe('failing');
    expect(cellTone('False', 1, 0, 0)).toBe('failing');
    expect(cellTone('Unknown', 1, 0, 0)).toBe('unknown');
    expect(cellTone('', 1, 0, 0)).toBe('unknown');
    expect(cellTone('True', 1, 0, 1)).toBe('gone');
  });
});

describe('grid', () => {
  it('lays 5,000 nodes out to fit, every cell once, groups with counts', () => {
    const cells = cellsFor(5000, true);
    const l = layoutOverview(
      cells,
      { kind: 'label', key: 'topology.kubernetes.io/zone' },
      { width: 1100, height: 600 },
    );
    expect(l.order.length).toBe(5000);
    expect(new Set(l.order).size).toBe(5000);
    expect(l.groups.map((g) => g.value)).toEqual(['a', 'b', 'c', '']);
    expect(l.groups.reduce((n, g) => n + g.count, 0)).toBe(5000);
    expect(l.groups[3]?.count).toBe(1250);
    const fit = fitOverview(l, { width: 1100, height: 600 });
    expect(l.width * fit.k).toBeLessThanOrEqual(1100 + 1e-6);
    expect(l.height * fit.k).toBeLessThanOrEqual(600 + 1e-6);
    // Big enough to see: at least 5 px a cell.
    expect(CELL * fit.k).toBeGreaterThan(5);
  });

  it('groups by Ready with problems first, or not at all', () => {
    const cells = cellsFor(200);
    expect(
      layoutOverview(cells, { kind: 'ready' }, { width: 800, height: 600 }).groups.map((g) => [
        g.value,
        g.count,
      ]),
    ).toEqual([
      ['Unknown', 4],
      ['True', 196],
    ]);
    expect(
      layoutOverview(cells, { kind: 'none' }, { width: 800, height: 600 }).groups,
    ).toHaveLength(1);
  });

  it('hit-tests cells, not gaps or headings, and lists the cells in a rectangle', () => {
    const cells = cellsFor(100);
    const l = layoutOverview(cells, { kind: 'none' }, { width: 600, height: 400 });
    const i = l.order[l.cols + 2] ?? -1;
    expect(hitCell(l, (l.x[i] ?? 0) + 1, (l.y[i] ?? 0) + 1)).toBe(i);
    expect(hitCell(l, (l.x[i] ?? 0) + CELL + 1, (l.y[i] ?? 0) + 1)).toBeUndefined();
    expect(hitCell(l, 1, 0)).toBeUndefined();
    const top = l.groups[0]?.top ?? 0;
    const inRect = cellsInRect(l, { x0: 0, y0: top, x1: PITCH * 2 - 1, y1: top + PITCH - 1 });
    expect(inRect).toEqual([l.order[0], l.order[1]]);
    expect(cellsInRect(l, { x0: -1e6, y0: -1e6, x1: 1e6, y1: 1e6 })).toHaveLength(100);
    expect(cellsInRect(l, { x0: -1e6, y0: -1e6, x1: 1e6, y1: 1e6 }, 10)).toHaveLength(10);
  });
});

describe('paint', () => {
  it('fills all cells with one fill per tone, whatever the count', () => {
    for (const n of [100, 5000]) {
      const cells = cellsFor(n);
      const l = layoutOverview(cells, { kind: 'none' }, { width: 1200, height: 700 });
      const { ctx, calls } = recorder();
      const r = paintOverview(ctx, l, cells, {
        width: 1200,
        height: 700,
        dpr: 1,
        transform: fitOverview(l, { width: 1200, height: 700 }),
        level: 'cells',
        headings: ['all'],
        colors: COLORS,
      });
      expect(r.drawn).toBe(n);
      expect(calls.rect).toBeGreaterThanOrEqual(n);
      // empty, ok, pending, warning, unknown, failing
      expect(calls.fill).toBe(6);
    }
  });

  it('draws only what is on screen, and pods in cells at the pods level', () => {
    const cells = cellsFor(5000);
    const l = layoutOverview(cells, { kind: 'none' }, { width: 1200, height: 700 });
    const { ctx, calls } = recorder();
    const k = 8;
    const i = l.order[0] ?? 0;
    const r = paintOverview(ctx, l, cells, {
      width: 1200,
      height: 700,
      dpr: 1,
      transform: { x: 0, y: -(l.groups[0]?.top ?? 0) * k, k },
      level: levelAt(k),
      pods: new Map([[cells.names[i] ?? '', ['ok', 'ok', 'failed', 'pending'] as const]]),
      headings: ['all'],
      colors: COLORS,
    });
    expect(levelAt(k)).toBe('pods');
    expect(r.drawn).toBeLessThan(200);
    expect(r.drawn).toBeGreaterThan(50);
    expect(calls.fillText).toBeGreaterThan(50); // node names at this size
    expect(pastDiagram(k)).toBe(false);
    expect(pastDiagram(40)).toBe(true);
  });
});

describe('the in-memory overview (testing/from-state)', () => {
  const big = syntheticCluster({ nodes: 40, podsPerNode: 10, churn: 300, seed: 3 });
  const state = reduceAll(big.initial, big.events);

  it('counts every node and pod', () => {
    const msg = overviewOf(state);
    expect(msg.cells.names).toHaveLength(40);
    expect(msg.aggregates.nodes).toBe(40);
    expect(podCount(msg.cells)).toBe(msg.aggregates.pods);
  });

  it('searches, pages, and says what does not parse', () => {
    const cells = cellsOf(state);
    const all = searchState(state, cells, 'node:node-1', undefined, 5);
    expect(all.error).toBeUndefined();
    expect(all.hits.length).toBeLessThanOrEqual(5);
    const bad = searchState(state, cells, 'ns:x colour:red');
    expect(bad.error?.message).toMatch(/colour/);
    expect(bad.error?.at).toBe(5);
    const pods = searchState(state, cells, 'phase:Running', undefined, 7);
    expect(pods.total).toBeGreaterThan(7);
    expect(pods.next).toBe('7');
    expect(searchState(state, cells, 'phase:Running', pods.next, 7).hits[0]).not.toEqual(
      pods.hits[0],
    );
  });
});
