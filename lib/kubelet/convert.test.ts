/**
 * convertToAPIContainerStatuses. The first block ports the cases of upstream's
 * TestConvertToAPIContainerStatuses (pkg/kubelet/kubelet_pods_test.go @
 * 001a80e975bb880d0fe60b304d30950fe661f278) that do not need an in-place RestartAllContainers
 * (podRestarting); upstream runs them with ContainerRestartRules and RestartAllContainersOnContainerExits
 * on and compares after blanking containerID. The rest are Podscope's own cases.
 */
import type { V1ContainerStatus, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  convertToAPIContainerStatuses,
  MSG_INIT_ASSUMED_COMPLETED,
  type ConvertOptions,
} from './convert';
import type { RuntimeContainer } from './runtime';
import {
  failedState,
  record,
  runningState,
  runtimeOf,
  waitingWithLastTerminationUnknown,
  withRestartCount,
} from './testing/fixtures';

const RAC = { ContainerRestartRules: true, RestartAllContainersOnContainerExits: true };

function blank(statuses: V1ContainerStatus[]): V1ContainerStatus[] {
  return statuses.map((s) => {
    const out: V1ContainerStatus = { ...s };
    delete out.containerID;
    if (out.state?.terminated)
      out.state = { terminated: { ...out.state.terminated, containerID: undefined } };
    return JSON.parse(JSON.stringify(out)) as V1ContainerStatus;
  });
}

const desiredState: V1PodSpec = {
  nodeName: 'machine',
  containers: [{ name: 'containerA' }, { name: 'containerB' }],
  restartPolicy: 'Always',
};

describe('TestConvertToAPIContainerStatuses', () => {
  const conv = (o: Partial<ConvertOptions> & { pod: V1Pod }) =>
    blank(
      convertToAPIContainerStatuses({
        runtime: runtimeOf([]),
        previousStatus: [],
        containers: o.pod.spec?.containers ?? [],
        hasInitContainers: false,
        isInitContainer: false,
        gates: RAC,
        ...o,
      }),
    );

  it('no current status, with previous statuses and deletion', () => {
    const got = conv({
      pod: { metadata: { name: 'my-pod', deletionTimestamp: new Date(0) }, spec: desiredState },
      previousStatus: [runningState('containerA'), runningState('containerB')],
    });
    expect(got).toEqual([
      waitingWithLastTerminationUnknown('containerA', 0),
      waitingWithLastTerminationUnknown('containerB', 0),
    ]);
  });
  it('no current status, with previous statuses and no deletion', () => {
    const got = conv({
      pod: { spec: desiredState },
      previousStatus: [runningState('containerA'), runningState('containerB')],
    });
    expect(got).toEqual([
      waitingWithLastTerminationUnknown('containerA', 1),
      waitingWithLastTerminationUnknown('containerB', 1),
    ]);
  });
  it('no current status, keeping previous restartCount', () => {
    const got = conv({
      pod: { spec: desiredState },
      previousStatus: [
        withRestartCount(failedState('containerA'), 5),
        withRestartCount(failedState('containerB'), 5),
      ],
    });
    expect(got).toEqual([
      withRestartCount(failedState('containerA'), 5),
      withRestartCount(failedState('containerB'), 5),
    ]);
  });
  it('currently running with lower restartCount; should keeping previous restartCount', () => {
    const got = conv({
      pod: { spec: desiredState },
      runtime: runtimeOf([
        record({ name: 'containerA', restartCount: 0 }),
        record({ name: 'containerB', restartCount: 0 }),
      ]),
      previousStatus: [
        withRestartCount(failedState('containerA'), 5),
        withRestartCount(failedState('containerB'), 5),
      ],
    });
    const want = (n: string) => ({
      ...withRestartCount(runningState(n), 6),
      lastState: { terminated: { exitCode: -1 } },
    });
    expect(got).toEqual([want('containerA'), want('containerB')]);
  });
  it('Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally', () => {
    const spec: V1PodSpec = {
      nodeName: 'machine',
      initContainers: [{ name: 'init-1' }],
      containers: [{ name: 'containerA' }],
      restartPolicy: 'Always',
    };
    const got = conv({
      pod: { metadata: { name: 'my-pod' }, spec },
      runtime: runtimeOf([record({ name: 'containerA', startedAt: 1000 })]),
      containers: spec.initContainers,
      hasInitContainers: true,
      isInitContainer: true,
    });
    expect(got).toEqual([
      {
        name: 'init-1',
        image: '',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: {
          terminated: { reason: 'Completed', message: MSG_INIT_ASSUMED_COMPLETED, exitCode: 0 },
        },
      },
    ]);
  });
  it('Unable to get sidecar container status from container runtime and pod has been initialized, sidecar container should be waiting', () => {
    const spec: V1PodSpec = {
      nodeName: 'machine',
      initContainers: [{ name: 'sidecar-1', restartPolicy: 'Always' }],
      containers: [{ name: 'containerA' }],
      restartPolicy: 'Always',
    };
    const got = conv({
      pod: { metadata: { name: 'my-pod' }, spec },
      runtime: runtimeOf([record({ name: 'containerA', startedAt: 1000 })]),
      containers: spec.initContainers,
      hasInitContainers: true,
      isInitContainer: true,
    });
    expect(got).toEqual([
      {
        name: 'sidecar-1',
        image: '',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { waiting: { reason: 'PodInitializing' } },
      },
    ]);
  });
});

