/**
 * Drift end to end: the fake API server's recorded cluster beside a runtime view (what Podscope
 * derives from the CRI), compared live through KubeView and one-shot through
 * computeSnapshotDrift, then resolved by the kubelet's next status post and Lease renewal.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { driftEvents } from '@/lib/drift/patches';
import type { ClusterDrift, Drift } from '@/lib/drift/types';
import { formatExplanation } from '@/lib/i18n/format';
import type { TimelineEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState, type NodeView, type PodView } from '@/lib/timeline/state';
import { FakeApiServer, FIXTURE_NOW, seed, UIDS, waitFor } from '@/test/fake-apiserver';
import { computeSnapshotDrift, withDrift } from './snapshot';
import { KubeView } from './view';

let server: FakeApiServer;
let kubeconfig: string;
let view: KubeView;

beforeAll(async () => {
  server = new FakeApiServer();
  seed(server.store);
  await server.start();
  kubeconfig = server.writeKubeconfig();
  view = new KubeView({
    kubeconfig,
    now: () => FIXTURE_NOW,
    backoff: { initialMs: 20, maxMs: 100 },
  });
  view.start();
  expect(await view.synced(10_000)).toBe(true);
  await waitFor('watches open', () => view.status().connected);
});

afterAll(async () => {
  await view.stop();
  await server.stop();
});

const at = (iso: string) => new Date(iso);

/** What Podscope derives from a runtime whose pods match the API's: start from the API pod. */
function derivedFrom(uid: string, node: string, runtimeUid = uid): PodView {
  const pod = view.getPodByUid(uid) as V1Pod;
  return {
    uid: runtimeUid,
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    node,
    specSource: 'apiserver',
    spec: { restartPolicy: 'Always', initContainers: [], containers: [], hostNetwork: false },
    status: structuredClone(pod.status ?? {}),
    why: { phase: { id: 'test' }, conditions: {}, containers: {} },
    createdAt: FIXTURE_NOW - 3_600_000,
  };
}

/**
 * The runtime at 10:02:00: on node-a the api container exited at 10:01:30 (the API still says
 * Running), and a sandbox nobody in the API knows is running; node-b's runtime answers fine
 * although its kubelet went quiet at 10:00:30, and has no sandbox for the settings pod.
 */
function runtimeView(): Record<string, NodeView> {
  const api = derivedFrom(UIDS.api, 'node-a');
  api.status.containerStatuses = [
    {
      name: 'api',
      image: 'registry.example/shop/api:2.4.1',
      imageID: '',
      ready: false,
      started: false,
      restartCount: 0,
      state: {
        terminated: {
          exitCode: 2,
          reason: 'Error',
          startedAt: at('2026-03-01T09:40:10Z'),
          finishedAt: at('2026-03-01T10:01:30Z'),
        },
      },
    },
  ];
  api.status.conditions = (api.status.conditions ?? []).map((c) =>
    c.type === 'Ready' || c.type === 'ContainersReady'
      ? {
          ...c,
          status: 'False',
          reason: 'ContainersNotReady',
          lastTransitionTime: at('2026-03-01T10:01:30Z'),
        }
      : c,
  );
  const ghost: PodView = {
    ...derivedFrom(UIDS.web, 'node-a', 'ghost-uid'),
    name: 'ghost',
    createdAt: Date.parse('2026-03-01T09:10:00Z'),
  };
  const nodeA = view.getNode('node-a');
  const healthy = (t: string) => [
    { type: 'MemoryPressure', status: 'False', lastTransitionTime: at(t) },
    { type: 'DiskPressure', status: 'False', lastTransitionTime: at(t) },
    { type: 'PIDPressure', status: 'False', lastTransitionTime: at(t) },
    { type: 'Ready', status: 'True', lastTransitionTime: at(t) },
  ];
  const node = (name: string, pods: PodView[], conditions: NodeView['conditions']): NodeView => ({
    name,
    endpoint: `unix:///run/${name}/containerd.sock`,
    runtimeConditions: [],
    conditions,
    why: {},
    health: { connected: true, lastRelistAt: FIXTURE_NOW - 1_000 },
    pods: Object.fromEntries(pods.map((p) => [p.uid, p])),
  });
  return {
    'node-a': node(
      'node-a',
      [
        derivedFrom(UIDS.web, 'node-a'),
        api,
        derivedFrom(UIDS.worker, 'node-a'),
        derivedFrom(UIDS.etcdStatic, 'node-a', UIDS.etcdStatic),
        ghost,
      ],
      structuredClone(nodeA?.status?.conditions ?? []),
    ),
    'node-b': node('node-b', [derivedFrom(UIDS.puller, 'node-b')], healthy('2026-02-20T08:03:30Z')),
    // A node Podscope watches that is not part of this cluster: never compared.
    'lab-sim': node('lab-sim', [], []),
  };
}

