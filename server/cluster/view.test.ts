import { describe, expect, it } from 'vitest';
import { recordTemplates, SyntheticNode } from '@/bench/lib/synthetic-nodes';
import type { PodEvent, TimelineEvent } from '@/lib/timeline/events';
import { reduce } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { ENVELOPE_VERSION, newEpoch, type BusMessage } from './envelope';
import { gidOf, globalEvents } from './global';
import { heartbeatOf } from './testing';
import { ClusterView } from './view';

const C = 'c';
const e1 = newEpoch(1_000);
const e2 = newEpoch(2_000);

function nodeAdded(node: string, epoch: string, seq: number): BusMessage {
  return {
    v: ENVELOPE_VERSION,
    type: 'events',
    cluster: C,
    node,
    epoch,
    seq,
    t: 1,
    events: [{ kind: 'node', type: 'NodeAdded', seq, t: 1, node, endpoint: 'unix:///x' }],
  };
}

function podAdded(node: string, epoch: string, seq: number, uid: string): BusMessage {
  const ev = {
    kind: 'pod',
    type: 'PodAdded',
    seq,
    t: 2,
    node,
    podUid: uid,
    pod: { uid, name: uid, namespace: 'default', node, phase: 'Running', containers: [] },
  } as unknown as PodEvent;
  return { v: ENVELOPE_VERSION, type: 'events', cluster: C, node, epoch, seq, t: 2, events: [ev] };
}

