/**
 * Drift on the timeline: driftEvents emits "set" events only where a list changed, and the
 * reducer applies them (and API-server Events) like every other event.
 */
import { describe, expect, it } from 'vitest';
import type { K8sEvent, TimelineEvent, UnsequencedEvent } from '../timeline/events';
import { reduce, reduceAll } from '../timeline/reducer';
import { emptyState, type ClusterState } from '../timeline/state';
import { cases, N, s } from './testing/cases';
import { detectClusterDrift } from './detect';
import { allDrift, driftEvents } from './patches';

const stale = cases.find((c) => c.name.startsWith('staleStatus: API says Running'));
if (!stale) throw new Error('missing fixture case');

function seeded(): ClusterState {
  const node = stale!.nodes[N]!;
  const pod = node.pods['u-web']!;
  return reduceAll(emptyState(), [
    {
      seq: 1,
      t: s(1),
      kind: 'node',
      type: 'NodeAdded',
      node: N,
      endpoint: node.endpoint,
      health: node.health,
    },
    { seq: 2, t: s(2), kind: 'pod', type: 'PodAdded', node: N, podUid: 'u-web', pod },
  ]);
}

function fold(state: ClusterState, events: UnsequencedEvent[]): ClusterState {
  let seq = state.seq;
  return reduceAll(
    state,
    events.map((e): TimelineEvent => ({ ...e, seq: ++seq })),
  );
}

describe('driftEvents + reducer', () => {
  it('sets drift on the pod through a PodUpdated patch, then emits nothing while it is unchanged', () => {
    let state = seeded();
    const drift = detectClusterDrift({ api: stale.api, nodes: state.nodes, now: s(90) });
    const events = driftEvents(state.nodes, drift, s(90));
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'pod',
        type: 'PodUpdated',
        podUid: 'u-web',
        patch: { drift: drift.pods['u-web'] },
      }),
    ]);
    state = fold(state, events);
    expect(state.nodes[N]?.pods['u-web']?.drift?.map((d) => d.kind)).toEqual([
      'staleStatus',
      'phaseMismatch',
      'conditionMismatch',
      'conditionMismatch',
    ]);
    expect(allDrift(state.nodes)).toHaveLength(4);
    // Ten seconds later only the lag has grown: no new events.
    const later = detectClusterDrift({ api: stale.api, nodes: state.nodes, now: s(100) });
    expect(later.pods['u-web']?.[0]?.why.params?.lagSeconds).toBe(40);
    expect(driftEvents(state.nodes, later, s(100))).toEqual([]);
  });

  it('clears drift with null when the disagreement resolves', () => {
    let state = seeded();
    state = fold(
      state,
      driftEvents(
        state.nodes,
        detectClusterDrift({ api: stale.api, nodes: state.nodes, now: s(90) }),
        s(90),
      ),
    );
    const cleared = driftEvents(state.nodes, { pods: {}, nodes: {} }, s(95));
    expect(cleared).toEqual([
      expect.objectContaining({ type: 'PodUpdated', patch: { drift: null } }),
    ]);
    state = fold(state, cleared);
    expect(state.nodes[N]?.pods['u-web']).not.toHaveProperty('drift');
  });

  it('sets and clears node drift through NodeUpdated, keeping the node’s other fields', () => {
    let state = seeded();
    const nodeDrift = {
      pods: {},
      nodes: {
        [N]: [
          {
            kind: 'missingPod' as const,
            node: N,
            field: 'spec.nodeName',
            api: 'Running',
            runtime: null,
            status: 'drift' as const,
            why: { id: 'drift.missing.notCreated' },
          },
        ],
      },
    };
    state = fold(state, driftEvents(state.nodes, nodeDrift, s(10)));
    expect(state.nodes[N]?.drift).toHaveLength(1);
    expect(state.nodes[N]?.pods['u-web']).toBeDefined();
    expect(state.nodes[N]?.endpoint).toBe(`unix:///run/${N}.sock`);
    state = fold(state, driftEvents(state.nodes, { pods: {}, nodes: {} }, s(11)));
    expect(state.nodes[N]).not.toHaveProperty('drift');
  });

  it('folds an API-server Event like a CRI event: seq and t advance, nothing else changes', () => {
    const state = seeded();
    const event: K8sEvent = {
      seq: 3,
      t: s(30),
      kind: 'k8s',
      type: 'Event',
      node: N,
      reason: 'BackOff',
      message: 'Back-off restarting failed container app',
      eventType: 'Warning',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: 'u-web' },
      count: 4,
      podUid: 'u-web',
      container: 'app',
    };
    const next = reduce(state, event);
    expect(next.seq).toBe(3);
    expect(next.t).toBe(s(30));
    expect(next.nodes).toBe(state.nodes);
    expect(reduce(next, event)).toBe(next);
  });
});
