/** Sample drift across two nodes, shared by the drift component tests. */
import type { Drift } from '@/lib/drift/types';
import type { NodeView, PodView } from '@/lib/timeline/state';

export const T = Date.parse('2026-03-01T10:02:00Z');

const d = (over: Partial<Drift> & Pick<Drift, 'kind' | 'field'>): Drift => ({
  node: 'node-a',
  api: 'Running',
  runtime: 'Failed',
  status: 'drift',
  why: { id: 'drift.phase.mismatch', params: { api: 'Running', runtime: 'Failed' } },
  ...over,
});

const pod = (uid: string, name: string, drift: Drift[]): PodView => ({
  uid,
  name,
  namespace: 'default',
  node: 'node-a',
  specSource: 'apiserver',
  spec: { restartPolicy: 'Always', initContainers: [], containers: [], hostNetwork: false },
  status: {},
  why: { phase: { id: 'x' }, conditions: {}, containers: {} },
  createdAt: 0,
  drift,
});

export const NODES: Record<string, NodeView> = {
  'node-a': {
    name: 'node-a',
    endpoint: '',
    runtimeConditions: [],
    conditions: [],
    why: {},
    health: { connected: true },
    pods: {
      u1: pod('u1', 'web', [
        d({
          kind: 'phaseMismatch',
          field: 'status.phase',
          podUid: 'u1',
          pod: 'default/web',
          status: 'propagating',
        }),
        d({
          kind: 'staleStatus',
          field: 'status.containerStatuses[app].state',
          podUid: 'u1',
          pod: 'default/web',
          container: 'app',
          since: T - 30_000,
          why: {
            id: 'drift.stale.container',
            params: {
              container: 'app',
              apiState: 'Running',
              runtimeState: 'Waiting',
              lagSeconds: 3,
            },
          },
        }),
      ]),
    },
    drift: [
      d({
        kind: 'kubeletNotReporting',
        field: 'lease.spec.renewTime',
        api: '2026-03-01T10:00:30Z',
        runtime: true,
        since: T - 90_000,
        why: {
          id: 'drift.kubelet.silentRuntimeAlive',
          params: { node: 'node-a', ageSeconds: 41, leaseSeconds: 40, relistSeconds: 1 },
        },
      }),
    ],
  },
  'node-b': {
    name: 'node-b',
    endpoint: '',
    runtimeConditions: [],
    conditions: [],
    why: {},
    health: { connected: true },
    pods: {},
    drift: [
      d({
        node: 'node-b',
        kind: 'missingPod',
        field: 'spec.nodeName',
        podUid: 'u9',
        pod: 'default/settings',
        runtime: null,
      }),
    ],
  },
};
