/**
 * A small but complete timeline for tests: two nodes, a crash-looping pod with an init container,
 * a pod that is deleted, drift, API Events, and times on every Kubernetes type. Test-only; not
 * exported from index.ts.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { TimelineEvent, UnsequencedEvent } from '../../events';
import { reduce } from '../../reducer';
import { emptyState, type ClusterState, type PodView } from '../../state';
import { buildTimelineFile } from '../build';
import type { TimelineFile } from '../types';

export const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

const at = (s: number) => new Date(T0 + s * 1000);

function pod(uid: string, name: string, node: string, createdAt: number): PodView {
  return {
    uid,
    name,
    namespace: 'shop',
    node,
    specSource: 'annotation',
    spec: {
      restartPolicy: 'Always',
      initContainers: [{ name: 'migrate', sidecar: false }],
      containers: ['app'],
      hostNetwork: false,
      terminationGracePeriodSeconds: 30,
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: at(0) }],
      initContainerStatuses: [],
      containerStatuses: [],
      qosClass: 'BestEffort',
    },
    why: {
      phase: { id: 'phase.pending.initializing', params: { init: 1 } },
      conditions: {},
      containers: {},
    },
    createdAt,
  };
}

const running = (name: string, s: number, restartCount: number): V1ContainerStatus => ({
  name,
  image: 'podscope.local/busybox:1',
  imageID: 'sha256:abc',
  containerID: `containerd://${name}-${restartCount}`,
  ready: true,
  started: true,
  restartCount,
  state: { running: { startedAt: at(s) } },
});

const exited = (
  name: string,
  s: number,
  restartCount: number,
  exitCode: number,
): V1ContainerStatus => ({
  name,
  image: 'podscope.local/busybox:1',
  imageID: 'sha256:abc',
  containerID: `containerd://${name}-${restartCount}`,
  ready: false,
  started: false,
  restartCount,
  state: {
    terminated: {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt: at(s - 2),
      finishedAt: at(s),
    },
  },
});

/** A timeline of `cycles` crash-loop rounds; events in seq order from 1. */
export function sampleEvents(cycles = 4): TimelineEvent[] {
  const out: UnsequencedEvent[] = [];
  const ms = (s: number) => T0 + s * 1000;
  out.push(
    {
      kind: 'node',
      type: 'NodeAdded',
      node: 'node-a',
      t: ms(0),
      endpoint: 'unix:///run/a.sock',
      runtime: { name: 'containerd', version: '1.7.0', apiVersion: 'v1' },
      runtimeConditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }],
      health: { connected: true, lastRelistAt: ms(0) },
    },
    {
      kind: 'node',
      type: 'NodeConditionChanged',
      node: 'node-a',
      t: ms(0),
      condition: {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: at(0),
        lastTransitionTime: at(0),
      },
      why: { id: 'node.ready.true', rule: 'pkg/kubelet/nodestatus/setters.go ReadyCondition' },
    },
    {
      kind: 'node',
      type: 'NodeAdded',
      node: 'node-b',
      t: ms(0),
      endpoint: 'unix:///run/b.sock',
      health: { connected: true },
    },
    {
      kind: 'pod',
      type: 'PodAdded',
      node: 'node-a',
      t: ms(1),
      podUid: 'uid-web',
      pod: pod('uid-web', 'web-1', 'node-a', ms(1)),
    },
    {
      kind: 'pod',
      type: 'PodAdded',
      node: 'node-b',
      t: ms(1),
      podUid: 'uid-job',
      pod: pod('uid-job', 'job-1', 'node-b', ms(1)),
    },
    {
      kind: 'cri',
      type: 'ContainerStarted',
      source: 'relist',
      node: 'node-a',
      t: ms(2),
      podUid: 'uid-web',
      container: 'migrate',
      id: 'c-m',
      detail: { state: 'CONTAINER_RUNNING' },
    },
    {
      kind: 'container',
      type: 'ContainerStateChanged',
      node: 'node-a',
      t: ms(2),
      podUid: 'uid-web',
      list: 'init',
      name: 'migrate',
      status: running('migrate', 2, 0),
      from: 'waiting',
      to: 'running',
      cause: 6,
      why: { id: 'container.running' },
    },
    {
      kind: 'container',
      type: 'ContainerStateChanged',
      node: 'node-a',
      t: ms(4),
      podUid: 'uid-web',
      list: 'init',
      name: 'migrate',
      status: exited('migrate', 4, 0, 0),
      from: 'running',
      to: 'terminated',
    },
    {
      kind: 'pod',
      type: 'PodConditionChanged',
      node: 'node-a',
      t: ms(4),
      podUid: 'uid-web',
      condition: {
        type: 'Initialized',
        status: 'True',
        lastTransitionTime: at(4),
        lastProbeTime: null,
      } as never,
      from: 'False',
      why: { id: 'initialized.true' },
    },
  );
  let s = 5;
  for (let c = 0; c < cycles; c++) {
    out.push(
      {
        kind: 'cri',
        type: 'ContainerStarted',
        source: 'events',
        node: 'node-a',
        t: ms(s),
        podUid: 'uid-web',
        container: 'app',
        id: `c-app-${c}`,
        runtimeTime: ms(s) - 0.25,
      },
      {
        kind: 'container',
        type: 'ContainerStateChanged',
        node: 'node-a',
        t: ms(s),
        podUid: 'uid-web',
        list: 'regular',
        name: 'app',
        status: running('app', s, c),
        to: 'running',
        why: { id: 'container.running', inputs: { restartCount: c } },
      },
      {
        kind: 'pod',
        type: 'PodPhaseChanged',
        node: 'node-a',
        t: ms(s),
        podUid: 'uid-web',
        phase: 'Running',
        from: 'Pending',
        why: {
          id: 'phase.running.restartingAlways',
          params: { restartPolicy: 'Always', containers: ['app'] },
        },
      },
      {
        kind: 'cri',
        type: 'ContainerExited',
        source: 'relist',
        node: 'node-a',
        t: ms(s + 2),
        podUid: 'uid-web',
        container: 'app',
        id: `c-app-${c}`,
        detail: { exit_code: 3, reason: 'Error', oom: false, note: null },
      },
      {
        kind: 'container',
        type: 'ContainerStateChanged',
        node: 'node-a',
        t: ms(s + 2),
        podUid: 'uid-web',
        list: 'regular',
        name: 'app',
        status: exited('app', s + 2, c, 3),
        from: 'running',
        to: 'terminated',
      },
      {
        kind: 'pod',
        type: 'PodUpdated',
        node: 'node-a',
        t: ms(s + 2),
        podUid: 'uid-web',
        patch: {
          nextRestartAt: { app: ms(s + 12) },
          status: { podIP: '10.1.0.7', podIPs: [{ ip: '10.1.0.7' }], startTime: at(1) },
        },
      },
      {
        kind: 'k8s',
        type: 'Event',
        node: 'node-a',
        t: ms(s + 2),
        reason: 'BackOff',
        message: 'Back-off restarting failed container app',
        eventType: 'Warning',
        involvedObject: {
          kind: 'Pod',
          name: 'web-1',
          namespace: 'shop',
          fieldPath: 'spec.containers{app}',
        },
        count: c + 1,
        lastTimestamp: ms(s + 2),
        source: 'kubelet',
        podUid: 'uid-web',
        container: 'app',
      },
    );
    s += 10;
  }
  out.push(
    {
      kind: 'pod',
      type: 'PodUpdated',
      node: 'node-b',
      t: ms(s),
      podUid: 'uid-job',
      patch: {
        deletionTimestamp: ms(s),
        drift: [
          {
            kind: 'phaseMismatch',
            node: 'node-b',
            podUid: 'uid-job',
            pod: 'shop/job-1',
            field: 'status.phase',
            api: 'Running',
            runtime: 'Pending',
            status: 'propagating',
            since: ms(s),
            why: { id: 'drift.phaseMismatch' },
          },
        ],
      },
    },
    // The server clock steps back: timeline time stays at its running maximum.
    { kind: 'pod', type: 'PodRemoved', node: 'node-b', t: ms(s - 3), podUid: 'uid-job' },
    {
      kind: 'node',
      type: 'NodeUpdated',
      node: 'node-b',
      t: ms(s + 1),
      health: {
        connected: false,
        lastError: 'relist failed: deadline exceeded',
        lastErrorAt: ms(s + 1),
      },
    },
  );
  return out.map((e, i): TimelineEvent => ({ ...e, seq: i + 1 }));
}

/** A file of the events after `fromIndex`, with the state before them as the initial state. */
export function sampleFile(options: { cycles?: number; fromIndex?: number } = {}): TimelineFile {
  const events = sampleEvents(options.cycles);
  const fromIndex = options.fromIndex ?? 5;
  let initial: ClusterState = emptyState();
  for (const e of events.slice(0, fromIndex)) initial = reduce(initial, e);
  const rest = events.slice(fromIndex);
  const last = rest.reduce((t, e) => Math.max(t, e.t), initial.t);
  const from = initial.t + 500;
  return buildTimelineFile({
    title: 'web-1 crash loop',
    notes: 'Started after the 12:00 deploy.\nSee the exit codes.',
    createdAt: last + 60_000,
    from,
    to: last + 1000,
    initialState: initial,
    events: rest,
    annotations: [
      { t: from + 4000, entity: 'uid-web/app', text: 'First exit with code 3', author: 'on-call' },
      { t: from + 1000, text: 'Deploy finished' },
    ],
    podscope: '0.1.0-test',
    kind: 'saved',
  });
}
