/**
 * computePodActions, table-driven in the manner of upstream's TestComputePodActions and
 * TestComputePodActionsWithRestartableInitContainers (pkg/kubelet/kuberuntime/kuberuntime_manager_test.go):
 * a pod spec, what the runtime reports, and the actions the kubelet takes.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { computePodActions, isTerminalPlan, type PodActions } from './actions';

const c = (name: string, extra: Partial<V1Container> = {}): V1Container => ({
  name,
  image: 'img',
  ...extra,
});

function pod(spec: Partial<NonNullable<V1Pod['spec']>> = {}): V1Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: { hostNetwork: true, containers: [c('app')], restartPolicy: 'Always', ...spec },
  };
}

const sandbox = (state: 'ready' | 'notready' = 'ready', attempt = 0): RuntimeSandbox => ({
  id: `sb${attempt}`,
  name: 'p',
  namespace: 'ns',
  uid: 'u1',
  attempt,
  state,
  createdAt: 1000 + attempt,
  labels: {},
  annotations: {},
  networkMode: 'NODE',
  network: { ip: '', additionalIps: [] },
  inspected: true,
});

let seq = 0;
function record(
  name: string,
  state: RuntimeContainer['state'],
  extra: Partial<RuntimeContainer> = {},
): RuntimeContainer {
  seq++;
  return {
    id: `${name}-${seq}`,
    sandboxId: 'sb0',
    name,
    attempt: 0,
    state,
    createdAt: 2000 + seq,
    image: 'img',
    imageRef: 'img',
    restartCount: 0,
    labels: {},
    annotations: {},
    inspected: true,
    ...(state === 'exited' ? { exitCode: 0, finishedAt: 3000 + seq } : {}),
    ...extra,
  };
}

function status(
  containers: RuntimeContainer[],
  sandboxes: RuntimeSandbox[] = [sandbox()],
): RuntimePodStatus {
  return { uid: 'u1', name: 'p', namespace: 'ns', sandboxes, containers };
}

type Want = Partial<
  Pick<
    PodActions,
    'killPod' | 'createSandbox' | 'attempt' | 'initContainersToStart' | 'containersToStart'
  >
> & {
  kill?: string[];
};

function expectActions(actions: PodActions, want: Want): void {
  expect({
    killPod: actions.killPod,
    createSandbox: actions.createSandbox,
    initContainersToStart: actions.initContainersToStart,
    containersToStart: actions.containersToStart,
    kill: actions.containersToKill.map((k) => k.name),
    ...(want.attempt !== undefined ? { attempt: actions.attempt } : {}),
  }).toEqual({
    killPod: false,
    createSandbox: false,
    initContainersToStart: [],
    containersToStart: [],
    kill: [],
    ...want,
  });
}

describe('computePodActions (regular containers)', () => {
  const cases: [string, V1Pod, RuntimePodStatus, Want][] = [
    [
      'new pod: create the sandbox and start every container',
      pod({ containers: [c('a'), c('b')] }),
      status([], []),
      {
        killPod: true,
        createSandbox: true,
        attempt: 0,
        containersToStart: [0, 1],
      },
    ],
    ['everything running: nothing to do', pod(), status([record('app', 'running')]), {}],
    [
      'exited under Always: restart it',
      pod(),
      status([record('app', 'exited', { exitCode: 1 })]),
      { containersToStart: [0] },
    ],
    [
      'exited 0 under OnFailure: done, kill the pod',
      pod({ restartPolicy: 'OnFailure' }),
      status([record('app', 'exited')]),
      {
        killPod: true,
      },
    ],
    [
      'exited 1 under OnFailure: restart',
      pod({ restartPolicy: 'OnFailure' }),
      status([record('app', 'exited', { exitCode: 1 })]),
      {
        containersToStart: [0],
      },
    ],
    [
      'exited under Never: done, kill the pod',
      pod({ restartPolicy: 'Never' }),
      status([record('app', 'exited', { exitCode: 1 })]),
      {
        killPod: true,
      },
    ],
    [
      'a container-level Always overrides the pod Never',
      pod({ restartPolicy: 'Never', containers: [c('app', { restartPolicy: 'Always' })] }),
      status([record('app', 'exited')]),
      {
        containersToStart: [0],
      },
    ],
    [
      'one running, one exited under Never: keep the pod',
      pod({ restartPolicy: 'Never', containers: [c('a'), c('b')] }),
      status([record('a', 'running'), record('b', 'exited')]),
      {},
    ],
    [
      'unknown state: kill and restart',
      pod(),
      status([record('app', 'unknown')]),
      { containersToStart: [0], kill: ['app'] },
    ],
    [
      'created but never started: start it',
      pod(),
      status([record('app', 'created')]),
      { containersToStart: [0] },
    ],
    [
      'sandbox died under Always: new sandbox, attempt + 1, start everything',
      pod(),
      status([record('app', 'exited')], [sandbox('notready')]),
      {
        killPod: true,
        createSandbox: true,
        attempt: 1,
        containersToStart: [0],
      },
    ],
    [
      'sandbox died under Never after containers ran: no new sandbox',
      pod({ restartPolicy: 'Never' }),
      status([record('app', 'running')], [sandbox('notready')]),
      {
        killPod: true,
      },
    ],
    [
      'sandbox died under OnFailure, container succeeded: nothing to start, no new sandbox',
      pod({ restartPolicy: 'OnFailure' }),
      status([record('app', 'exited')], [sandbox('notready')]),
      {
        killPod: true,
      },
    ],
  ];
  for (const [name, p, s, want] of cases) {
    it(name, () => expectActions(computePodActions(p, s), want));
  }

  it('marks the plan terminal only when the pod is killed without a new sandbox', () => {
    expect(
      isTerminalPlan(
        computePodActions(pod({ restartPolicy: 'Never' }), status([record('app', 'exited')])),
      ),
    ).toBe(true);
    expect(isTerminalPlan(computePodActions(pod(), status([], [])))).toBe(false);
  });
});

describe('computePodActions (init containers and sidecars)', () => {
  const inits = [c('init-a'), c('init-b')];
  const sidecarPod = (policy = 'Always') =>
    pod({
      restartPolicy: policy,
      initContainers: [c('proxy', { restartPolicy: 'Always' }), c('setup')],
      containers: [c('app')],
    });
  const cases: [string, V1Pod, RuntimePodStatus, Want][] = [
    [
      'new pod with init containers: only the first init container',
      pod({ initContainers: inits }),
      status([], []),
      {
        killPod: true,
        createSandbox: true,
        attempt: 0,
        initContainersToStart: [0],
      },
    ],
    [
      'no init container ran yet: start the first',
      pod({ initContainers: inits }),
      status([]),
      { initContainersToStart: [0] },
    ],
    [
      'first init running: wait',
      pod({ initContainers: inits }),
      status([record('init-a', 'running')]),
      {},
    ],
    [
      'first init succeeded: start the second',
      pod({ initContainers: inits }),
      status([record('init-a', 'exited')]),
      {
        initContainersToStart: [1],
      },
    ],
    [
      'all init succeeded: start the app',
      pod({ initContainers: inits }),
      status([record('init-a', 'exited'), record('init-b', 'exited')]),
      {
        containersToStart: [0],
      },
    ],
    [
      'init failed under Always: restart it',
      pod({ initContainers: inits }),
      status([record('init-a', 'exited', { exitCode: 1 })]),
      {
        initContainersToStart: [0],
      },
    ],
    [
      'init failed under Never: kill the pod',
      pod({ restartPolicy: 'Never', initContainers: inits }),
      status([record('init-a', 'exited', { exitCode: 1 })]),
      {
        killPod: true,
      },
    ],
    [
      'init OOMKilled with exit 0 still counts as failed',
      pod({ restartPolicy: 'Never', initContainers: inits }),
      status([record('init-a', 'exited', { exitCode: 0, reason: 'OOMKilled' })]),
      {
        killPod: true,
      },
    ],
    [
      'app running: finished init containers are not run again',
      pod({ initContainers: inits }),
      status([record('app', 'running')]),
      {},
    ],
    ['sidecar not started: start it', sidecarPod(), status([]), { initContainersToStart: [0] }],
    [
      'sidecar running: start the next init container',
      sidecarPod(),
      status([record('proxy', 'running')]),
      {
        initContainersToStart: [1],
      },
    ],
    [
      'sidecar running, setup done: start the app',
      sidecarPod(),
      status([record('proxy', 'running'), record('setup', 'exited')]),
      {
        containersToStart: [0],
      },
    ],
    [
      'sidecar exited while the app runs: restart the sidecar only',
      sidecarPod('Never'),
      status([
        record('proxy', 'exited', { exitCode: 1 }),
        record('setup', 'exited'),
        record('app', 'running'),
      ]),
      {
        initContainersToStart: [0],
      },
    ],
    [
      'app finished under Never: kill the pod, do not restart the sidecar',
      sidecarPod('Never'),
      status([record('proxy', 'exited'), record('setup', 'exited'), record('app', 'exited')]),
      {
        killPod: true,
      },
    ],
  ];
  for (const [name, p, s, want] of cases) {
    it(name, () => expectActions(computePodActions(p, s), want));
  }
});
