import { describe, expect, it } from 'vitest';
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { TimelineEvent, UnsequencedEvent } from './events';
import { reduce, reduceAll } from './reducer';
import { emptyState, type PodView } from './state';

const pod = (uid: string, extra: Partial<PodView> = {}): PodView => ({
  uid,
  name: `pod-${uid}`,
  namespace: 'default',
  node: 'n1',
  specSource: 'annotation',
  spec: {
    restartPolicy: 'Always',
    initContainers: [
      { name: 'init-b', sidecar: false },
      { name: 'init-a', sidecar: true },
    ],
    containers: ['web'],
    hostNetwork: false,
  },
  status: { phase: 'Pending', conditions: [], containerStatuses: [], initContainerStatuses: [] },
  why: { phase: { id: 'phase.pending' }, conditions: {}, containers: {} },
  createdAt: 1000,
  ...extra,
});

const running = (name: string, restartCount = 0): V1ContainerStatus => ({
  name,
  image: 'img',
  imageID: '',
  ready: true,
  restartCount,
  state: { running: { startedAt: new Date(2000) } },
});

const events: TimelineEvent[] = [
  { seq: 1, t: 10, node: 'n1', kind: 'node', type: 'NodeAdded', endpoint: 'unix:///a.sock' },
  { seq: 2, t: 11, node: 'n1', kind: 'pod', type: 'PodAdded', podUid: 'u1', pod: pod('u1') },
  {
    seq: 3,
    t: 12,
    node: 'n1',
    kind: 'cri',
    type: 'ContainerStarted',
    source: 'relist',
    podUid: 'u1',
    container: 'web',
  },
  {
    seq: 4,
    t: 12,
    node: 'n1',
    kind: 'container',
    type: 'ContainerStateChanged',
    podUid: 'u1',
    list: 'regular',
    name: 'web',
    status: running('web'),
    to: 'running',
    cause: 3,
  },
  {
    seq: 5,
    t: 12,
    node: 'n1',
    kind: 'pod',
    type: 'PodPhaseChanged',
    podUid: 'u1',
    phase: 'Running',
    from: 'Pending',
    why: { id: 'phase.running' },
    cause: 3,
  },
  {
    seq: 6,
    t: 13,
    node: 'n1',
    kind: 'pod',
    type: 'PodConditionChanged',
    podUid: 'u1',
    condition: { type: 'Ready', status: 'True' },
    why: { id: 'ready.true' },
  },
  {
    seq: 7,
    t: 14,
    node: 'n1',
    kind: 'container',
    type: 'ContainerStateChanged',
    podUid: 'u1',
    list: 'init',
    name: 'init-a',
    status: running('init-a'),
  },
  {
    seq: 8,
    t: 14,
    node: 'n1',
    kind: 'container',
    type: 'ContainerStateChanged',
    podUid: 'u1',
    list: 'init',
    name: 'init-b',
    status: running('init-b'),
  },
  {
    seq: 9,
    t: 15,
    node: 'n1',
    kind: 'pod',
    type: 'PodUpdated',
    podUid: 'u1',
    patch: { nextRestartAt: { web: 99 }, status: { podIP: '10.0.0.1' } },
  },
  {
    seq: 10,
    t: 16,
    node: 'n1',
    kind: 'node',
    type: 'NodeConditionChanged',
    condition: { type: 'Ready', status: 'True' },
    why: { id: 'node.ready' },
  },
];

