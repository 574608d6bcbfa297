import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import { demoTimeline } from '@/components/data/testing/demo';
import { syntheticCluster } from '@/lib/timeline/synthetic';
import { hitTest } from './hit';
import {
  chooseGrid,
  detailAt,
  fitTransform,
  GEOMETRY,
  layoutCluster,
  layoutConditionPills,
  type Box,
  type ClusterLayout,
} from './layout';
import { navigate } from './navigate';
import { assignSlots, EMPTY_SLOTS, type SlotBook } from './slots';

const tl = demoTimeline();
const [node1 = '', node2 = '', node3 = ''] = tl.nodes;
const at = (t: number): ClusterState =>
  reduceAll(
    tl.initial,
    tl.events.filter((e) => e.t <= t),
  );
const desktop = { width: 1040, height: 600 };
const phone = { width: 390, height: 430 };

const within = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.w <= outer.x + outer.w + 1e-6 &&
  inner.y + inner.h <= outer.y + outer.h + 1e-6;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

function layoutAt(t: number, vp = desktop): ClusterLayout {
  const s = at(t);
  return layoutCluster(s, assignSlots(EMPTY_SLOTS, s), vp);
}

describe('cluster layout', () => {
  const layout = layoutAt(tl.end);

  it('nests containers in pods in nodes without overlaps', () => {
    expect(layout.nodes.map((n) => n.id)).toEqual(tl.nodes);
    for (const [i, node] of layout.nodes.entries()) {
      for (const other of layout.nodes.slice(i + 1)) expect(overlap(node, other)).toBe(false);
      for (const [j, pod] of node.pods.entries()) {
        expect(within(pod, node)).toBe(true);
        expect(pod.y).toBeGreaterThanOrEqual(node.y + GEOMETRY.nodeHeader);
        for (const other of node.pods.slice(j + 1)) expect(overlap(pod, other)).toBe(false);
        for (const pill of pod.pills) expect(within(pill, pod)).toBe(true);
      }
    }
    expect(layout.podCount).toBe(
      Object.values(at(tl.end).nodes).reduce((n, x) => n + Object.keys(x.pods).length, 0),
    );
  });

  it('carries the contract states: a crash-looping container, a Running pod, Ready nodes', () => {
    // The demo's crash loop: payments-worker's `worker` exits 1 after 4 s (server/demo/workload.ts).
    const api = layout.nodes
      .flatMap((n) => n.pods)
      .find((p) => p.pod.name.startsWith('payments-worker-'));
    expect(api?.state).toBe('running');
    expect(api?.attention).toBe(true);
    expect(api?.pills[0]).toMatchObject({
      id: `${api?.id}/worker`,
      state: 'waiting',
      reason: 'CrashLoopBackOff',
      tone: 'failed',
    });
    expect(layout.nodes.map((n) => n.state)).toEqual(['ready', 'ready', 'ready']);
    const pills = layout.nodes[0]?.conditions ?? [];
    expect(pills[0]).toMatchObject({ type: 'Ready', status: 'True', tone: 'ok' });
    const shown = pills.flatMap((c) => c.folded ?? [c.type]);
    // The kubelet's own conditions (NetworkUnavailable is the network plugin's, never the kubelet's).
    expect(shown).toEqual(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']);
    for (const c of pills) expect(within(c, layout.nodes[0] as Box)).toBe(true);
  });

  it('puts Ready and unhealthy conditions first and folds what does not fit, healthy first', () => {
    const conds = [
      { type: 'Ready', status: 'Unknown' },
      { type: 'MemoryPressure', status: 'False' },
      { type: 'DiskPressure', status: 'True' },
      { type: 'PIDPressure', status: 'False' },
    ];
    const narrow = layoutConditionPills(conds, 0, 0, 180);
    for (const c of narrow) expect(c.x + c.w).toBeLessThanOrEqual(180);
    // Narrower still: DiskPressure=True no longer fits beside the fold, so the fold says failed.
    expect(layoutConditionPills(conds, 0, 0, 160).slice(1)).toMatchObject([
      { type: '+3', tone: 'failed', folded: ['DiskPressure', 'MemoryPressure', 'PIDPressure'] },
    ]);
    expect(narrow.map((c) => c.type)).toEqual(['Ready', 'DiskPressure', '+2']);
    expect(narrow[0]?.tone).toBe('unknown');
    expect(narrow[1]?.tone).toBe('failed');
    expect(narrow[2]?.folded).toEqual(['MemoryPressure', 'PIDPressure']);
    expect(layoutConditionPills(conds, 0, 0, 2000)).toHaveLength(4);
    // Every condition Unknown (a node cut off): what does not fit folds too, inside the card,
    // and the fold says Unknown.
    const unknown = conds.map((c) => ({ ...c, status: 'Unknown' }));
    const cutOff = layoutConditionPills(unknown, 0, 0, 240);
    expect(cutOff.map((c) => c.type)).toEqual(['Ready', 'MemoryPressure', '+2']);
    expect(cutOff[2]).toMatchObject({ tone: 'unknown', folded: ['DiskPressure', 'PIDPressure'] });
    for (const c of cutOff) expect(c.x + c.w).toBeLessThanOrEqual(240);
    // A condition someone else writes (CNI, the route controller) is shown when the node has it.
    const cni = [...conds, { type: 'NetworkUnavailable', status: 'True' }];
    expect(layoutConditionPills(cni, 0, 0, 2000).map((c) => c.type)).toEqual([
      'Ready',
      'DiskPressure',
      'NetworkUnavailable',
      'MemoryPressure',
      'PIDPressure',
    ]);
  });

  it('draws init containers before a divider, and sidecars first among the rest', () => {
    const pods = layout.nodes.flatMap((n) => n.pods);
    // orders: two init containers, then the app (server/demo/workload.ts).
    const orders = pods.find((p) => p.pod.name.startsWith('orders-'));
    expect(orders?.pills.map((p) => p.name)).toEqual(['wait-for-db', 'migrate', 'orders']);
    const [, migrate, app] = orders?.pills ?? [];
    expect(orders?.dividerX).toBeGreaterThan((migrate?.x ?? 0) + (migrate?.w ?? 0));
    expect(orders?.dividerX).toBeLessThan(app?.x ?? 0);
    expect(migrate?.state).toBe('terminated');
    expect(migrate?.tone).toBe('done');
    // checkout: envoy is a sidecar (an init container with restartPolicy Always), drawn first.
    const checkout = pods.find((p) => p.pod.name.startsWith('checkout-'));
    expect(checkout?.pills.map((p) => `${p.name}${p.sidecar ? '*' : ''}`)).toEqual([
      'envoy*',
      'checkout',
    ]);
    expect(checkout?.dividerX).toBeUndefined();
  });

  it('keeps other pods where they were when one goes', () => {
    const removed = tl.events.find((e) => e.kind === 'pod' && e.type === 'PodRemoved');
    if (!removed) throw new Error('fixture has no removal');
    const before = at(removed.t - 1);
    const after = at(removed.t);
    const s1 = assignSlots(EMPTY_SLOTS, before);
    const s2 = assignSlots(s1, after);
    const l1 = layoutCluster(before, s1, desktop);
    const l2 = layoutCluster(after, s2, desktop);
    const boxes = (l: ClusterLayout) =>
      new Map(l.nodes.flatMap((n) => n.pods).map((p) => [p.id, [p.x, p.y]]));
    const b1 = boxes(l1);
    for (const [id, xy] of boxes(l2)) expect(xy).toEqual(b1.get(id));
  });

  it('fits the demo cluster at full detail on a desktop, and its pods on a phone', () => {
    for (const [l, vp, detail] of [
      [layout, desktop, 'full'],
      // The demo's ~20 pods on a phone: tiles without container labels until one zooms in.
      [layoutAt(tl.end, phone), phone, 'pods'],
    ] as const) {
      const fit = fitTransform(l, vp);
      expect(l.width * fit.k).toBeLessThanOrEqual(vp.width);
      expect(l.height * fit.k).toBeLessThanOrEqual(vp.height);
      expect(detailAt(fit.k)).toBe(detail);
    }
    // The phone gets fewer pod columns than the desktop.
    expect(layoutAt(tl.end, phone).podCols).toBeLessThan(layout.podCols);
  });

  it('blows a small cluster up no further than the fit allows', () => {
    const one = { width: 200, height: 150 };
    const vp = { width: 700, height: 500 };
    expect(fitTransform(one, vp).k).toBe(1.25);
    // A walkthrough's single node may be drawn larger, still inside the view.
    const big = fitTransform(one, vp, 16, 4);
    expect(big.k).toBeCloseTo((500 - 32) / 150, 6);
    expect(one.width * big.k).toBeLessThanOrEqual(vp.width);
  });

  it('chooses a grid that fits: scale is what the viewport allows', () => {
    const g = chooseGrid([4, 4, 4], { width: 1000, height: 1000 });
    expect(g.scale).toBeGreaterThan(0.5);
  });

  it('finds the entity under a point, deepest first', () => {
    const pod = layout.nodes[0]?.pods[0];
    const pill = pod?.pills[0];
    if (!pod || !pill) throw new Error('no pod');
    expect(hitTest(layout, pill.x + 2, pill.y + 2)).toEqual({ layer: 'container', id: pill.id });
    expect(hitTest(layout, pill.x + 2, pill.y + 2, 'pods')).toEqual({ layer: 'pod', id: pod.id });
    expect(hitTest(layout, pod.x + pod.w - 2, pod.y + 2)).toEqual({ layer: 'pod', id: pod.id });
    expect(hitTest(layout, 3, 3)).toEqual({ layer: 'node', id: node1 });
    expect(hitTest(layout, -10, -10)).toBeUndefined();
  });

  it('moves keyboard focus across siblings and between layers', () => {
    const node = layout.nodes[0];
    const pod = node?.pods[0];
    expect(navigate(layout, undefined, 'ArrowRight')).toBe(node1);
    expect(navigate(layout, node1, 'ArrowRight')).toBe(node2);
    expect(navigate(layout, node1, 'ArrowLeft')).toBe(node1);
    expect(navigate(layout, node1, 'ArrowDown')).toBe(pod?.id);
    expect(navigate(layout, pod?.id, 'ArrowDown')).toBe(pod?.pills[0]?.id);
    expect(navigate(layout, pod?.pills[0]?.id, 'ArrowUp')).toBe(pod?.id);
    expect(navigate(layout, pod?.id, 'ArrowUp')).toBe(node1);
    expect(navigate(layout, node1, 'End')).toBe(node3);
  });

  it('lays out 10,000 pods and shows them as node summaries at first', () => {
    const big = syntheticCluster({ nodes: 100, podsPerNode: 100, churn: 200, seed: 42 });
    const s = reduceAll(big.initial, big.events);
    const l = layoutCluster(s, assignSlots(EMPTY_SLOTS, s), desktop);
    // All 10,000 up, less the few the churn is replacing right now.
    const pods = Object.values(s.nodes).reduce((n, x) => n + Object.keys(x.pods).length, 0);
    expect(pods).toBeGreaterThan(9_950);
    expect(l.podCount).toBe(pods);
    expect(l.nodes).toHaveLength(100);
    expect(detailAt(fitTransform(l, desktop).k)).toBe('summary');
    const total = l.nodes.reduce(
      (n, x) =>
        n + x.counts.ok + x.counts.pending + x.counts.done + x.counts.failed + x.counts.unknown,
      0,
    );
    expect(total).toBe(pods);
  });
});

describe('layout caches', () => {
  it('lay out a stream of updates exactly as afresh, reusing untouched nodes', () => {
    // A structurally equal copy of the state defeats every cache: the reference result.
    const cold = (s: ClusterState, slots: SlotBook) =>
      layoutCluster(JSON.parse(JSON.stringify(s)) as ClusterState, slots, desktop);
    let book = EMPTY_SLOTS;
    let prev: ClusterLayout | undefined;
    let reused = 0;
    let state = tl.initial;
    for (let i = 0; i < tl.events.length; i += 9) {
      state = reduceAll(state, tl.events.slice(i, i + 9));
      book = assignSlots(book, state);
      const warm = layoutCluster(state, book, desktop);
      if (i % 90 === 0) {
        const ref = cold(state, book);
        const strip = (l: ClusterLayout) =>
          JSON.parse(
            JSON.stringify(l, (k, v: unknown) => (k === 'node' || k === 'pod' ? undefined : v)),
          ) as unknown;
        expect(strip(warm)).toEqual(strip(ref));
      }
      for (const n of warm.nodes) if (prev?.nodes.includes(n)) reused++;
      prev = warm;
    }
    expect(reused).toBeGreaterThan(0);
  });
});
