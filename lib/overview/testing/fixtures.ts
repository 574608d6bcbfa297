/** NodeView and PodView builders for the overview's tests (plain shapes, no kubelet rules). */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { NodeView, PodView } from '../../timeline/state';

export interface PodSpec {
  uid?: string;
  name?: string;
  namespace?: string;
  node?: string;
  phase?: string;
  ready?: boolean;
  readyReason?: string;
  reason?: string;
  /** Per container: 'running', 'terminated:<reason>' or a waiting reason. */
  containers?: string[];
  restartedAt?: number;
  labels?: Record<string, string>;
}

export function status(name: string, what: string, restartedAt?: number): V1ContainerStatus {
  const state =
    what === 'running'
      ? { running: { startedAt: new Date(0) } }
      : what.startsWith('terminated:')
        ? { terminated: { exitCode: 1, reason: what.slice(11) } }
        : { waiting: { reason: what } };
  return {
    name,
    image: 'img',
    imageID: '',
    ready: what === 'running',
    restartCount: restartedAt !== undefined ? 1 : 0,
    state,
    ...(restartedAt !== undefined
      ? {
          lastState: {
            terminated: { exitCode: 1, reason: 'Error', finishedAt: new Date(restartedAt) },
          },
        }
      : {}),
  };
}

export function pod(p: PodSpec = {}): PodView {
  const uid = p.uid ?? p.name ?? 'u';
  const ready = p.ready ?? (p.phase ?? 'Running') === 'Running';
  return {
    uid,
    name: p.name ?? `pod-${uid}`,
    namespace: p.namespace ?? 'default',
    node: p.node ?? 'n1',
    specSource: 'annotation',
    spec: { restartPolicy: 'Always', initContainers: [], containers: ['app'], hostNetwork: false },
    status: {
      phase: p.phase ?? 'Running',
      ...(p.reason ? { reason: p.reason } : {}),
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          lastTransitionTime: new Date(500),
          ...(p.readyReason ? { reason: p.readyReason } : {}),
        },
      ],
      containerStatuses: (p.containers ?? ['running']).map((c, i) =>
        status(`c${i}`, c, i === 0 ? p.restartedAt : undefined),
      ),
    },
    why: { phase: { id: 'phase' }, conditions: {}, containers: {} },
    createdAt: 100,
    ...(p.labels ? { labels: p.labels } : {}),
  };
}

export interface NodeSpec {
  name?: string;
  ready?: string;
  readyReason?: string;
  pressure?: readonly string[];
  labels?: Record<string, string>;
  pods?: PodView[];
}

export function node(n: NodeSpec = {}): NodeView {
  const name = n.name ?? 'n1';
  return {
    name,
    endpoint: '',
    runtimeConditions: [],
    conditions: [
      ...(n.ready !== undefined && n.ready !== ''
        ? [
            {
              type: 'Ready',
              status: n.ready,
              lastTransitionTime: new Date(700),
              ...(n.readyReason ? { reason: n.readyReason } : {}),
            },
          ]
        : n.ready === ''
          ? []
          : [{ type: 'Ready', status: 'True' }]),
      ...(n.pressure ?? []).map((type) => ({ type, status: 'True' })),
    ],
    why: {},
    health: { connected: true },
    pods: Object.fromEntries((n.pods ?? []).map((p) => [p.uid, { ...p, node: name }])),
    ...(n.labels ? { labels: n.labels } : {}),
  };
}
