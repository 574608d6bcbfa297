import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { demoTimeline } from '@/components/data/testing/demo';
import { podNameIndex } from '@/components/log/describe';
import { buildLanes } from './lanes';
import { formatOffset, relativeTicks, timeScale } from './scales';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);

describe('time axis', () => {
  it('maps the window onto the track and clamps outside it', () => {
    const s = timeScale(T0, T0 + 600_000, 100, 700);
    expect(s(T0)).toBe(100);
    expect(s(T0 + 300_000)).toBe(400);
    expect(s(T0 - 1)).toBe(100);
    expect(s.invert(700)).toBe(T0 + 600_000);
  });

  it('places ticks at round offsets back from the reference, far enough apart', () => {
    const s = timeScale(T0, T0 + 600_000, 0, 600);
    const ticks = relativeTicks(s, T0 + 600_000, 80);
    expect(ticks.map((t) => t.seconds)).toEqual([-600, -480, -360, -240, -120, 0]);
    for (let i = 1; i < ticks.length; i++)
      expect((ticks[i]?.x ?? 0) - (ticks[i - 1]?.x ?? 0)).toBeGreaterThanOrEqual(80);
    // A reference after the window (a live edge that moved on) still gives aligned ticks.
    const later = relativeTicks(s, T0 + 630_000, 80);
    expect(later.every((t) => t.seconds % 120 === 0)).toBe(true);
  });

  it('labels offsets in each language', () => {
    expect(formatOffset(-120, 'en')).toBe('-2 min');
    expect(formatOffset(-30, 'en')).toBe('-30 sec');
    expect(formatOffset(-3600, 'en')).toBe('-1 hr');
    expect(formatOffset(-120, 'zh-CN')).toBe('-2分钟');
  });
});

describe('lanes', () => {
  const tl = demoTimeline();
  const [node1, node2] = tl.nodes;
  const final = reduceAll(tl.initial, tl.events);
  const pods = Object.values(final.nodes).flatMap((n) => Object.values(n.pods));
  const names = podNameIndex(tl.events, pods);
  const current = new Map(pods.map((p) => [p.uid, p.node]));

  it('groups pod lanes under their node lanes with markers coloured by the new state', () => {
    const lanes = buildLanes(
      tl.events,
      { from: tl.start, to: tl.end },
      names,
      Object.keys(final.nodes),
      { maxLanes: 100, currentPods: current },
    );
    expect(lanes[0]).toMatchObject({ id: node1, layer: 'node' });
    const nodeIdx = lanes.findIndex((l) => l.id === node2);
    const afterNode2 = lanes.slice(nodeIdx + 1).findIndex((l) => l.layer === 'node');
    expect(afterNode2).toBeGreaterThan(0);
    expect(lanes.slice(nodeIdx + 1, nodeIdx + 1 + afterNode2).every((l) => l.node === node2)).toBe(
      true,
    );
    // The crash loop: added Pending (the kubelet syncs it before any sandbox), then runs (ok),
    // exits and backs off (failed), over and over.
    const api = lanes.find((l) => l.label.startsWith('shop/payments-worker-'));
    const [first, ...rest] = api?.markers ?? [];
    expect(first?.tone).toBe('pending');
    expect(new Set(rest.map((m) => m.tone))).toEqual(new Set(['ok', 'failed']));
    // A Job that succeeds ends done.
    const report = lanes.find((l) => l.label.startsWith('batch/report-'));
    expect(report?.markers.some((m) => m.tone === 'done')).toBe(true);
  });

  it('keeps the selection and troubled pods when lanes run out', () => {
    // cart's readiness probe fails for 12 s of every 32 s (server/demo/workload.ts): a Warning
    // (Unhealthy) every probe period, the most failures of any pod.
    const cart = pods.find((p) => p.name.startsWith('cart-'));
    const web = pods.find((p) => p.name.startsWith('web-'));
    const lanes = buildLanes(
      tl.events,
      { from: tl.start, to: tl.end },
      names,
      Object.keys(final.nodes),
      {
        maxLanes: 5,
        selectedPod: web?.uid ?? '',
        currentPods: current,
      },
    );
    expect(lanes).toHaveLength(5);
    expect(lanes.filter((l) => l.layer === 'node')).toHaveLength(3);
    expect(lanes.map((l) => l.id)).toEqual(expect.arrayContaining([web?.uid, cart?.uid]));
  });

  it('only marks what happened inside the window', () => {
    const from = tl.start + 300_000;
    const lanes = buildLanes(tl.events, { from, to: tl.end }, names, Object.keys(final.nodes), {
      maxLanes: 100,
    });
    expect(lanes.flatMap((l) => l.markers).every((m) => m.t >= from)).toBe(true);
  });
});