describe('reduce', () => {
  it('folds derived events into nodes, pods and containers', () => {
    const s = reduceAll(emptyState(), events);
    expect(s.seq).toBe(10);
    expect(s.t).toBe(16);
    const p = s.nodes.n1?.pods.u1;
    expect(p?.status.phase).toBe('Running');
    expect(p?.why.phase.id).toBe('phase.running');
    expect(p?.status.containerStatuses?.[0]?.state?.running).toBeDefined();
    expect(p?.status.conditions?.[0]).toEqual({ type: 'Ready', status: 'True' });
    expect(p?.status.podIP).toBe('10.0.0.1');
    expect(p?.nextRestartAt).toEqual({ web: 99 });
    expect(s.nodes.n1?.conditions[0]?.type).toBe('Ready');
  });

  it('orders init statuses like spec.initContainers and others by name', () => {
    const s = reduceAll(emptyState(), events);
    expect(s.nodes.n1?.pods.u1?.status.initContainerStatuses?.map((c) => c.name)).toEqual([
      'init-b',
      'init-a',
    ]);
  });

  it('ignores events at or below the current seq (duplicates are no-ops)', () => {
    const once = reduceAll(emptyState(), events);
    const twice = reduceAll(once, events);
    expect(twice).toBe(once);
    const interleaved = reduceAll(
      emptyState(),
      events.flatMap((e) => [e, e]),
    );
    expect(interleaved).toEqual(once);
  });

  it('shares structure: an event about one pod leaves other nodes untouched', () => {
    const base = reduceAll(emptyState(), [
      ...events,
      { seq: 11, t: 17, node: 'n2', kind: 'node', type: 'NodeAdded', endpoint: 'unix:///b.sock' },
    ]);
    const next = reduce(base, {
      seq: 12,
      t: 18,
      node: 'n1',
      kind: 'pod',
      type: 'PodPhaseChanged',
      podUid: 'u1',
      phase: 'Failed',
    });
    expect(next.nodes.n2).toBe(base.nodes.n2);
    expect(next.nodes.n1).not.toBe(base.nodes.n1);
  });

  it('removes pods, containers and nodes', () => {
    let s = reduceAll(emptyState(), events);
    s = reduce(s, {
      seq: 11,
      t: 20,
      node: 'n1',
      kind: 'container',
      type: 'ContainerRemoved',
      podUid: 'u1',
      list: 'init',
      name: 'init-a',
    });
    expect(s.nodes.n1?.pods.u1?.status.initContainerStatuses?.map((c) => c.name)).toEqual([
      'init-b',
    ]);
    s = reduce(s, { seq: 12, t: 21, node: 'n1', kind: 'pod', type: 'PodRemoved', podUid: 'u1' });
    expect(s.nodes.n1?.pods.u1).toBeUndefined();
    s = reduce(s, { seq: 13, t: 22, node: 'n1', kind: 'node', type: 'NodeRemoved' });
    expect(s.nodes.n1).toBeUndefined();
  });

  it('clears patched fields with null', () => {
    let s = reduceAll(emptyState(), events);
    s = reduce(s, {
      seq: 11,
      t: 20,
      node: 'n1',
      kind: 'pod',
      type: 'PodUpdated',
      podUid: 'u1',
      patch: { nextRestartAt: null },
    });
    expect(s.nodes.n1?.pods.u1?.nextRestartAt).toBeUndefined();
  });

  it('tolerates events for entities it does not know (no throw, seq advances)', () => {
    const s = reduce(emptyState(), {
      seq: 5,
      t: 1,
      node: 'ghost',
      kind: 'pod',
      type: 'PodPhaseChanged',
      podUid: 'x',
      phase: 'Running',
    });
    expect(s.seq).toBe(5);
    expect(s.nodes).toEqual({});
  });
});