describe('convertToAPIContainerStatuses (Podscope cases)', () => {
  const pod: V1Pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { containers: [{ name: 'app', image: 'busybox' }], restartPolicy: 'Always' },
  };
  const run = (records: RuntimeContainer[], extra: Partial<ConvertOptions> = {}) =>
    convertToAPIContainerStatuses({
      pod,
      runtime: runtimeOf(records),
      previousStatus: undefined,
      containers: pod.spec?.containers ?? [],
      hasInitContainers: false,
      isInitContainer: false,
      ...extra,
    });

  it('no record at all: Waiting ContainerCreating with the spec image', () => {
    expect(run([])[0]).toMatchObject({
      name: 'app',
      image: 'busybox',
      state: { waiting: { reason: 'ContainerCreating' } },
    });
  });
  it('with init containers in the spec, the default reason is PodInitializing for every list', () => {
    const got = run([], { hasInitContainers: true });
    expect(got[0]?.state?.waiting?.reason).toBe('PodInitializing');
  });
  it('created but not started: Waiting with an empty reason', () => {
    const got = run([record({ name: 'app', state: 'created' })]);
    expect(got[0]?.state).toEqual({ waiting: {} });
  });
  it('running: startedAt truncated to whole seconds, image and imageID from the runtime, containerID prefixed', () => {
    const got = run(
      [
        record({
          name: 'app',
          id: 'abc',
          startedAt: 1_700_000_000_999,
          image: 'docker.io/library/busybox:1',
          imageRef: 'sha256:x',
        }),
      ],
      {
        runtimeName: 'containerd',
      },
    );
    expect(got[0]).toMatchObject({
      image: 'docker.io/library/busybox:1',
      imageID: 'sha256:x',
      containerID: 'containerd://abc',
      state: { running: { startedAt: new Date(1_700_000_000_000) } },
    });
  });
  it.each([
    [0, 'Completed'],
    [1, 'Error'],
    [137, 'OOMKilled'],
    [128, 'StartError'],
  ])('exited with %i keeps the runtime reason %s', (exitCode, reason) => {
    const got = run([
      record({ name: 'app', state: 'exited', exitCode, reason, startedAt: 2000, finishedAt: 5000 }),
    ]);
    expect(got[0]?.state?.terminated).toMatchObject({
      exitCode,
      reason,
      startedAt: new Date(2000),
      finishedAt: new Date(5000),
    });
  });
  it('the second newest record becomes lastState; a third is ignored; restartCount comes from the annotation', () => {
    const got = run([
      record({
        name: 'app',
        id: 'a0',
        createdAt: 1000,
        state: 'exited',
        exitCode: 2,
        reason: 'Error',
        restartCount: 0,
      }),
      record({ name: 'app', id: 'a2', createdAt: 3000, state: 'running', restartCount: 2 }),
      record({
        name: 'app',
        id: 'a1',
        createdAt: 2000,
        state: 'exited',
        exitCode: 1,
        reason: 'Error',
        restartCount: 1,
      }),
    ]);
    expect(got[0]?.restartCount).toBe(2);
    expect(got[0]?.state?.running).toBeDefined();
    expect(got[0]?.lastState?.terminated).toMatchObject({
      exitCode: 1,
      containerID: 'containerd://a1',
    });
  });
  it('an unknown record of a container that was Running is Terminated ContainerStatusUnknown 137, restartCount + 1', () => {
    const prev = [{ ...runningState('app'), restartCount: 4 }];
    const got = run([record({ name: 'app', state: 'unknown' })], { previousStatus: prev });
    expect(got[0]).toMatchObject({
      restartCount: 5,
      state: { terminated: { reason: 'ContainerStatusUnknown', exitCode: 137 } },
    });
  });
  it('an unknown record otherwise is Waiting with an empty reason', () => {
    expect(run([record({ name: 'app', state: 'unknown' })])[0]?.state).toEqual({ waiting: {} });
  });
  it('a reason-cache entry turns a never-created container into Waiting ErrImagePull', () => {
    const got = run([], {
      reasonCache: { app: { reason: 'ErrImagePull', message: 'pull access denied' } },
    });
    expect(got[0]?.state).toEqual({
      waiting: { reason: 'ErrImagePull', message: 'pull access denied' },
    });
  });
  it('CrashLoopBackOff from the reason cache moves the last run to lastState', () => {
    const got = run(
      [record({ name: 'app', state: 'exited', exitCode: 1, reason: 'Error', restartCount: 3 })],
      {
        reasonCache: {
          app: {
            reason: 'CrashLoopBackOff',
            message: 'back-off 40s restarting failed container=app pod=web_default(u1)',
          },
        },
      },
    );
    expect(got[0]).toMatchObject({
      restartCount: 3,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
  });
  it('a running container ignores the reason cache (it will not be restarted)', () => {
    const got = run([record({ name: 'app' })], {
      reasonCache: { app: { reason: 'CreateContainerConfigError', message: 'x' } },
    });
    expect(got[0]?.state?.running).toBeDefined();
  });
  it('a pod being deleted ignores the reason cache', () => {
    const deleting: V1Pod = {
      ...pod,
      metadata: { ...pod.metadata, deletionTimestamp: new Date(0) },
    };
    const got = run([], {
      pod: deleting,
      reasonCache: { app: { reason: 'ErrImagePull', message: 'x' } },
    });
    expect(got[0]?.state?.waiting?.reason).toBe('ContainerCreating');
  });
  it('restartPolicy Never: an exited container is not restarted, so the reason cache is ignored', () => {
    const never: V1Pod = {
      ...pod,
      spec: { containers: [{ name: 'app' }], restartPolicy: 'Never' },
    };
    const got = run([record({ name: 'app', state: 'exited', exitCode: 1 })], {
      pod: never,
      reasonCache: { app: { reason: 'CrashLoopBackOff', message: '' } },
    });
    expect(got[0]?.state?.terminated?.exitCode).toBe(1);
  });
  it('an init container that exited 0 keeps its Terminated state', () => {
    const initPod: V1Pod = {
      spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'app' }] },
    };
    const got = convertToAPIContainerStatuses({
      pod: initPod,
      runtime: runtimeOf([
        record({ name: 'init', state: 'exited', exitCode: 0, reason: 'Completed' }),
      ]),
      previousStatus: [],
      containers: initPod.spec?.initContainers ?? [],
      hasInitContainers: true,
      isInitContainer: true,
      reasonCache: { init: { reason: 'CrashLoopBackOff', message: '' } },
    });
    expect(got[0]?.state?.terminated?.reason).toBe('Completed');
  });
  it('regular statuses are sorted by name; init statuses keep spec order', () => {
    const p: V1Pod = {
      spec: {
        initContainers: [{ name: 'z' }, { name: 'a' }],
        containers: [{ name: 'b' }, { name: 'a2' }],
      },
    };
    const regular = convertToAPIContainerStatuses({
      pod: p,
      runtime: runtimeOf([]),
      previousStatus: [],
      containers: p.spec?.containers ?? [],
      hasInitContainers: true,
      isInitContainer: false,
    });
    const init = convertToAPIContainerStatuses({
      pod: p,
      runtime: runtimeOf([]),
      previousStatus: [],
      containers: p.spec?.initContainers ?? [],
      hasInitContainers: true,
      isInitContainer: true,
    });
    expect(regular.map((s) => s.name)).toEqual(['a2', 'b']);
    expect(init.map((s) => s.name)).toEqual(['z', 'a']);
  });
  it('a previous started flag is kept for a running container', () => {
    const got = run([record({ name: 'app' })], {
      previousStatus: [{ ...runningState('app'), started: true }],
    });
    expect(got[0]?.started).toBe(true);
  });
  it('absurd timestamps and exit codes give a defined result', () => {
    const got = run([
      record({
        name: 'app',
        state: 'exited',
        exitCode: Number.NaN,
        startedAt: Infinity,
        finishedAt: -1e20,
      }),
    ]);
    expect(got[0]?.state?.terminated).toEqual({ exitCode: 0, containerID: 'containerd://app' });
  });
});
