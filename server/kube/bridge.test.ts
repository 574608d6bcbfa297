import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterDrift, Drift } from '@/lib/drift/types';
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState, type ClusterState } from '@/lib/timeline/state';
import { DriftBridge, type DriftSource } from './bridge';
import type { NewK8sEvent } from './events';
import type { KubeChange } from './view';

const T = Date.parse('2026-03-01T10:02:00Z');

const phaseDrift = (status: Drift['status']): Drift => ({
  kind: 'phaseMismatch',
  node: 'n1',
  podUid: 'u1',
  pod: 'default/web',
  field: 'status.phase',
  api: 'Running',
  runtime: 'Failed',
  status,
  why: { id: 'drift.phase.mismatch', params: { api: 'Running', runtime: 'Failed' } },
});

/** A timeline the bridge appends to, folded with the real reducer. */
function timeline() {
  let seq = 0;
  let state: ClusterState = reduceAll(emptyState(), [
    { seq: ++seq, t: T, kind: 'node', type: 'NodeAdded', node: 'n1', endpoint: 'unix:///x' },
    {
      seq: ++seq,
      t: T,
      kind: 'pod',
      type: 'PodAdded',
      node: 'n1',
      podUid: 'u1',
      pod: {
        uid: 'u1',
        name: 'web',
        namespace: 'default',
        node: 'n1',
        specSource: 'apiserver',
        spec: {
          restartPolicy: 'Always',
          initContainers: [],
          containers: ['app'],
          hostNetwork: false,
        },
        status: { phase: 'Failed' },
        why: { phase: { id: 'x' }, conditions: {}, containers: {} },
        createdAt: T,
      },
    },
  ]);
  const appended: UnsequencedEvent[] = [];
  return {
    appended,
    get state() {
      return state;
    },
    sink: {
      state: () => state,
      now: () => T,
      append: (events: UnsequencedEvent[]) => {
        appended.push(...events);
        state = reduceAll(
          state,
          events.map((e): TimelineEvent => ({ ...e, seq: ++seq })),
        );
      },
    },
  };
}

function source(result: () => ClusterDrift) {
  const listeners = {
    event: new Set<(e: NewK8sEvent) => void>(),
    change: new Set<(c: KubeChange[]) => void>(),
  };
  const s: DriftSource = {
    drift: () => result(),
    onEvent: (l) => (listeners.event.add(l), () => listeners.event.delete(l)),
    onResourceChange: (l) => (listeners.change.add(l), () => listeners.change.delete(l)),
  };
  return { s, listeners };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('DriftBridge', () => {
  it('appends drift only when it changes, and clears it when it resolves', () => {
    let current: ClusterDrift = { pods: { u1: [phaseDrift('propagating')] }, nodes: {} };
    const tl = timeline();
    const bridge = new DriftBridge(source(() => current).s, tl.sink);
    expect(bridge.tick()).toHaveLength(1);
    expect(tl.state.nodes.n1?.pods.u1?.drift?.[0]?.status).toBe('propagating');
    expect(bridge.tick()).toEqual([]);
    current = { pods: { u1: [phaseDrift('drift')] }, nodes: {} };
    expect(bridge.tick()).toHaveLength(1);
    expect(tl.state.nodes.n1?.pods.u1?.drift?.[0]?.status).toBe('drift');
    current = { pods: {}, nodes: {} };
    bridge.tick();
    expect(tl.state.nodes.n1?.pods.u1).not.toHaveProperty('drift');
  });

  it('passes API-server Events straight through once started, and stops passing them when stopped', () => {
    const tl = timeline();
    const { s, listeners } = source(() => ({ pods: {}, nodes: {} }));
    const bridge = new DriftBridge(s, tl.sink, { intervalMs: 60_000 });
    bridge.start();
    const event: NewK8sEvent = {
      kind: 'k8s',
      type: 'Event',
      node: 'n1',
      t: T,
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      eventType: 'Warning',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: 'u1' },
      count: 2,
    };
    for (const l of listeners.event) l(event);
    bridge.stop();
    expect(listeners.event.size).toBe(0);
    expect(tl.appended).toEqual([event]);
    expect(tl.state.seq).toBe(3);
  });

  it('recomputes shortly after API changes (coalesced) and on its interval', () => {
    vi.useFakeTimers();
    let calls = 0;
    const { s, listeners } = source(() => {
      calls++;
      return { pods: {}, nodes: {} };
    });
    const bridge = new DriftBridge(s, timeline().sink, { intervalMs: 1_000, settleMs: 100 });
    bridge.start();
    for (let i = 0; i < 5; i++) for (const l of listeners.change) l([]);
    vi.advanceTimersByTime(99);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls).toBe(1);
    vi.advanceTimersByTime(900);
    expect(calls).toBe(2);
    bridge.stop();
    vi.advanceTimersByTime(5_000);
    expect(calls).toBe(2);
  });

  it('keeps going when a comparison throws, and reports it', () => {
    const errors: unknown[] = [];
    const bridge = new DriftBridge(
      source(() => {
        throw new Error('boom');
      }).s,
      timeline().sink,
      { onError: (e) => errors.push(e) },
    );
    expect(bridge.tick()).toEqual([]);
    expect(errors).toHaveLength(1);
  });
});