describe('reduce with hostile names', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'handles a node and a pod named %s like any other',
    (name) => {
      const s = reduceAll(emptyState(), [
        { seq: 1, t: 1, node: name, kind: 'node', type: 'NodeAdded', endpoint: 'unix:///x.sock' },
        {
          seq: 2,
          t: 2,
          node: name,
          kind: 'pod',
          type: 'PodAdded',
          podUid: name,
          pod: pod(name, { node: name }),
        },
        {
          seq: 3,
          t: 3,
          node: name,
          kind: 'pod',
          type: 'PodPhaseChanged',
          podUid: name,
          phase: 'Running',
        },
        {
          seq: 4,
          t: 4,
          node: 'other',
          kind: 'pod',
          type: 'PodPhaseChanged',
          podUid: name,
          phase: 'Failed',
        },
      ]);
      expect(Object.keys(s.nodes)).toEqual([name]);
      expect(Object.getOwnPropertyDescriptor(s.nodes, name)?.value.pods[name]?.status.phase).toBe(
        'Running',
      );
      expect(Object.getPrototypeOf(s.nodes)).toBe(Object.prototype);
    },
  );
});

describe('reduceAll', () => {
  const oneByOne = (start: ReturnType<typeof emptyState>, batch: TimelineEvent[]) => {
    let s = start;
    for (const e of batch) s = reduce(s, e);
    return s;
  };
  // Two nodes and pods with ordinary and hostile names, added, changed, removed and added again
  // within one batch: every in-place path (node map, node view, pod map, pod view, its status,
  // why and their maps) runs more than once.
  const names = ['a', '__proto__', 'constructor'];
  const batch: TimelineEvent[] = [];
  let seq = 0;
  const push = (e: UnsequencedEvent) => batch.push({ ...e, seq: ++seq });
  for (const node of ['n1', '__proto__'])
    push({ t: 1, node, kind: 'node', type: 'NodeAdded', endpoint: `unix:///${node}.sock` });
  for (const node of ['n1', '__proto__'])
    for (const uid of names) {
      push({ t: 2, node, kind: 'pod', type: 'PodAdded', podUid: uid, pod: pod(uid, { node }) });
      push({ t: 3, node, kind: 'cri', type: 'ContainerStarted', source: 'relist', podUid: uid });
      push({
        t: 3,
        node,
        kind: 'container',
        type: 'ContainerStateChanged',
        podUid: uid,
        list: 'regular',
        name: 'web',
        status: running('web'),
      });
      for (const name of ['web', '__proto__', 'side'])
        push({
          t: 3,
          node,
          kind: 'container',
          type: 'ContainerStatusChanged',
          podUid: uid,
          list: name === 'side' ? 'init' : 'regular',
          name,
          status: running(name, 1),
          why: { id: `container.${name}` },
        });
      push({ t: 4, node, kind: 'pod', type: 'PodPhaseChanged', podUid: uid, phase: 'Running' });
      for (const type of ['Ready', '__proto__', 'ContainersReady', 'Ready'])
        push({
          t: 4,
          node,
          kind: 'pod',
          type: 'PodConditionChanged',
          podUid: uid,
          condition: { type, status: 'True' },
          why: { id: `cond.${type}` },
        });
      push({
        t: 5,
        node,
        kind: 'pod',
        type: 'PodPhaseChanged',
        podUid: uid,
        phase: 'Failed',
        why: { id: 'phase.failed' },
      });
      push({
        t: 5,
        node,
        kind: 'container',
        type: 'ContainerRemoved',
        podUid: uid,
        list: 'regular',
        name: '__proto__',
      });
      for (const patch of [
        { nextRestartAt: { web: 9 }, status: { podIP: '10.0.0.9' }, whyPhase: { id: 'w' } },
        { nextRestartAt: null },
      ])
        push({ t: 5, node, kind: 'pod', type: 'PodUpdated', podUid: uid, patch });
    }
  push({ t: 6, node: 'n1', kind: 'node', type: 'NodeUpdated', health: { connected: true } });
  push({ t: 6, node: 'n1', kind: 'pod', type: 'PodRemoved', podUid: '__proto__' });
  push({
    t: 7,
    node: 'n1',
    kind: 'pod',
    type: 'PodAdded',
    podUid: '__proto__',
    pod: pod('__proto__'),
  });
  push({
    t: 7,
    node: '__proto__',
    kind: 'node',
    type: 'NodeConditionChanged',
    condition: { type: 'Ready', status: 'True' },
  });
  push({ t: 8, node: '__proto__', kind: 'node', type: 'NodeRemoved' });
  push({
    t: 8,
    node: 'n1',
    kind: 'container',
    type: 'ContainerRemoved',
    podUid: 'a',
    list: 'regular',
    name: 'web',
  });

  /** New values for every part of pod `uid` on n1 (status lists, conditions, phase, patch, whys). */
  const changes = (uid: string, from: number): TimelineEvent[] =>
    (
      [
        {
          t: 9,
          node: 'n1',
          kind: 'container',
          type: 'ContainerStatusChanged',
          podUid: uid,
          list: 'regular',
          name: 'web',
          status: running('web', 5),
          why: { id: 'again' },
        },
        {
          t: 9,
          node: 'n1',
          kind: 'container',
          type: 'ContainerRemoved',
          podUid: uid,
          list: 'init',
          name: 'side',
        },
        {
          t: 9,
          node: 'n1',
          kind: 'pod',
          type: 'PodConditionChanged',
          podUid: uid,
          condition: { type: 'Ready', status: 'False' },
          why: { id: 'not.ready' },
        },
        {
          t: 9,
          node: 'n1',
          kind: 'pod',
          type: 'PodPhaseChanged',
          podUid: uid,
          phase: 'Succeeded',
          why: { id: 'done' },
        },
        {
          t: 9,
          node: 'n1',
          kind: 'pod',
          type: 'PodUpdated',
          podUid: uid,
          patch: {
            status: { podIP: '10.9.9.9' },
            nextRestartAt: { web: 77 },
            whyPhase: { id: 'x' },
          },
        },
      ] satisfies UnsequencedEvent[]
    ).map((e, i) => ({ ...e, seq: from + i }));

  it('folds a batch into the same state as reduce event by event', () => {
    for (let cut = 0; cut <= batch.length; cut += 3) {
      const start = oneByOne(emptyState(), batch.slice(0, cut));
      const rest = batch.slice(cut);
      const together = reduceAll(start, rest);
      const apart = oneByOne(start, rest);
      expect(together).toEqual(apart);
      expect(JSON.stringify(together)).toBe(JSON.stringify(apart));
      expect(Object.getPrototypeOf(together.nodes)).toBe(Object.prototype);
      const n1 = Object.getOwnPropertyDescriptor(together.nodes, 'n1')?.value;
      if (n1) expect(Object.getPrototypeOf(n1.pods)).toBe(Object.prototype);
    }
  });

  it('leaves the state it starts from unchanged, and shares what the batch did not touch', () => {
    const start = oneByOne(emptyState(), batch.slice(0, 47)); // both nodes; a, __proto__, constructor on n1
    const before = structuredClone(start);
    const startN1 = start.nodes.n1;
    const untouched = startN1?.pods.constructor;
    const next = reduceAll(start, [
      {
        seq: 48,
        t: 9,
        node: 'n1',
        kind: 'pod',
        type: 'PodPhaseChanged',
        podUid: 'a',
        phase: 'Failed',
      },
      { seq: 49, t: 9, node: 'n1', kind: 'pod', type: 'PodRemoved', podUid: 'a' },
      { seq: 50, t: 9, node: 'n1', kind: 'pod', type: 'PodAdded', podUid: 'b', pod: pod('b') },
      ...changes('__proto__', 51),
    ]);
    expect(start).toEqual(before);
    expect(start.nodes.n1).toBe(startN1);
    expect(next.nodes.n1).not.toBe(startN1);
    expect(next.nodes.n1?.pods).not.toBe(startN1?.pods);
    expect(next.nodes.n1?.pods.constructor).toBe(untouched);
    expect(Object.keys(next.nodes.n1?.pods ?? {})).toEqual(['__proto__', 'constructor', 'b']);
  });
});
