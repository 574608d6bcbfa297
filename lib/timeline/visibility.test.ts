import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from './events';
import { reduceAll } from './reducer';
import { emptyState, type PodView } from './state';
import { VisibilityFilter } from './visibility';

const pod = (uid: string, namespace: string): PodView => ({
  uid,
  name: `pod-${uid}`,
  namespace,
  node: 'n1',
  specSource: 'annotation',
  spec: { restartPolicy: 'Always', initContainers: [], containers: ['web'], hostNetwork: false },
  status: { phase: 'Pending', conditions: [], containerStatuses: [], initContainerStatuses: [] },
  why: { phase: { id: 'phase.pending' }, conditions: {}, containers: {} },
  createdAt: 1000,
});

const cri = (seq: number, podUid?: string): TimelineEvent => ({
  seq,
  t: seq,
  node: 'n1',
  kind: 'cri',
  type: podUid ? 'ContainerStarted' : 'RelistFailed',
  source: 'relist',
  ...(podUid ? { podUid, container: 'web' } : {}),
});

const k8s = (seq: number, namespace?: string, podUid?: string): TimelineEvent => ({
  seq,
  t: seq,
  node: 'n1',
  kind: 'k8s',
  type: 'Event',
  reason: 'Pulled',
  message: 'pulled',
  eventType: 'Normal',
  involvedObject: {
    kind: namespace ? 'Pod' : 'Node',
    name: 'x',
    ...(namespace ? { namespace } : {}),
  },
  count: 1,
  ...(podUid ? { podUid } : {}),
});

const events: TimelineEvent[] = [
  { seq: 1, t: 1, node: 'n1', kind: 'node', type: 'NodeAdded', endpoint: 'unix:///a.sock' },
  {
    seq: 2,
    t: 2,
    node: 'n1',
    kind: 'pod',
    type: 'PodAdded',
    podUid: 'team-a-pod',
    pod: pod('team-a-pod', 'team-a'),
  },
  {
    seq: 3,
    t: 3,
    node: 'n1',
    kind: 'pod',
    type: 'PodAdded',
    podUid: 'team-b-pod',
    pod: pod('team-b-pod', 'team-b'),
  },
  cri(4, 'team-a-pod'),
  cri(5, 'team-b-pod'),
  cri(6),
  {
    seq: 7,
    t: 7,
    node: 'n1',
    kind: 'pod',
    type: 'PodPhaseChanged',
    podUid: 'team-b-pod',
    phase: 'Running',
  },
  k8s(8, 'team-a'),
  k8s(9, 'team-b'),
  k8s(10),
  cri(11, 'never-added'),
];

const seqs = (es: TimelineEvent[]) => es.map((e) => e.seq);

describe('VisibilityFilter', () => {
  it('a predicate that reads every namespace still hides a pod it cannot place (callers skip the filter for users who read all namespaces)', () => {
    const f = new VisibilityFilter(() => true);
    expect(seqs(f.events(events))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('a user limited to team-a sees its pods, the node and node-level events — nothing of team-b', () => {
    const f = new VisibilityFilter((ns) => ns === 'team-a');
    expect(seqs(f.events(events))).toEqual([1, 2, 4, 6, 8, 10]);
  });

  it('a user who may read no namespace sees the node only', () => {
    const f = new VisibilityFilter(() => false);
    expect(seqs(f.events(events))).toEqual([1, 6, 10]);
  });

  it('filters a state the same way, without changing it, and learns its pods for later events', () => {
    const full = reduceAll(emptyState(), events.slice(0, 3));
    const f = new VisibilityFilter((ns) => ns === 'team-b');
    const shown = f.state(full);
    expect(Object.keys(shown.nodes.n1!.pods)).toEqual(['team-b-pod']);
    expect(Object.keys(full.nodes.n1!.pods).sort()).toEqual(['team-a-pod', 'team-b-pod']);
    // Events after the state: the filter places their pods from the state it saw.
    expect(seqs(f.events(events.slice(3)))).toEqual([5, 6, 7, 9, 10]);
  });

  it('folding the filtered events gives the filtered state (diagram, log and timeline agree)', () => {
    const f1 = new VisibilityFilter((ns) => ns === 'team-a');
    const f2 = new VisibilityFilter((ns) => ns === 'team-a');
    const fromEvents = reduceAll(emptyState(), f1.events(events));
    const fromState = f2.state(reduceAll(emptyState(), events));
    expect(Object.keys(fromEvents.nodes.n1!.pods)).toEqual(Object.keys(fromState.nodes.n1!.pods));
  });

  it('an event about a pod by uid only (an API Event without a namespace) follows the pod', () => {
    const f = new VisibilityFilter((ns) => ns === 'team-a');
    f.events(events.slice(0, 3));
    expect(f.allows(k8s(20, undefined, 'team-a-pod'))).toBe(true);
    expect(f.allows(k8s(21, undefined, 'team-b-pod'))).toBe(false);
  });
});