describe('cluster view', () => {
  it('applies each (node, epoch, seq) once, under global ids, and records gaps explicit or not', () => {
    const v = new ClusterView({ graceMs: 1_000 });
    let s = 0;
    const d = (message: BusMessage) => ({ streamSeq: ++s, subject: 'x', message });
    expect(v.apply(d(nodeAdded('n', e1, 1)))[0]?.seq).toBe(gidOf(1, 0));
    expect(v.apply(d(nodeAdded('n', e1, 1)))).toEqual([]); // republished
    expect(v.stats.duplicates).toBe(1);
    v.apply(d(podAdded('n', e1, 4, 'p1'))); // 2..3 never came
    v.apply(
      d({
        v: 1,
        type: 'gap',
        cluster: C,
        node: 'n',
        epoch: e1,
        seq: 5,
        t: 3,
        lost: { from: 5, to: 9 },
        reason: 'outbox-full',
      }),
    );
    v.apply(d(podAdded('n', e1, 10, 'p2')));
    expect(v.gaps.map((g) => [g.from, g.to, g.explicit])).toEqual([
      [2, 3, false],
      [5, 9, true],
    ]);
    expect(Object.keys(v.snapshot(0).nodes.n?.pods ?? {})).toEqual(['p1', 'p2']);
  });

  it('a new agent run replaces what the old one knew; an older run is ignored', () => {
    const v = new ClusterView({ graceMs: 1_000 });
    let s = 0;
    const d = (message: BusMessage) => ({ streamSeq: ++s, subject: 'x', message });
    v.apply(d(nodeAdded('n', e1, 1)));
    v.apply(d(podAdded('n', e1, 2, 'gone')));
    v.apply(d(nodeAdded('n', e2, 1)));
    v.apply(d(podAdded('n', e2, 2, 'still-here')));
    v.apply(d(podAdded('n', e1, 3, 'late-old-run')));
    expect(Object.keys(v.snapshot(0).nodes.n?.pods ?? {})).toEqual(['still-here']);
    expect(v.stats.staleEpoch).toBe(1);
  });

  it('judges contact by heartbeat age: Ready Unknown after the grace period, back when heartbeats return', () => {
    const v = new ClusterView({ graceMs: 1_000 });
    v.apply({ streamSeq: 1, subject: 'x', message: nodeAdded('n', e1, 1) });
    v.heartbeat(heartbeatOf(C, 'n', e1, 1, 10_000), 10_000);
    expect(v.snapshot(10_500).nodes.n?.conditions.some((c) => c.status === 'Unknown')).toBe(false);
    const lost = v.snapshot(11_500).nodes.n;
    expect(lost?.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(lost?.health.connected).toBe(false);
    v.heartbeat(heartbeatOf(C, 'n', e1, 1, 12_000), 12_000);
    expect(v.snapshot(12_100).nodes.n?.conditions.some((c) => c.status === 'Unknown')).toBe(false);
  });

  it("an agent silent past the grace period: the node lifecycle controller's MarkPodsNotReady on its pods when Ready was True, not when the kubelet had reported NotReady", () => {
    const podWithReady = (node: string, seq: number, uid: string): BusMessage => {
      const m = podAdded(node, e1, seq, uid);
      const ev = (m as { events: PodEvent[] }).events[0] as PodEvent & { pod: object };
      ev.pod = {
        uid,
        name: uid,
        namespace: 'default',
        node,
        specSource: 'inferred',
        spec: { restartPolicy: 'Always', initContainers: [], containers: [], hostNetwork: false },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
        why: { phase: { id: 'x' }, conditions: {}, containers: {} },
        createdAt: 1,
      };
      return m;
    };
    const readyAs = (node: string, seq: number, status: string): BusMessage => ({
      v: ENVELOPE_VERSION,
      type: 'events',
      cluster: C,
      node,
      epoch: e1,
      seq,
      t: 3,
      events: [
        {
          kind: 'node',
          type: 'NodeConditionChanged',
          seq,
          t: 3,
          node,
          condition: { type: 'Ready', status, lastTransitionTime: new Date(3) },
        },
      ],
    });
    const v = new ClusterView({ graceMs: 1_000 });
    let s = 0;
    const d = (message: BusMessage) => ({ streamSeq: ++s, subject: 'x', message });
    for (const [node, status] of [
      ['was-ready', 'True'],
      ['was-not-ready', 'False'],
    ] as const) {
      v.apply(d(nodeAdded(node, e1, 1)));
      v.apply(d(podWithReady(node, 2, `${node}-pod`)));
      v.apply(d(readyAs(node, 3, status)));
      v.heartbeat(heartbeatOf(C, node, e1, 3, 10_000), 10_000);
    }
    const ready = (node: string, at: number) =>
      v
        .snapshot(at)
        .nodes[node]?.pods[`${node}-pod`]?.status.conditions?.find((c) => c.type === 'Ready');
    expect(ready('was-ready', 10_500)?.status).toBe('True');
    expect(ready('was-ready', 11_500)?.status).toBe('False');
    expect(
      v.snapshot(11_500).nodes['was-ready']?.pods['was-ready-pod']?.why.conditions.Ready?.id,
    ).toBe('condition.ready.nodeNotReady');
    expect(ready('was-not-ready', 11_500)?.status).toBe('True');
  });

  it('counts a node that joins with its events ahead of its heartbeat from when it was first heard of', () => {
    let now = 0;
    const v = new ClusterView({ graceMs: 1_000, startedAt: 0, clock: () => now });
    // The replica has run for a minute when a new node's first relist arrives, its heartbeat not yet.
    now = 60_000;
    v.apply({ streamSeq: 1, subject: 'x', message: nodeAdded('new', e1, 1) });
    expect([...v.outOfContact(60_500)]).toEqual([]);
    expect(v.snapshot(60_500).nodes.new?.conditions.some((c) => c.status === 'Unknown')).toBe(
      false,
    );
    // No heartbeat within the grace period: then it is out of contact, as any silent node.
    expect([...v.outOfContact(61_500)]).toEqual(['new']);
    expect(v.snapshot(61_500).nodes.new?.conditions.find((c) => c.type === 'Ready')?.status).toBe(
      'Unknown',
    );
    v.heartbeat(heartbeatOf(C, 'new', e1, 1, 61_600), 61_600);
    expect([...v.outOfContact(61_700)]).toEqual([]);
  });

  it('two agent runs heartbeating for one node name are a conflict', () => {
    const v = new ClusterView({ graceMs: 1_000 });
    v.heartbeat(
      { ...heartbeatOf(C, 'n', e1, 1), instance: { host: 'a', pid: 1, endpoint: 'unix:///a' } },
      5_000,
    );
    expect(v.conflicts(5_100)).toEqual([]);
    v.heartbeat(
      { ...heartbeatOf(C, 'n', e2, 1), instance: { host: 'b', pid: 2, endpoint: 'unix:///b' } },
      5_200,
    );
    const [c] = v.conflicts(5_300);
    expect(c?.node).toBe('n');
    expect(c?.instances.map((i) => i.host).sort()).toEqual(['a', 'b']);
    // the other one goes quiet: no conflict once its last heartbeat is older than the grace
    v.heartbeat(
      { ...heartbeatOf(C, 'n', e2, 2), instance: { host: 'b', pid: 2, endpoint: 'unix:///b' } },
      6_500,
    );
    expect(v.conflicts(6_600)).toEqual([]);
  });

  it("folds each message's events as one batch: the same nodes as folding every event alone", async () => {
    const t = await recordTemplates({ pods: 6, containers: 2, churnSteps: 12 });
    const nodes = [0, 1, 2].map((i) => new SyntheticNode(C, `n-${i}`, t, i * 7));
    const messages = nodes.flatMap((n) => n.initial(1_000));
    for (let i = 0; i < 60; i++) messages.push(...(nodes[i % 3] as SyntheticNode).churn(2_000 + i));
    const v = new ClusterView({ graceMs: 1_000_000 });
    let state = emptyState();
    // Snapshots taken along the way, with their JSON then: a later fold never changes them.
    const taken: { snapshot: object; json: string }[] = [];
    messages.forEach((message, i) => {
      v.apply({ streamSeq: i + 1, subject: 'x', message });
      for (const g of globalEvents(i + 1, message)) state = reduce(state, g.event as TimelineEvent);
      const snapshot = v.snapshot(3_000).nodes;
      taken.push({ snapshot, json: JSON.stringify(snapshot) });
    });
    expect(v.stats.applied).toBeGreaterThan(messages.length);
    expect(v.snapshot(3_000).nodes).toEqual(state.nodes);
    for (const { snapshot, json } of taken) expect(JSON.stringify(snapshot)).toBe(json);
  });
});
