/**
 * The drift table: one case per kind of drift and per explanation, plus cases that must not be
 * drift. Shared by detect.test.ts (the findings) and messages.test.ts (every explanation renders).
 */
import type { ApiObjects } from '../api';
import type { detectClusterDrift } from '../detect';
import type { NodeView } from '../../timeline/state';
import type { Drift } from '../types';
import {
  apiNode,
  apiPod,
  at,
  lease,
  nodeCond,
  nodeView,
  podCond,
  podView,
  readyConditions,
  running,
  T0,
  terminated,
  waiting,
  type PodSide,
} from './fixtures';

export const N = 'node-a';
export const s = (seconds: number) => T0 + seconds * 1000;

export interface Case {
  name: string;
  api: ApiObjects;
  nodes: Record<string, NodeView>;
  now: number;
  /** Where to look: a pod uid or `node:<name>`. */
  entity: string;
  expect: Partial<Drift & { whyId: string }>[];
  firstSeen?: Map<string, number>;
  options?: Parameters<typeof detectClusterDrift>[0]['options'];
}

export const side = (over: Partial<PodSide>): PodSide => ({
  uid: 'u-web',
  name: 'web',
  node: N,
  phase: 'Running',
  containers: [running('app', 0)],
  ...over,
});

/** One pod on node-a, given both sides; the node agrees and its Lease is fresh. */
export function onePod(
  apiSide: PodSide,
  runtimeSide: PodSide,
  extra?: Parameters<typeof apiPod>[0] extends infer P ? Partial<P> : never,
) {
  return {
    api: { pods: [apiPod({ ...apiSide, ...extra })], nodes: [apiNode(N)], leases: [lease(N, 100)] },
    nodes: {
      [N]: nodeView(N, [podView(runtimeSide)], undefined, {
        connected: true,
        lastRelistAt: s(100),
      }),
    },
  };
}