const summary = (list: Drift[] | undefined) =>
  (list ?? []).map((d) => [
    d.kind,
    d.container ?? d.pod ?? '',
    d.field,
    d.api,
    d.runtime,
    d.status,
    d.why.id,
  ]);

const EXPECTED_PODS = {
  [UIDS.api]: [
    [
      'staleStatus',
      'api',
      'status.containerStatuses[api].state',
      'Running',
      'Terminated: Error',
      'drift',
      'drift.stale.containerExited',
    ],
    [
      'conditionMismatch',
      'default/api-5c4b9d7f8-mq7zt',
      'status.conditions[ContainersReady]',
      'True',
      'False',
      'drift',
      'drift.condition.mismatch',
    ],
    [
      'conditionMismatch',
      'default/api-5c4b9d7f8-mq7zt',
      'status.conditions[Ready]',
      'True',
      'False',
      'drift',
      'drift.condition.mismatch',
    ],
  ],
  'ghost-uid': [
    [
      'orphanSandbox',
      'default/ghost',
      'metadata.uid',
      null,
      'ghost-uid',
      'drift',
      'drift.orphan.unknown',
    ],
  ],
};

const EXPECTED_NODE_B = [
  [
    'kubeletNotReporting',
    '',
    'lease.spec.renewTime',
    '2026-03-01T10:00:30.118Z',
    true,
    'drift',
    'drift.kubelet.silentRuntimeAlive',
  ],
  [
    'missingPod',
    'default/settings-7b8c6d5f4-zz9x1',
    'spec.nodeName',
    'Pending',
    null,
    'drift',
    'drift.missing.notCreated',
  ],
  [
    'nodeConditionMismatch',
    '',
    'status.conditions[DiskPressure]',
    'Unknown',
    'False',
    'drift',
    'drift.nodeCondition.controller',
  ],
  [
    'nodeConditionMismatch',
    '',
    'status.conditions[MemoryPressure]',
    'Unknown',
    'False',
    'drift',
    'drift.nodeCondition.controller',
  ],
  [
    'nodeConditionMismatch',
    '',
    'status.conditions[PIDPressure]',
    'Unknown',
    'False',
    'drift',
    'drift.nodeCondition.controller',
  ],
  [
    'nodeConditionMismatch',
    '',
    'status.conditions[Ready]',
    'Unknown',
    'True',
    'drift',
    'drift.nodeCondition.controller',
  ],
];

function expectScenario(drift: ClusterDrift): void {
  expect(Object.keys(drift.pods).sort()).toEqual(Object.keys(EXPECTED_PODS).sort());
  for (const [uid, want] of Object.entries(EXPECTED_PODS))
    expect(summary(drift.pods[uid])).toEqual(want);
  expect(Object.keys(drift.nodes)).toEqual(['node-b']);
  expect(summary(drift.nodes['node-b'])).toEqual(EXPECTED_NODE_B);
}

