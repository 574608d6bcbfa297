/**
 * Builders for drift tests: both sides of a pod/node in the shapes they really have (V1Pod from
 * the API server, PodView/NodeView from the timeline). Test-only; not exported from index.ts.
 */
import type {
  V1ContainerStatus,
  V1Lease,
  V1Node,
  V1NodeCondition,
  V1Pod,
  V1PodCondition,
} from '@kubernetes/client-node';
import type { NodeHealth, NodeView, PodView } from '../../timeline/state';

export const T0 = Date.parse('2026-03-01T10:00:00Z');
export const at = (seconds: number): Date => new Date(T0 + seconds * 1000);

export function running(name: string, startedS: number, restartCount = 0): V1ContainerStatus {
  return {
    name,
    image: `registry.example/${name}:1`,
    imageID: '',
    ready: true,
    started: true,
    restartCount,
    state: { running: { startedAt: at(startedS) } },
  };
}

export function terminated(
  name: string,
  exitCode: number,
  reason: string,
  startedS: number,
  finishedS: number,
  restartCount = 0,
): V1ContainerStatus {
  return {
    name,
    image: `registry.example/${name}:1`,
    imageID: '',
    ready: false,
    started: false,
    restartCount,
    state: { terminated: { exitCode, reason, startedAt: at(startedS), finishedAt: at(finishedS) } },
  };
}

export function waiting(
  name: string,
  reason: string,
  restartCount = 0,
  lastFinishedS?: number,
): V1ContainerStatus {
  return {
    name,
    image: `registry.example/${name}:1`,
    imageID: '',
    ready: false,
    restartCount,
    state: { waiting: { reason } },
    ...(lastFinishedS !== undefined
      ? {
          lastState: {
            terminated: { exitCode: 1, reason: 'Error', finishedAt: at(lastFinishedS) },
          },
        }
      : {}),
  };
}

export function podCond(type: string, status: string, transitionS = 0): V1PodCondition {
  return { type, status, lastTransitionTime: at(transitionS) };
}

export function nodeCond(
  type: string,
  status: string,
  transitionS = 0,
  extra?: Partial<V1NodeCondition>,
): V1NodeCondition {
  return {
    type,
    status,
    lastTransitionTime: at(transitionS),
    lastHeartbeatTime: at(transitionS),
    ...extra,
  };
}

export const readyConditions = (status = 'True', s = 0): V1PodCondition[] => [
  podCond('PodReadyToStartContainers', 'True', 0),
  podCond('Initialized', 'True', 0),
  podCond('Ready', status, s),
  podCond('ContainersReady', status, s),
  podCond('PodScheduled', 'True', 0),
];

export interface PodSide {
  uid: string;
  name: string;
  node: string;
  phase: string;
  containers: V1ContainerStatus[];
  init?: V1ContainerStatus[];
  conditions?: V1PodCondition[];
}

export function podView(p: PodSide): PodView {
  return {
    uid: p.uid,
    name: p.name,
    namespace: 'default',
    node: p.node,
    specSource: 'apiserver',
    spec: {
      restartPolicy: 'Always',
      initContainers: (p.init ?? []).map((c) => ({ name: c.name, sidecar: false })),
      containers: p.containers.map((c) => c.name),
      hostNetwork: false,
    },
    status: {
      phase: p.phase,
      conditions: p.conditions ?? readyConditions(),
      containerStatuses: p.containers,
      ...(p.init ? { initContainerStatuses: p.init } : {}),
    },
    why: { phase: { id: 'test' }, conditions: {}, containers: {} },
    createdAt: T0,
  };
}

export function apiPod(
  p: PodSide & {
    annotations?: Record<string, string>;
    deletionS?: number;
    readinessProbe?: boolean;
    restartPolicy?: string;
  },
): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      uid: p.uid,
      name: p.name,
      namespace: 'default',
      resourceVersion: '100',
      creationTimestamp: at(-10),
      ...(p.annotations ? { annotations: p.annotations } : {}),
      ...(p.deletionS !== undefined ? { deletionTimestamp: at(p.deletionS) } : {}),
    },
    spec: {
      nodeName: p.node,
      restartPolicy: p.restartPolicy ?? 'Always',
      containers: p.containers.map((c) => ({
        name: c.name,
        image: c.image,
        ...(p.readinessProbe
          ? { readinessProbe: { httpGet: { path: '/ready', port: 8080 } } }
          : {}),
      })),
    },
    status: {
      phase: p.phase,
      conditions: p.conditions ?? readyConditions(),
      containerStatuses: p.containers,
      ...(p.init ? { initContainerStatuses: p.init } : {}),
    },
  };
}

export function nodeView(
  name: string,
  pods: PodView[],
  conditions: V1NodeCondition[] = [nodeCond('Ready', 'True')],
  health: NodeHealth = { connected: true, lastRelistAt: T0 },
): NodeView {
  return {
    name,
    endpoint: `unix:///run/${name}.sock`,
    runtimeConditions: [],
    conditions,
    why: {},
    health,
    pods: Object.fromEntries(pods.map((p) => [p.uid, p])),
  };
}

export function apiNode(
  name: string,
  conditions: V1NodeCondition[] = [nodeCond('Ready', 'True')],
): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `node-${name}`, resourceVersion: '10' },
    status: { conditions },
  };
}

export function lease(node: string, renewS: number, durationSeconds = 40): V1Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: node, namespace: 'kube-node-lease', resourceVersion: '11' },
    spec: { holderIdentity: node, leaseDurationSeconds: durationSeconds, renewTime: at(renewS) },
  };
}