export const cases: Case[] = [
  {
    name: 'agreement: nothing to report',
    ...onePod(side({}), side({})),
    now: s(110),
    entity: 'u-web',
    expect: [],
  },
  {
    name: 'staleStatus: API says Running, the container exited 30 s ago (restartPolicy Never → Failed)',
    ...onePod(
      side({}),
      side({
        phase: 'Failed',
        containers: [terminated('app', 1, 'Error', 0, 60)],
        conditions: readyConditions('False', 60),
      }),
    ),
    now: s(90),
    entity: 'u-web',
    expect: [
      {
        kind: 'staleStatus',
        field: 'status.containerStatuses[app].state',
        api: 'Running',
        runtime: 'Terminated: Error',
        status: 'drift',
        since: s(60),
        whyId: 'drift.stale.containerExited',
      },
      {
        kind: 'phaseMismatch',
        field: 'status.phase',
        api: 'Running',
        runtime: 'Failed',
        status: 'drift',
        since: s(60),
        whyId: 'drift.phase.behind',
      },
      {
        kind: 'conditionMismatch',
        field: 'status.conditions[ContainersReady]',
        api: 'True',
        runtime: 'False',
        status: 'drift',
        since: s(60),
        whyId: 'drift.condition.mismatch',
      },
      {
        kind: 'conditionMismatch',
        field: 'status.conditions[Ready]',
        api: 'True',
        runtime: 'False',
        status: 'drift',
        since: s(60),
        whyId: 'drift.condition.mismatch',
      },
    ],
  },
  {
    name: 'the same exit 2 s ago is still propagating (kubelet posts asynchronously)',
    ...onePod(
      side({}),
      side({ phase: 'Failed', containers: [terminated('app', 1, 'Error', 0, 60)] }),
    ),
    now: s(62),
    entity: 'u-web',
    expect: [
      { kind: 'staleStatus', status: 'propagating' },
      { kind: 'phaseMismatch', status: 'propagating' },
    ],
  },
  {
    name: 'staleStatus + restartCount: the runtime restarted the container, the API still has the old run',
    ...onePod(
      side({ containers: [running('app', 0, 2)] }),
      side({ containers: [running('app', 50, 3)] }),
    ),
    now: s(80),
    entity: 'u-web',
    expect: [
      {
        kind: 'staleStatus',
        field: 'status.containerStatuses[app].state',
        api: 'Running',
        runtime: 'Running',
        since: s(50),
        whyId: 'drift.stale.containerRestarted',
      },
      {
        kind: 'restartCountMismatch',
        field: 'status.containerStatuses[app].restartCount',
        api: 2,
        runtime: 3,
        since: s(50),
        status: 'drift',
        whyId: 'drift.restartCount.runtimeAhead',
      },
    ],
  },
  {
    name: 'staleStatus: API waiting in CrashLoopBackOff, the runtime has it running again',
    ...onePod(
      side({ containers: [waiting('app', 'CrashLoopBackOff', 4, 30)] }),
      side({ containers: [running('app', 45, 4)] }),
    ),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'staleStatus',
        api: 'Waiting: CrashLoopBackOff',
        runtime: 'Running',
        since: s(45),
        status: 'drift',
        whyId: 'drift.stale.container',
      },
    ],
  },
  {
    name: 'restartCountMismatch: the API counts more restarts than the runtime records',
    ...onePod(
      side({ containers: [running('app', 0, 5)] }),
      side({ containers: [running('app', 0, 1)] }),
    ),
    now: s(10),
    entity: 'u-web',
    expect: [
      {
        kind: 'restartCountMismatch',
        api: 5,
        runtime: 1,
        status: 'drift',
        whyId: 'drift.restartCount.apiAhead',
      },
    ],
  },
  {
    name: 'containerStateMismatch: same exit, different reason (Error vs OOMKilled)',
    ...onePod(
      side({ phase: 'Failed', containers: [terminated('app', 137, 'Error', 0, 20)] }),
      side({ phase: 'Failed', containers: [terminated('app', 137, 'OOMKilled', 0, 20)] }),
    ),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'containerStateMismatch',
        api: 'Terminated: Error',
        runtime: 'Terminated: OOMKilled',
        whyId: 'drift.containerState.mismatch',
      },
    ],
  },
  {
    name: 'containerStateMismatch: the API state is newer than what the runtime shows',
    ...onePod(
      side({ containers: [terminated('app', 0, 'Completed', 0, 40)], phase: 'Running' }),
      side({ containers: [running('app', 0)] }),
    ),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'containerStateMismatch',
        api: 'Terminated: Completed',
        runtime: 'Running',
        whyId: 'drift.containerState.apiNewer',
      },
    ],
  },
  {
    name: 'containerStateMismatch: a container only one side has',
    ...onePod(
      side({ containers: [running('app', 0), running('sidecar', 0)] }),
      side({ containers: [running('app', 0), running('debug', 0)] }),
    ),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'containerStateMismatch',
        container: 'debug',
        api: null,
        runtime: 'Running',
        whyId: 'drift.containerState.missingInApi',
      },
      {
        kind: 'containerStateMismatch',
        container: 'sidecar',
        api: 'Running',
        runtime: null,
        whyId: 'drift.containerState.missingInRuntime',
      },
    ],
  },
  {
    name: 'init containers are compared in their own list',
    ...onePod(
      side({
        init: [running('migrate', 0)],
        phase: 'Pending',
        containers: [waiting('app', 'PodInitializing')],
      }),
      side({
        init: [terminated('migrate', 0, 'Completed', 0, 30)],
        phase: 'Pending',
        containers: [waiting('app', 'PodInitializing')],
      }),
    ),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'staleStatus',
        field: 'status.initContainerStatuses[migrate].state',
        container: 'migrate',
        since: s(30),
        whyId: 'drift.stale.containerExited',
      },
    ],
  },
  {
    name: 'phaseMismatch: the API has a terminal phase the pod never leaves',
    ...onePod(side({ phase: 'Succeeded', containers: [running('app', 0)] }), side({})),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'phaseMismatch',
        api: 'Succeeded',
        runtime: 'Running',
        status: 'drift',
        whyId: 'drift.phase.apiTerminal',
      },
    ],
  },
  {
    name: 'phaseMismatch without container evidence',
    ...onePod(side({ phase: 'Pending' }), side({})),
    now: s(60),
    entity: 'u-web',
    expect: [
      { kind: 'phaseMismatch', api: 'Pending', runtime: 'Running', whyId: 'drift.phase.mismatch' },
    ],
  },
  {
    name: 'conditionMismatch: readiness probes the CRI cannot show',
    ...onePod(
      side({ conditions: readyConditions('False', 5) }),
      side({ conditions: readyConditions('True', 0) }),
      { readinessProbe: true },
    ),
    now: s(60),
    entity: 'u-web',
    expect: [
      {
        kind: 'conditionMismatch',
        field: 'status.conditions[ContainersReady]',
        whyId: 'drift.condition.probe',
      },
      {
        kind: 'conditionMismatch',
        field: 'status.conditions[Ready]',
        whyId: 'drift.condition.probe',
      },
    ],
  },
  {
    name: 'conditionMismatch: the node controller marked the pod not ready on a silent node',
    api: {
      pods: [apiPod(side({ conditions: readyConditions('False', 90) }))],
      nodes: [apiNode(N, [nodeCond('Ready', 'Unknown', 80, { reason: 'NodeStatusUnknown' })])],
      leases: [lease(N, 95)],
    },
    nodes: { [N]: nodeView(N, [podView(side({}))]) },
    now: s(100),
    entity: 'u-web',
    expect: [
      {
        kind: 'conditionMismatch',
        field: 'status.conditions[ContainersReady]',
        whyId: 'drift.condition.mismatch',
      },
      {
        kind: 'conditionMismatch',
        field: 'status.conditions[Ready]',
        api: 'False',
        runtime: 'True',
        whyId: 'drift.condition.nodeController',
      },
    ],
  },
  {
    name: 'conditions only one side reports are not drift',
    ...onePod(
      side({
        conditions: [
          podCond('Ready', 'True'),
          podCond('PodScheduled', 'True'),
          podCond('DisruptionTarget', 'True'),
        ],
      }),
      side({
        conditions: [podCond('Ready', 'True'), podCond('PodReadyToStartContainers', 'False')],
      }),
    ),
    now: s(60),
    entity: 'u-web',
    expect: [],
  },
  {
    name: 'orphanSandbox: a running sandbox whose uid the API server never had',
    api: { pods: [], nodes: [apiNode(N)], leases: [lease(N, 100)] },
    nodes: { [N]: nodeView(N, [podView(side({ uid: 'u-ghost', name: 'ghost' }))]) },
    now: s(100),
    entity: 'u-ghost',
    expect: [
      {
        kind: 'orphanSandbox',
        field: 'metadata.uid',
        api: null,
        runtime: 'u-ghost',
        pod: 'default/ghost',
        status: 'drift',
        whyId: 'drift.orphan.unknown',
      },
    ],
  },
  {
    name: 'orphanSandbox: deleted 10 s ago, nothing running — waiting for container GC, still propagating',
    api: {
      pods: [],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
      deletedPods: { 'u-old': s(90) },
    },
    nodes: {
      [N]: nodeView(N, [
        podView(
          side({
            uid: 'u-old',
            name: 'old',
            phase: 'Succeeded',
            containers: [terminated('app', 0, 'Completed', 0, 89)],
          }),
        ),
      ]),
    },
    now: s(100),
    entity: 'u-old',
    expect: [
      { kind: 'orphanSandbox', status: 'propagating', since: s(90), whyId: 'drift.orphan.deleted' },
    ],
  },
  {
    name: 'orphanSandbox: the same deleted pod with a container still running is drift after the pod tolerance',
    api: {
      pods: [],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
      deletedPods: { 'u-old': s(90) },
    },
    nodes: { [N]: nodeView(N, [podView(side({ uid: 'u-old', name: 'old' }))]) },
    now: s(100),
    entity: 'u-old',
    expect: [{ kind: 'orphanSandbox', status: 'drift', whyId: 'drift.orphan.deleted' }],
  },
  {
    name: 'orphanSandbox: the API server binds the pod to another node',
    api: {
      pods: [apiPod(side({ node: 'node-b' }))],
      nodes: [apiNode(N), apiNode('node-b')],
      leases: [lease(N, 100)],
    },
    nodes: { [N]: nodeView(N, [podView(side({}))]) },
    now: s(100),
    entity: 'u-web',
    expect: [
      {
        kind: 'orphanSandbox',
        field: 'spec.nodeName',
        api: 'node-b',
        runtime: N,
        whyId: 'drift.orphan.otherNode',
      },
    ],
  },
  {
    name: 'missingPod: bound to the node, Running in the API, no sandbox in the runtime',
    api: {
      pods: [
        apiPod(
          side({ uid: 'u-lost', name: 'lost', conditions: [podCond('PodScheduled', 'True', 20)] }),
        ),
      ],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
    },
    nodes: { [N]: nodeView(N, []) },
    now: s(100),
    entity: `node:${N}`,
    expect: [
      {
        kind: 'missingPod',
        podUid: 'u-lost',
        pod: 'default/lost',
        api: 'Running',
        runtime: null,
        since: s(20),
        status: 'drift',
        whyId: 'drift.missing.notCreated',
      },
    ],
  },
  {
    name: 'missingPod: just scheduled, the kubelet has not created the sandbox yet',
    api: {
      pods: [
        apiPod(
          side({
            uid: 'u-new',
            phase: 'Pending',
            conditions: [podCond('PodScheduled', 'True', 98)],
          }),
        ),
      ],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
    },
    nodes: { [N]: nodeView(N, []) },
    now: s(100),
    entity: `node:${N}`,
    expect: [{ kind: 'missingPod', status: 'propagating' }],
  },
  {
    name: 'missingPod: terminating in the API, sandbox already gone',
    api: {
      pods: [apiPod({ ...side({ uid: 'u-term' }), deletionS: 50 })],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
    },
    nodes: { [N]: nodeView(N, []) },
    now: s(100),
    entity: `node:${N}`,
    expect: [{ kind: 'missingPod', since: s(50), whyId: 'drift.missing.terminating' }],
  },
  {
    name: 'terminal pods without a sandbox are not missing (the kubelet may have collected them)',
    api: {
      pods: [
        apiPod(
          side({
            uid: 'u-done',
            phase: 'Succeeded',
            containers: [terminated('app', 0, 'Completed', 0, 5)],
          }),
        ),
      ],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
    },
    nodes: { [N]: nodeView(N, []) },
    now: s(100),
    entity: `node:${N}`,
    expect: [],
  },
  {
    name: 'a mirror pod joins its static pod by the config.mirror annotation (no orphan, no missing)',
    api: {
      pods: [
        apiPod({
          ...side({ uid: 'api-uid-1', name: 'etcd-node-a' }),
          annotations: { 'kubernetes.io/config.mirror': 'static-hash' },
        }),
      ],
      nodes: [apiNode(N)],
      leases: [lease(N, 100)],
    },
    nodes: { [N]: nodeView(N, [podView(side({ uid: 'static-hash', name: 'etcd-node-a' }))]) },
    now: s(100),
    entity: 'static-hash',
    expect: [],
  },
  {
    name: 'nodeConditionMismatch: the node controller set Ready=Unknown, the runtime answers',
    api: {
      pods: [],
      nodes: [
        apiNode(N, [
          nodeCond('Ready', 'Unknown', 80, {
            reason: 'NodeStatusUnknown',
            lastHeartbeatTime: at(95),
          }),
        ]),
      ],
      leases: [lease(N, 95)],
    },
    nodes: {
      [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0)], {
        connected: true,
        lastRelistAt: s(99),
      }),
    },
    now: s(100),
    entity: `node:${N}`,
    expect: [
      {
        kind: 'nodeConditionMismatch',
        field: 'status.conditions[Ready]',
        api: 'Unknown',
        runtime: 'True',
        status: 'drift',
        whyId: 'drift.nodeCondition.controller',
      },
    ],
  },
  {
    name: 'nodeConditionMismatch: a pressure condition the kubelet computes differently, 5 s old, propagating',
    api: {
      pods: [],
      nodes: [apiNode(N, [nodeCond('Ready', 'True', 0), nodeCond('MemoryPressure', 'False', 0)])],
      leases: [lease(N, 95)],
    },
    nodes: {
      [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0), nodeCond('MemoryPressure', 'True', 95)]),
    },
    now: s(100),
    entity: `node:${N}`,
    expect: [
      {
        kind: 'nodeConditionMismatch',
        field: 'status.conditions[MemoryPressure]',
        since: s(95),
        status: 'propagating',
        whyId: 'drift.nodeCondition.mismatch',
      },
    ],
  },
  {
    name: 'kubeletNotReporting: Lease 120 s old (status heartbeat older) while the runtime answered 1 s ago',
    api: {
      pods: [],
      nodes: [apiNode(N, [nodeCond('Ready', 'True', -300)])],
      leases: [lease(N, -20)],
    },
    nodes: {
      [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0)], {
        connected: true,
        lastRelistAt: s(99),
      }),
    },
    now: s(100),
    entity: `node:${N}`,
    expect: [
      {
        kind: 'kubeletNotReporting',
        field: 'lease.spec.renewTime',
        api: '2026-03-01T09:59:40Z',
        runtime: true,
        status: 'drift',
        since: s(-20),
        whyId: 'drift.kubelet.silentRuntimeAlive',
      },
    ],
  },
  {
    name: 'kubeletNotReporting: Lease old and the runtime unreachable too',
    api: { pods: [], nodes: [apiNode(N, [nodeCond('Ready', 'True', 0)])], leases: [lease(N, 30)] },
    nodes: {
      [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0)], {
        connected: false,
        lastRelistAt: s(30),
      }),
    },
    now: s(100),
    entity: `node:${N}`,
    expect: [{ kind: 'kubeletNotReporting', runtime: false, whyId: 'drift.kubelet.silent' }],
  },
  {
    name: 'kubeletNotReporting: no Lease, the Ready heartbeat is old',
    api: { pods: [], nodes: [apiNode(N, [nodeCond('Ready', 'True', 0)])], leases: [] },
    nodes: { [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0)]) },
    now: s(100),
    entity: `node:${N}`,
    expect: [{ kind: 'kubeletNotReporting', field: 'status.conditions[Ready].lastHeartbeatTime' }],
  },
  {
    name: 'a Lease within its duration (renewed 30 s ago, 40 s lease) is fine',
    api: { pods: [], nodes: [apiNode(N, [nodeCond('Ready', 'True', 0)])], leases: [lease(N, 70)] },
    nodes: { [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0)]) },
    now: s(100),
    entity: `node:${N}`,
    expect: [],
  },
  {
    name: 'the Lease check is skipped while Podscope’s own watch is disconnected',
    api: { pods: [], nodes: [apiNode(N, [nodeCond('Ready', 'True', 0)])], leases: [lease(N, -20)] },
    nodes: { [N]: nodeView(N, [], [nodeCond('Ready', 'True', 0)]) },
    now: s(100),
    options: { apiConnected: false },
    entity: `node:${N}`,
    expect: [],
  },
];
