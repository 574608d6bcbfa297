import type { V1ContainerStatus } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Drift } from '@/lib/drift/types';
import type { ClusterState, PodView } from '@/lib/timeline/state';
import { check, type EvalContext } from './evaluate';
import { Expectation } from './schema';

const NOW = Date.UTC(2025, 0, 1, 12);

function podView(containers: V1ContainerStatus[], extra: Partial<PodView> = {}): PodView {
  return {
    uid: 'u1',
    name: 'api',
    namespace: 'shop',
    node: 'n1',
    specSource: 'annotation',
    spec: { restartPolicy: 'Always', initContainers: [], containers: ['api'], hostNetwork: true },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
      containerStatuses: containers,
    },
    why: { phase: { id: 'x' }, conditions: {}, containers: {} },
    createdAt: NOW - 60_000,
    ...extra,
  };
}

const crashLooping: V1ContainerStatus = {
  name: 'api',
  image: 'img',
  imageID: '',
  ready: false,
  restartCount: 3,
  state: { waiting: { reason: 'CrashLoopBackOff' } },
  lastState: { terminated: { exitCode: 1, reason: 'Error' } },
};

function ctx(
  pods: PodView[],
  conditions: { type: string; status: string; reason?: string }[] = [],
): EvalContext {
  const state: ClusterState = {
    seq: 1,
    t: NOW,
    nodes: {
      n1: {
        name: 'n1',
        endpoint: 'unix:///x',
        runtimeConditions: [],
        conditions,
        why: {},
        health: { connected: true },
        pods: Object.fromEntries(pods.map((p) => [p.uid, p])),
      },
    },
  };
  return {
    state,
    node: 'n1',
    now: NOW,
    podName: (ref) => (ref === 'api' ? { namespace: 'shop', name: 'api' } : undefined),
  };
}

const e = (raw: unknown) => Expectation.parse(raw);

