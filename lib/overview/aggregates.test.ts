import { describe, expect, it } from 'vitest';
import { attentionOf, rankAttention, Tally, TopK, type NodeEntry } from './aggregates';
import { nodeFacts, podRow } from './cells';
import { node, pod, type NodeSpec } from './testing/fixtures';
import { GROUP_BY_READY, type AttentionItem } from './wire';

const entry = (spec: NodeSpec): NodeEntry => {
  const n = node(spec);
  return { facts: nodeFacts(n), rows: Object.values(n.pods).map((p) => podRow(p, 1_000)) };
};

const zone = (z: string) => ({ 'topology.kubernetes.io/zone': z });

describe('Tally', () => {
  const a = entry({
    name: 'a',
    labels: zone('x'),
    pods: [
      pod({ uid: '1', namespace: 'shop', containers: ['CrashLoopBackOff'], ready: false }),
      pod({ uid: '2', namespace: 'shop' }),
    ],
  });
  const b = entry({
    name: 'b',
    ready: 'Unknown',
    readyReason: 'NodeStatusUnknown',
    labels: zone('y'),
    pods: [
      pod({ uid: '3', namespace: 'web', phase: 'Pending', containers: ['ContainerCreating'] }),
    ],
  });

  it('counts nodes, pods, phases, reasons and namespaces', () => {
    const t = new Tally();
    t.apply(a, 1);
    t.apply(b, 1);
    const agg = t.aggregates([a, b], 'topology.kubernetes.io/zone');
    expect(agg.nodes).toBe(2);
    expect(agg.pods).toBe(3);
    expect(agg.containers).toBe(3);
    expect(agg.nodesByReady).toEqual({ True: 1, False: 0, Unknown: 1, '': 0 });
    expect(agg.podsByHealth).toEqual({ empty: 0, ok: 1, pending: 1, warning: 0, failing: 1 });
    expect(agg.podsByPhase).toEqual({ Running: 2, Pending: 1 });
    expect(agg.reasons).toEqual([
      { reason: 'ContainerCreating', pods: 1, nodes: 1, namespaces: 1 },
      { reason: 'CrashLoopBackOff', pods: 1, nodes: 1, namespaces: 1 },
      { reason: 'NodeStatusUnknown', pods: 0, nodes: 1, namespaces: 0 },
    ]);
    expect(agg.namespaces.map((n) => n.namespace)).toEqual(['shop', 'web']);
    expect(agg.groups.map((g) => [g.value, g.nodes])).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
  });

  it('taking a node away leaves what was there before', () => {
    const t = new Tally();
    t.apply(a, 1);
    const before = t.aggregates([a]);
    t.apply(b, 1);
    t.apply(b, -1);
    expect(t.aggregates([a])).toEqual(before);
  });

  it('groups by the Ready state', () => {
    const t = new Tally();
    expect(t.aggregates([a, b], GROUP_BY_READY).groups.map((g) => g.value)).toEqual([
      'True',
      'Unknown',
    ]);
  });

  it('a gone node counts nothing', () => {
    const t = new Tally();
    t.apply({ ...a, gone: true }, 1);
    expect(t.aggregates([]).nodes).toBe(0);
  });
});

describe('attention', () => {
  const item = (over: Partial<AttentionItem>): AttentionItem => ({
    kind: 'pod',
    node: 'n',
    reason: 'r',
    health: 'warning',
    ...over,
  });
  it('ranks failing first, nodes before pods, oldest first', () => {
    const items = [
      item({ pod: 'w' }),
      item({ health: 'failing', pod: 'f-new', since: 20 }),
      item({ health: 'failing', pod: 'f-old', since: 10 }),
      item({ kind: 'node', health: 'failing', node: 'z' }),
      item({ health: 'pending', pod: 'p' }),
    ];
    const ranked = rankAttention(items, 3);
    expect(ranked.total).toBe(5);
    expect(ranked.items.map((i) => i.pod ?? i.node)).toEqual(['z', 'f-old', 'f-new']);
  });

  it('a node lists itself and its pods that are not ok', () => {
    const e = entry({
      name: 'b',
      ready: 'Unknown',
      pods: [pod({ uid: '1' }), pod({ uid: '2', ready: false })],
    });
    expect(attentionOf(e).map((i) => [i.kind, i.health])).toEqual([
      ['node', 'failing'],
      ['pod', 'warning'],
    ]);
  });
});

describe('TopK', () => {
  it('gives the k smallest in order', () => {
    const top = new TopK<number>(5, (x, y) => x - y);
    const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    for (const v of values) top.offer(v);
    expect(top.sorted()).toEqual([0, 1, 2, 3, 4]);
  });
});