describe('drift between the API server and the runtime', () => {
  it('finds and explains each disagreement, live through KubeView', () => {
    const drift = view.drift(runtimeView(), FIXTURE_NOW);
    expectScenario(drift);
    const stale = drift.pods[UIDS.api]?.[0];
    expect(stale?.since).toBe(Date.parse('2026-03-01T10:01:30Z'));
    expect(stale && formatExplanation(stale.why)).toBe(
      'The API server still shows api as Running, but in the runtime it exited 30 s ago with exit code 2 (Terminated: Error). The kubelet has not posted the newer status yet.',
    );
    const silent = drift.nodes['node-b']?.[0];
    expect(silent && formatExplanation(silent.why)).toBe(
      'The kubelet on node-b last reported 90 s ago (Lease duration 40 s), yet the runtime answered Podscope 1 s ago: the kubelet, not the runtime, has stopped reporting.',
    );
    expect(silent && formatExplanation(silent.why, 'zh-CN')).toContain('停止上报的是 kubelet');
  });

  it('finds the same through the one-shot snapshot path (podscope snapshot --kubeconfig)', async () => {
    const nodes = runtimeView();
    const drift = await computeSnapshotDrift(kubeconfig, nodes, { now: FIXTURE_NOW });
    expect(drift.server).toBe(server.url);
    expectScenario(drift);
    const json = withDrift(nodes, drift);
    expect(json['node-a']?.drift).toEqual([]);
    expect(json['node-a']?.pods[UIDS.web]?.drift).toEqual([]);
    expect(json['node-a']?.pods[UIDS.api]?.drift).toHaveLength(3);
    expect(json['node-b']?.drift).toHaveLength(6);
  });

  it('reports an unreachable API server with its address', async () => {
    const down = new FakeApiServer();
    await down.start();
    const path = down.writeKubeconfig();
    await down.down(); // unreachable; stop() would also remove the kubeconfig
    onTestFinished(() => down.stop());
    await expect(
      computeSnapshotDrift(path, runtimeView(), { now: FIXTURE_NOW, timeoutMs: 5_000 }),
    ).rejects.toThrow(
      new RegExp(`API server ${down.url.replace(/[.]/g, '\\.')}: listing nodes failed`),
    );
  });

  it('records drift on the timeline and clears it when the kubelet catches up', async () => {
    let nodes = runtimeView();
    // Fold the drift into the runtime view the way the engine would.
    let seq = 0;
    const seqd = (es: ReturnType<typeof driftEvents>) =>
      es.map((e): TimelineEvent => ({ ...e, seq: ++seq }));
    let state = reduceAll(emptyState(), [
      ...Object.values(nodes).map((n): TimelineEvent => ({
        seq: ++seq,
        t: FIXTURE_NOW,
        kind: 'node',
        type: 'NodeAdded',
        node: n.name,
        endpoint: n.endpoint,
        health: n.health,
      })),
      ...Object.values(nodes).flatMap((n) =>
        Object.values(n.pods).map((pod): TimelineEvent => ({
          seq: ++seq,
          t: FIXTURE_NOW,
          kind: 'pod',
          type: 'PodAdded',
          node: n.name,
          podUid: pod.uid,
          pod,
        })),
      ),
    ]);
    state = {
      ...state,
      nodes: Object.fromEntries(
        Object.entries(state.nodes).map(([k, n]) => [
          k,
          { ...n, conditions: nodes[k]?.conditions ?? [] },
        ]),
      ),
    };
    const first = view.drift(state.nodes, FIXTURE_NOW);
    state = reduceAll(state, seqd(driftEvents(state.nodes, first, FIXTURE_NOW)));
    expect(state.nodes['node-a']?.pods[UIDS.api]?.drift?.map((d) => d.kind)).toEqual([
      'staleStatus',
      'conditionMismatch',
      'conditionMismatch',
    ]);
    expect(state.nodes['node-b']?.drift).toHaveLength(6);

    // The kubelet on node-a posts the api container's exit; node-b's kubelet comes back.
    server.store.update('pods', 'default', 'api-5c4b9d7f8-mq7zt', (o) => {
      const status = o.status as {
        containerStatuses: unknown[];
        conditions: { type: string; status: string; lastTransitionTime: string }[];
      };
      status.containerStatuses = [
        {
          name: 'api',
          image: 'registry.example/shop/api:2.4.1',
          imageID: '',
          ready: false,
          started: false,
          restartCount: 0,
          state: {
            terminated: {
              exitCode: 2,
              reason: 'Error',
              startedAt: '2026-03-01T09:40:10Z',
              finishedAt: '2026-03-01T10:01:30Z',
            },
          },
        },
      ];
      for (const c of status.conditions) {
        if (c.type === 'Ready' || c.type === 'ContainersReady')
          Object.assign(c, { status: 'False', lastTransitionTime: '2026-03-01T10:01:31Z' });
      }
    });
    server.store.update('leases', 'kube-node-lease', 'node-b', (o) => {
      (o.spec as { renewTime: string }).renewTime = '2026-03-01T10:01:58.000000Z';
    });
    server.store.update('nodes', undefined, 'node-b', (o) => {
      const conds = (
        o.status as {
          conditions: { type: string; status: string; reason: string; lastHeartbeatTime: string }[];
        }
      ).conditions;
      for (const c of conds)
        Object.assign(c, {
          status: c.type === 'Ready' ? 'True' : 'False',
          reason: 'KubeletReady',
          lastHeartbeatTime: '2026-03-01T10:01:58Z',
        });
    });
    await waitFor(
      'the kubelet’s posts to reach the view',
      () =>
        view.getLease('node-b')?.spec?.renewTime?.getTime() ===
          Date.parse('2026-03-01T10:01:58Z') &&
        view.getNode('node-b')?.status?.conditions?.[0]?.status === 'False' &&
        view.getPodByUid(UIDS.api)?.status?.containerStatuses?.[0]?.state?.terminated !== undefined,
    );

    const second = view.drift(state.nodes, FIXTURE_NOW + 2_000);
    expect(summary(second.nodes['node-b'])).toEqual([
      [
        'missingPod',
        'default/settings-7b8c6d5f4-zz9x1',
        'spec.nodeName',
        'Pending',
        null,
        'drift',
        'drift.missing.notCreated',
      ],
    ]);
    expect(second.pods[UIDS.api]).toBeUndefined();
    const updates = driftEvents(state.nodes, second, FIXTURE_NOW + 2_000);
    state = reduceAll(state, seqd(updates));
    expect(state.nodes['node-a']?.pods[UIDS.api]).not.toHaveProperty('drift');
    expect(state.nodes['node-b']?.drift?.map((d) => d.kind)).toEqual(['missingPod']);
    expect(state.nodes['node-a']?.pods['ghost-uid']?.drift?.map((d) => d.kind)).toEqual([
      'orphanSandbox',
    ]);
    nodes = state.nodes;
    expect(driftEvents(nodes, view.drift(nodes, FIXTURE_NOW + 3_000), FIXTURE_NOW + 3_000)).toEqual(
      [],
    );
  });

  it('does not blame the kubelet for an old Lease while its own watch of Leases is failing', async () => {
    await server.down();
    await waitFor(
      'the lease watch to fail',
      () => view.status().resources.leases?.failing === true,
    );
    const drift = view.drift(runtimeView(), FIXTURE_NOW + 600_000);
    expect(drift.nodes['node-b']?.map((d) => d.kind)).not.toContain('kubeletNotReporting');
    expect(drift.pods['ghost-uid']?.map((d) => d.kind)).toEqual(['orphanSandbox']);
    await server.up();
    await waitFor('reconnected', () => view.status().connected);
  });
});