describe('check', () => {
  it('matches a container by state, reason, restart count and last state, and says what it saw', () => {
    const c = ctx([podView([crashLooping])]);
    expect(
      check(
        c,
        e({
          pod: 'api',
          container: 'api',
          state: 'waiting',
          reason: 'CrashLoopBackOff',
          restartCount: { atLeast: 3 },
          lastState: { exitCode: 1 },
        }),
      ),
    ).toEqual({
      ok: true,
      expected: 'api/api: waiting, CrashLoopBackOff, restarts ≥ 3, last exit 1',
      observed: 'waiting CrashLoopBackOff, restarts 3, last Error (exit 1)',
    });
    expect(check(c, e({ pod: 'api', container: 'api', restartCount: 2 })).ok).toBe(false);
    expect(
      check(c, e({ pod: 'api', container: 'api', lastState: { reason: 'OOMKilled' } })).ok,
    ).toBe(false);
    expect(check(c, e({ pod: 'api', container: 'nope' }))).toMatchObject({
      ok: false,
      observed: 'no status',
    });
  });

  it('checks pod phase and conditions (status defaults to True)', () => {
    const c = ctx([podView([crashLooping])]);
    expect(
      check(
        c,
        e({
          pod: 'api',
          phase: 'Running',
          condition: 'Ready',
          status: 'False',
          reason: 'ContainersNotReady',
        }),
      ).ok,
    ).toBe(true);
    expect(check(c, e({ pod: 'api', condition: 'Ready' }))).toMatchObject({
      ok: false,
      observed: 'Running, Ready=False (ContainersNotReady)',
    });
    expect(check(c, e({ pod: 'api', condition: 'Initialized' }))).toMatchObject({
      ok: false,
      observed: 'Running, Initialized absent',
    });
  });

  it('tells a scheduled eviction from a due one, and a deleted pod from a present one', () => {
    const scheduled = ctx([podView([], { evictionDueAt: NOW + 1 })]);
    const due = ctx([podView([], { evictionDueAt: NOW })]);
    expect(check(scheduled, e({ pod: 'api', eviction: 'scheduled' })).ok).toBe(true);
    expect(check(scheduled, e({ pod: 'api', eviction: 'due' })).ok).toBe(false);
    expect(check(due, e({ pod: 'api', eviction: 'due' })).ok).toBe(true);
    expect(check(ctx([]), e({ pod: 'api', gone: true })).ok).toBe(true);
    expect(check(ctx([podView([])]), e({ pod: 'api', gone: true })).ok).toBe(false);
    expect(
      check(ctx([podView([], { deletionTimestamp: NOW })]), e({ pod: 'api', deleting: true })).ok,
    ).toBe(true);
  });

  it('reads node conditions of the scenario node', () => {
    const c = ctx([], [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' }]);
    expect(check(c, e({ node: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' }))).toEqual({
      ok: true,
      expected: 'node n1: Ready=Unknown (NodeStatusUnknown)',
      observed: 'Ready=Unknown (NodeStatusUnknown)',
    });
    expect(check(c, e({ node: 'Ready', status: 'True' })).ok).toBe(false);
  });

  /** A drift entry of a kind, past its tolerance (`drift`) or still `propagating`. */
  const drift = (kind: Drift['kind'], status: 'drift' | 'propagating'): Drift => ({
    kind,
    node: 'n1',
    field: 'f',
    api: null,
    runtime: null,
    status,
    why: { id: 'x' },
  });

  it('finds a drift of a kind on the pod or the node, only once it is past propagating', () => {
    const stale = ctx([podView([], { drift: [drift('staleStatus', 'drift')] })]);
    const young = ctx([podView([], { drift: [drift('staleStatus', 'propagating')] })]);
    expect(check(stale, e({ pod: 'api', drift: 'staleStatus' }))).toMatchObject({
      ok: true,
      expected: 'api: drift staleStatus',
      observed: 'Running, drift staleStatus',
    });
    expect(check(stale, e({ pod: 'api', drift: 'orphanSandbox' })).ok).toBe(false);
    expect(check(young, e({ pod: 'api', drift: 'staleStatus' }))).toMatchObject({
      ok: false,
      observed: 'Running, no drift',
    });
    const node = ctx([], [{ type: 'Ready', status: 'Unknown' }]);
    const nodeView = node.state.nodes.n1;
    if (nodeView) nodeView.drift = [drift('kubeletNotReporting', 'drift')];
    expect(
      check(node, e({ node: 'Ready', status: 'Unknown', drift: 'kubeletNotReporting' })),
    ).toEqual({
      ok: true,
      expected: 'node n1: Ready=Unknown, drift kubeletNotReporting',
      observed: 'Ready=Unknown, drift kubeletNotReporting',
    });
    expect(
      check(
        ctx([], [{ type: 'Ready', status: 'Unknown' }]),
        e({ node: 'Ready', status: 'Unknown', drift: 'kubeletNotReporting' }),
      ).ok,
    ).toBe(false);
  });

  it('is in sync with the API server only with no difference at all, not even propagating', () => {
    expect(check(ctx([podView([])]), e({ pod: 'api', synced: true }))).toMatchObject({
      ok: true,
      expected: 'api: in sync with the API server',
      observed: 'Running, in sync with the API server',
    });
    for (const status of ['drift', 'propagating'] as const)
      expect(
        check(
          ctx([podView([], { drift: [drift('containerStateMismatch', status)] })]),
          e({ pod: 'api', synced: true }),
        ),
      ).toMatchObject({ ok: false, observed: 'Running, differs: containerStateMismatch' });
  });

  it('uses the newest pod of that name when the name was reused', () => {
    const older = podView([crashLooping], { uid: 'old', createdAt: NOW - 600_000 });
    const newer = podView(
      [{ ...crashLooping, restartCount: 0, state: { running: {} }, lastState: {} }],
      { uid: 'new' },
    );
    expect(
      check(
        ctx([older, newer]),
        e({ pod: 'api', container: 'api', state: 'running', restartCount: 0 }),
      ).ok,
    ).toBe(true);
  });
});
