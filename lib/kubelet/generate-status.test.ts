/**
 * generateAPIPodStatus tables ported from upstream (kubernetes/kubernetes):
 * - pkg/kubelet/kubelet_test.go @ 16abcd78bd493c2694754e46f9227fef7976ed91:
 *   TestGenerateAPIPodStatusWithSortedContainers, TestGenerateAPIPodStatusWithReasonCache,
 *   TestGenerateAPIPodStatusWithDifferentRestartPolicies;
 * - pkg/kubelet/kubelet_pods_test.go @ 001a80e975bb880d0fe60b304d30950fe661f278:
 *   Test_generateAPIPodStatus.
 *
 * How upstream's harness maps here:
 * - kubecontainer.Status entries are runtime records, newest first as listed (upstream sorts by
 *   CreatedAt, newest first; the tables list them in that order).
 * - kubelet.reasonCache.add(uid, name, err, "") is `syncErrors[name] = { reason: err, message: '' }`.
 * - kl.statusManager.SetPodStatus(pod, previousStatus) is `oldStatus`.
 * - newTestKubelet's probe manager is probetest.FakeManager, whose UpdatePodStatus marks every
 *   regular container Ready: the `fakeProber` below does the same through the `prober` seam.
 * - its node lister answers HostIPs 127.0.0.1 and ::1: `hostIPs`.
 * Differences, each forced by what Podscope models:
 * - container IDs always carry the runtime name: upstream's `(&ContainerID{}).String()` ("://") and
 *   `ContainerID{ID: "foo"}` ("://foo") are "test://" and "test://foo" with runtimeName "test";
 * - the CRI's times reach the API as whole seconds (RFC 3339), so a started-at of
 *   time.Unix(123456789, 987654321) reads 123456789 s;
 * - Test_generateAPIPodStatus' sandbox carries IP 10.0.0.10 while its PodStatus.IPs is empty (a fake
 *   that kuberuntime never produces: GetPodStatus takes the IPs from that very sandbox). Podscope
 *   takes pod IPs from the sandbox, so those cases also expect podIP(s) 10.0.0.10;
 * - fields generateAPIPodStatus does not write upstream (the status manager's lastTransitionTime of
 *   kubelet conditions and startTime) are dropped before comparing, and upstream's `Resources: {}`
 *   on running containers (withResources) is not modelled (the CRI subset carries no resources);
 * - the InPlacePodLevelResourcesVerticalScaling cases (pod-level resources in the status) are not
 *   ported: Podscope does not report resources in the pod status.
 */
import type {
  V1Container,
  V1ContainerState,
  V1ContainerStatus,
  V1Pod,
  V1PodCondition,
  V1PodStatus,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox, SyncError } from './runtime';
import { generateAPIPodStatus, type PodStatusProber } from './status';
import {
  readySandbox,
  record,
  runningState,
  succeededState,
  waitingState,
  waitingStateWithReason,
  waitingWithLastTerminationUnknown,
} from './testing/fixtures';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const HOST_IPS = ['127.0.0.1', '::1'];
const RUNTIME = 'test';
const emptyContainerID = `${RUNTIME}://`;
const MSG_UNKNOWN = 'The container could not be located when the pod was terminated';

/** probetest.FakeManager.UpdatePodStatus: every regular container is Ready. */
const fakeProber: PodStatusProber = (_pod, s) => ({
  initContainerStatuses: [...s.initContainerStatuses],
  containerStatuses: s.containerStatuses.map((c) => ({ ...c, ready: true })),
});

/** An upstream kubecontainer.Status, as far as these tables set it. */
interface CriStatus {
  name: string;
  state?: RuntimeContainer['state'];
  exitCode?: number;
  id?: string;
  startedAtMs?: number;
}

/** kubecontainer.PodStatus for pod uid 12345678 with the given records, newest first. */
function podStatusOf(statuses: readonly CriStatus[], sandboxes: RuntimeSandbox[] = []) {
  const runtime: RuntimePodStatus = {
    uid: '12345678',
    name: 'foo',
    namespace: 'new',
    sandboxes,
    containers: statuses.map((c, i) =>
      record({
        name: c.name,
        id: c.id ?? '',
        sandboxId: sandboxes[0]?.id ?? '',
        // upstream's kubecontainer.State zero value is neither running nor exited: unknown
        state: c.state ?? 'unknown',
        createdAt: 1_000_000 - i * 1000,
        ...(c.exitCode !== undefined ? { exitCode: c.exitCode } : {}),
        ...(c.startedAtMs !== undefined ? { startedAt: c.startedAtMs } : {}),
      }),
    ),
  };
  return runtime;
}

const podWithUIDNameNs = (uid: string, name: string, namespace: string): V1Pod => ({
  metadata: { uid, name, namespace },
  spec: { containers: [] },
});

const reasons = (r: Record<string, string>): Record<string, SyncError> =>
  Object.fromEntries(Object.entries(r).map(([n, e]) => [n, { reason: e, message: '' }]));

/** verifyContainerStatuses (kubelet_test.go): State and LastTerminationState of each status. */
function verifyContainerStatuses(
  statuses: readonly V1ContainerStatus[] | undefined,
  expectedState: Record<string, V1ContainerState>,
  expectedLast: Record<string, V1ContainerState>,
  message: string,
) {
  for (const s of statuses ?? []) {
    expect(s.state ?? {}, `${message}: state of ${s.name}`).toEqual(expectedState[s.name] ?? {});
    expect(s.lastState ?? {}, `${message}: last terminated state of ${s.name}`).toEqual(
      expectedLast[s.name] ?? {},
    );
  }
}

describe('TestGenerateAPIPodStatusWithSortedContainers (kubelet_test.go @ 16abcd78)', () => {
  it('container statuses come out sorted however the runtime lists them', () => {
    const expectedOrder: string[] = [];
    const cStatuses: CriStatus[] = [];
    const specContainerList: V1Container[] = [];
    for (let i = 0; i < 10; i++) {
      const containerName = `${i}container`;
      expectedOrder.push(containerName);
      const cStatus: CriStatus = { name: containerName, id: String(i) };
      // Rearrange container statuses
      if (i % 2 === 0) cStatuses.push(cStatus);
      else cStatuses.unshift(cStatus);
      specContainerList.push({ name: containerName });
    }
    const pod: V1Pod = {
      ...podWithUIDNameNs('uid1', 'foo', 'test'),
      spec: { containers: specContainerList },
    };
    const status = podStatusOf(cStatuses);
    for (let i = 0; i < 5; i++) {
      const api = generateAPIPodStatus({ pod, runtime: status, now: NOW, hostIPs: HOST_IPS });
      expect(api.status.containerStatuses?.map((c) => c.name)).toEqual(expectedOrder);
    }
  });
});

describe('TestGenerateAPIPodStatusWithReasonCache (kubelet_test.go @ 16abcd78)', () => {
  const testTimestampMs = 123456789 * 1000 + 987.654321;
  const testErrorReason = 'test-error';
  interface Case {
    name: string;
    containers: V1Container[];
    statuses: CriStatus[];
    reasons: Record<string, string>;
    oldStatuses: V1ContainerStatus[];
    expectedState: Record<string, V1ContainerState>;
    /** Only set when it differs from expectedState. */
    expectedInitState?: Record<string, V1ContainerState>;
    expectedLastTerminationState: Record<string, V1ContainerState>;
  }
  const tests: Case[] = [
    {
      name: 'no historical record: Waiting, last termination from the old API status',
      containers: [{ name: 'without-old-record' }, { name: 'with-old-record' }],
      statuses: [],
      reasons: {},
      oldStatuses: [
        {
          name: 'with-old-record',
          image: '',
          imageID: '',
          ready: false,
          restartCount: 0,
          lastState: { terminated: { exitCode: 0 } },
        },
      ],
      expectedState: {
        'without-old-record': { waiting: { reason: 'ContainerCreating' } },
        'with-old-record': { waiting: { reason: 'ContainerCreating' } },
      },
      expectedInitState: {
        'without-old-record': { waiting: { reason: 'PodInitializing' } },
        'with-old-record': { waiting: { reason: 'PodInitializing' } },
      },
      expectedLastTerminationState: {
        'with-old-record': { terminated: { exitCode: 0 } },
      },
    },
    {
      name: 'running: Running, last termination from the latest terminated record',
      containers: [{ name: 'running' }],
      statuses: [
        { name: 'running', state: 'running', startedAtMs: testTimestampMs },
        { name: 'running', state: 'exited', exitCode: 1 },
      ],
      reasons: {},
      oldStatuses: [],
      expectedState: { running: { running: { startedAt: new Date(123456789 * 1000) } } },
      expectedLastTerminationState: {
        running: { terminated: { exitCode: 1, containerID: emptyContainerID } },
      },
    },
    {
      name: 'terminated: with a start error Waiting (last = latest), without it Terminated (last = second latest); OnFailure exit 0 is not restarted',
      containers: [{ name: 'without-reason' }, { name: 'with-reason' }],
      statuses: [
        { name: 'without-reason', state: 'exited', exitCode: 1 },
        { name: 'with-reason', state: 'exited', exitCode: 2 },
        { name: 'without-reason', state: 'exited', exitCode: 3 },
        { name: 'with-reason', state: 'exited', exitCode: 4 },
        { name: 'succeed', state: 'exited', exitCode: 0 },
        { name: 'succeed', state: 'exited', exitCode: 5 },
      ],
      reasons: { 'with-reason': testErrorReason, succeed: testErrorReason },
      oldStatuses: [],
      expectedState: {
        'without-reason': { terminated: { exitCode: 1, containerID: emptyContainerID } },
        'with-reason': { waiting: { reason: testErrorReason } },
        succeed: { terminated: { exitCode: 0, containerID: emptyContainerID } },
      },
      expectedLastTerminationState: {
        'without-reason': { terminated: { exitCode: 3, containerID: emptyContainerID } },
        'with-reason': { terminated: { exitCode: 2, containerID: emptyContainerID } },
        succeed: { terminated: { exitCode: 5, containerID: emptyContainerID } },
      },
    },
    {
      name: 'unknown after running: Running → Terminated (137, ContainerStatusUnknown), never back to Waiting',
      containers: [{ name: 'unknown' }],
      statuses: [
        { name: 'unknown', state: 'unknown' },
        { name: 'unknown', state: 'running' },
      ],
      reasons: {},
      oldStatuses: [runningState('unknown')],
      expectedState: {
        unknown: {
          terminated: { exitCode: 137, message: MSG_UNKNOWN, reason: 'ContainerStatusUnknown' },
        },
      },
      expectedLastTerminationState: { unknown: { running: {} } },
    },
  ];

  // One pod object across the cases, as upstream mutates it: the init-container pass keeps the
  // regular containers and statuses the last regular case left behind.
  const pod: V1Pod = {
    ...podWithUIDNameNs('12345678', 'foo', 'new'),
    spec: { restartPolicy: 'OnFailure', containers: [] },
    status: {},
  };
  const gen = (test: Case) =>
    generateAPIPodStatus({
      pod: structuredClone(pod),
      runtime: podStatusOf(test.statuses),
      syncErrors: reasons(test.reasons),
      now: NOW,
      hostIPs: HOST_IPS,
      runtimeName: RUNTIME,
    }).status;

  it.each(tests.map((t, i) => [i, t.name, t] as const))('case %i (%s)', (i, _name, test) => {
    const spec = pod.spec ?? { containers: [] };
    spec.containers = test.containers;
    pod.status = { ...pod.status, containerStatuses: test.oldStatuses };
    const s = gen(test);
    verifyContainerStatuses(
      s.containerStatuses,
      test.expectedState,
      test.expectedLastTerminationState,
      `case ${i}`,
    );
  });

  it.each(tests.map((t, i) => [i, t.name, t] as const))(
    'case %i for init containers (%s)',
    (i, _name, test) => {
      const spec = pod.spec ?? { containers: [] };
      spec.containers = tests[tests.length - 1]?.containers ?? [];
      pod.status = { containerStatuses: tests[tests.length - 1]?.oldStatuses ?? [] };
      spec.initContainers = test.containers;
      pod.status.initContainerStatuses = test.oldStatuses;
      const s = gen(test);
      verifyContainerStatuses(
        s.initContainerStatuses,
        test.expectedInitState ?? test.expectedState,
        test.expectedLastTerminationState,
        `case ${i}`,
      );
      delete spec.initContainers;
    },
  );
});

describe('TestGenerateAPIPodStatusWithDifferentRestartPolicies (kubelet_test.go @ 16abcd78)', () => {
  const testErrorReason = 'test-error';
  const containers: V1Container[] = [{ name: 'succeed' }, { name: 'failed' }];
  const runtime = podStatusOf([
    { name: 'succeed', state: 'exited', exitCode: 0 },
    { name: 'failed', state: 'exited', exitCode: 1 },
    { name: 'succeed', state: 'exited', exitCode: 2 },
    { name: 'failed', state: 'exited', exitCode: 3 },
  ]);
  const syncErrors = reasons({ succeed: testErrorReason, failed: testErrorReason });
  const terminated = (exitCode: number): V1ContainerState => ({
    terminated: { exitCode, containerID: emptyContainerID },
  });
  const waiting: V1ContainerState = { waiting: { reason: testErrorReason } };
  const cases: {
    restartPolicy: string;
    expectedState: Record<string, V1ContainerState>;
    expectedLastTerminationState: Record<string, V1ContainerState>;
    expectedInitState?: Record<string, V1ContainerState>;
    expectedInitLastTerminationState?: Record<string, V1ContainerState>;
  }[] = [
    {
      restartPolicy: 'Never',
      expectedState: { succeed: terminated(0), failed: terminated(1) },
      expectedLastTerminationState: { succeed: terminated(2), failed: terminated(3) },
    },
    {
      restartPolicy: 'OnFailure',
      expectedState: { succeed: terminated(0), failed: waiting },
      expectedLastTerminationState: { succeed: terminated(2), failed: terminated(1) },
    },
    {
      restartPolicy: 'Always',
      expectedState: { succeed: waiting, failed: waiting },
      expectedLastTerminationState: { succeed: terminated(0), failed: terminated(1) },
      // An init container that exited 0 is not restarted even under Always.
      expectedInitState: { succeed: terminated(0), failed: waiting },
      expectedInitLastTerminationState: { succeed: terminated(2), failed: terminated(1) },
    },
  ];

  it.each(cases.map((c, i) => [i, c.restartPolicy, c] as const))(
    'case %i (restartPolicy %s)',
    (c, _policy, test) => {
      const base = podWithUIDNameNs('12345678', 'foo', 'new');
      const gen = (spec: V1Pod['spec']) =>
        generateAPIPodStatus({
          pod: { ...base, spec },
          runtime,
          syncErrors,
          now: NOW,
          hostIPs: HOST_IPS,
          runtimeName: RUNTIME,
        }).status;
      // normal containers
      verifyContainerStatuses(
        gen({ restartPolicy: test.restartPolicy, containers }).containerStatuses,
        test.expectedState,
        test.expectedLastTerminationState,
        `case ${c}`,
      );
      // init containers
      verifyContainerStatuses(
        gen({ restartPolicy: test.restartPolicy, initContainers: containers, containers: [] })
          .initContainerStatuses,
        test.expectedInitState ?? test.expectedState,
        test.expectedInitLastTerminationState ?? test.expectedLastTerminationState,
        `case ${c}`,
      );
    },
  );
});

describe('Test_generateAPIPodStatus (kubelet_pods_test.go @ 001a80e9)', () => {
  const desiredState: NonNullable<V1Pod['spec']> = {
    nodeName: 'machine',
    containers: [{ name: 'containerA' }, { name: 'containerB' }],
    restartPolicy: 'Always',
  };
  const sandboxReady = [readySandbox({ id: 'sb1', attempt: 0, createdAt: NOW - 60_000 })];
  const sandboxReadyStatus = () => podStatusOf([], sandboxReady);
  const ready = (cs: V1ContainerStatus): V1ContainerStatus => ({ ...cs, ready: true });
  const withID = (cs: V1ContainerStatus, id: string): V1ContainerStatus => ({
    ...cs,
    containerID: id,
  });
  const runningStateWithStartedAt = (name: string, startedAtMs: number): V1ContainerStatus => ({
    ...runningState(name),
    state: { running: { startedAt: new Date(startedAtMs) } },
  });
  const now = new Date(Math.floor(NOW / 1000) * 1000 - 30_000);
  const disruption: V1PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    lastTransitionTime: now,
  };
  const cond = (type: string, status: string, reason?: string): V1PodCondition => ({
    type,
    status,
    ...(reason ? { reason } : {}),
  });
  const allTrue = [
    cond('Initialized', 'True'),
    cond('Ready', 'True'),
    cond('ContainersReady', 'True'),
    cond('PodScheduled', 'True'),
  ];
  const completed = [
    cond('Initialized', 'True', 'PodCompleted'),
    cond('Ready', 'False', 'PodCompleted'),
    cond('ContainersReady', 'False', 'PodCompleted'),
    cond('PodScheduled', 'True'),
  ];
  const hostIPs = { hostIP: '127.0.0.1', hostIPs: [{ ip: '127.0.0.1' }, { ip: '::1' }] };
  /** The sandbox's IP (see the header: upstream's fake leaves PodStatus.IPs empty). */
  const sandboxIPs = { podIP: '10.0.0.10', podIPs: [{ ip: '10.0.0.10' }] };
  const readyToStartTrue = cond('PodReadyToStartContainers', 'True');
  const readyToStartNoSandbox: V1PodCondition = {
    type: 'PodReadyToStartContainers',
    status: 'False',
    reason: 'PodSandboxNotReady',
    message: 'no pod sandbox exists',
  };

  interface Case {
    name: string;
    pod: V1Pod;
    currentStatus: RuntimePodStatus;
    previousStatus: V1PodStatus;
    isPodTerminal?: boolean;
    expected: V1PodStatus;
    expectedPodDisruptionCondition?: V1PodCondition;
    expectedPodReadyToStartContainersCondition: V1PodCondition;
  }
  const tests: Case[] = [
    {
      name: 'pod disruption condition is copied over and the phase is set to failed when deleted',
      pod: {
        metadata: { name: 'my-pod', deletionTimestamp: now },
        spec: desiredState,
        status: {
          containerStatuses: [runningState('containerA'), runningState('containerB')],
          conditions: [disruption],
        },
      },
      currentStatus: sandboxReadyStatus(),
      previousStatus: {
        containerStatuses: [runningState('containerA'), runningState('containerB')],
        conditions: [disruption],
      },
      isPodTerminal: true,
      expected: {
        phase: 'Failed',
        ...hostIPs,
        ...sandboxIPs,
        qosClass: 'BestEffort',
        conditions: [
          cond('Initialized', 'True'),
          cond('Ready', 'False', 'PodFailed'),
          cond('ContainersReady', 'False', 'PodFailed'),
          cond('PodScheduled', 'True'),
        ],
        containerStatuses: [
          ready(waitingWithLastTerminationUnknown('containerA', 0)),
          ready(waitingWithLastTerminationUnknown('containerB', 0)),
        ],
      },
      expectedPodDisruptionCondition: disruption,
      expectedPodReadyToStartContainersCondition: readyToStartTrue,
    },
    {
      name: 'current status ready, with previous statuses and deletion',
      pod: {
        metadata: { name: 'my-pod', deletionTimestamp: now },
        spec: desiredState,
        status: { containerStatuses: [runningState('containerA'), runningState('containerB')] },
      },
      currentStatus: sandboxReadyStatus(),
      previousStatus: {
        containerStatuses: [runningState('containerA'), runningState('containerB')],
      },
      expected: {
        phase: 'Running',
        ...hostIPs,
        ...sandboxIPs,
        qosClass: 'BestEffort',
        conditions: allTrue,
        containerStatuses: [
          ready(waitingWithLastTerminationUnknown('containerA', 0)),
          ready(waitingWithLastTerminationUnknown('containerB', 0)),
        ],
      },
      expectedPodReadyToStartContainersCondition: readyToStartTrue,
    },
    {
      name: 'current status ready, with previous statuses and no deletion',
      pod: {
        spec: desiredState,
        status: { containerStatuses: [runningState('containerA'), runningState('containerB')] },
      },
      currentStatus: sandboxReadyStatus(),
      previousStatus: {
        containerStatuses: [runningState('containerA'), runningState('containerB')],
      },
      expected: {
        phase: 'Running',
        ...hostIPs,
        ...sandboxIPs,
        qosClass: 'BestEffort',
        conditions: allTrue,
        containerStatuses: [
          ready(waitingWithLastTerminationUnknown('containerA', 1)),
          ready(waitingWithLastTerminationUnknown('containerB', 1)),
        ],
      },
      expectedPodReadyToStartContainersCondition: readyToStartTrue,
    },
    {
      name: 'terminal phase cannot be changed (apiserver previous is succeeded)',
      pod: {
        spec: desiredState,
        status: {
          phase: 'Succeeded',
          containerStatuses: [runningState('containerA'), runningState('containerB')],
        },
      },
      currentStatus: podStatusOf([]),
      previousStatus: {
        containerStatuses: [runningState('containerA'), runningState('containerB')],
      },
      expected: {
        phase: 'Succeeded',
        ...hostIPs,
        qosClass: 'BestEffort',
        conditions: completed,
        containerStatuses: [
          ready(waitingWithLastTerminationUnknown('containerA', 1)),
          ready(waitingWithLastTerminationUnknown('containerB', 1)),
        ],
      },
      expectedPodReadyToStartContainersCondition: readyToStartNoSandbox,
    },
    {
      name: 'terminal phase from previous status must remain terminal, restartAlways',
      pod: {
        spec: desiredState,
        status: {
          phase: 'Running',
          containerStatuses: [runningState('containerA'), runningState('containerB')],
        },
      },
      currentStatus: podStatusOf([]),
      previousStatus: {
        phase: 'Succeeded',
        containerStatuses: [runningState('containerA'), runningState('containerB')],
        // Reason and message should be preserved
        reason: 'Test',
        message: 'test',
      },
      expected: {
        phase: 'Succeeded',
        ...hostIPs,
        qosClass: 'BestEffort',
        conditions: completed,
        containerStatuses: [
          ready(waitingWithLastTerminationUnknown('containerA', 1)),
          ready(waitingWithLastTerminationUnknown('containerB', 1)),
        ],
        reason: 'Test',
        message: 'test',
      },
      expectedPodReadyToStartContainersCondition: readyToStartNoSandbox,
    },
    {
      name: 'terminal phase from previous status must remain terminal, restartNever',
      pod: {
        spec: {
          nodeName: 'machine',
          containers: [{ name: 'containerA' }, { name: 'containerB' }],
          restartPolicy: 'Never',
        },
        status: {
          phase: 'Running',
          containerStatuses: [runningState('containerA'), runningState('containerB')],
        },
      },
      currentStatus: podStatusOf([]),
      previousStatus: {
        phase: 'Succeeded',
        containerStatuses: [succeededState('containerA'), succeededState('containerB')],
        // Reason and message should be preserved
        reason: 'Test',
        message: 'test',
      },
      expected: {
        phase: 'Succeeded',
        ...hostIPs,
        qosClass: 'BestEffort',
        conditions: completed,
        containerStatuses: [
          ready(succeededState('containerA')),
          ready(succeededState('containerB')),
        ],
        reason: 'Test',
        message: 'test',
      },
      expectedPodReadyToStartContainersCondition: readyToStartNoSandbox,
    },
    {
      name: 'running can revert to pending',
      pod: {
        spec: desiredState,
        status: {
          phase: 'Running',
          containerStatuses: [runningState('containerA'), runningState('containerB')],
        },
      },
      currentStatus: sandboxReadyStatus(),
      previousStatus: {
        containerStatuses: [waitingState('containerA'), waitingState('containerB')],
      },
      expected: {
        phase: 'Pending',
        ...hostIPs,
        ...sandboxIPs,
        qosClass: 'BestEffort',
        conditions: allTrue,
        containerStatuses: [
          ready(waitingStateWithReason('containerA', 'ContainerCreating')),
          ready(waitingStateWithReason('containerB', 'ContainerCreating')),
        ],
      },
      expectedPodReadyToStartContainersCondition: readyToStartTrue,
    },
    {
      name: "reason and message are preserved when phase doesn't change",
      pod: {
        spec: desiredState,
        status: {
          phase: 'Running',
          containerStatuses: [waitingState('containerA'), waitingState('containerB')],
        },
      },
      currentStatus: podStatusOf(
        [{ id: 'foo', name: 'containerB', startedAtMs: 1000, state: 'running' }],
        sandboxReady,
      ),
      previousStatus: {
        phase: 'Pending',
        reason: 'Test',
        message: 'test',
        containerStatuses: [waitingState('containerA'), runningState('containerB')],
      },
      expected: {
        phase: 'Pending',
        reason: 'Test',
        message: 'test',
        ...hostIPs,
        ...sandboxIPs,
        qosClass: 'BestEffort',
        conditions: allTrue,
        containerStatuses: [
          ready(waitingStateWithReason('containerA', 'ContainerCreating')),
          ready(withID(runningStateWithStartedAt('containerB', 1000), `${RUNTIME}://foo`)),
        ],
      },
      expectedPodReadyToStartContainersCondition: readyToStartTrue,
    },
    {
      name: 'reason and message are cleared when phase changes',
      pod: {
        spec: desiredState,
        status: {
          phase: 'Pending',
          containerStatuses: [waitingState('containerA'), waitingState('containerB')],
        },
      },
      currentStatus: podStatusOf(
        [
          { id: 'c1', name: 'containerA', startedAtMs: 1000, state: 'running' },
          { id: 'c2', name: 'containerB', startedAtMs: 2000, state: 'running' },
        ],
        sandboxReady,
      ),
      previousStatus: {
        phase: 'Pending',
        reason: 'Test',
        message: 'test',
        containerStatuses: [runningState('containerA'), runningState('containerB')],
      },
      expected: {
        phase: 'Running',
        ...hostIPs,
        ...sandboxIPs,
        qosClass: 'BestEffort',
        conditions: allTrue,
        containerStatuses: [
          ready(withID(runningStateWithStartedAt('containerA', 1000), `${RUNTIME}://c1`)),
          ready(withID(runningStateWithStartedAt('containerB', 2000), `${RUNTIME}://c2`)),
        ],
      },
      expectedPodReadyToStartContainersCondition: readyToStartTrue,
    },
  ];

  const KUBELET_OWNED = new Set([
    'PodReadyToStartContainers',
    'Initialized',
    'Ready',
    'ContainersReady',
    'PodScheduled',
  ]);
  /** Drops what the status manager, not generateAPIPodStatus, writes (see the header). */
  const generated = (s: V1PodStatus): V1PodStatus => {
    const out = { ...s };
    delete out.startTime;
    out.conditions = (s.conditions ?? []).map((c) => {
      if (!KUBELET_OWNED.has(c.type)) return c;
      const copy = { ...c };
      delete copy.lastTransitionTime;
      return copy;
    });
    return out;
  };

  for (const test of tests) {
    for (const enablePodReadyToStartContainersCondition of [false, true]) {
      it(`${test.name} (PodReadyToStartContainersCondition ${String(enablePodReadyToStartContainersCondition)})`, () => {
        const expected = structuredClone(test.expected);
        if (enablePodReadyToStartContainersCondition)
          expected.conditions = [
            test.expectedPodReadyToStartContainersCondition,
            ...(expected.conditions ?? []),
          ];
        if (test.expectedPodDisruptionCondition)
          expected.conditions = [
            test.expectedPodDisruptionCondition,
            ...(expected.conditions ?? []),
          ];
        const actual = generateAPIPodStatus({
          pod: structuredClone(test.pod),
          runtime: test.currentStatus,
          oldStatus: structuredClone(test.previousStatus),
          podIsTerminal: test.isPodTerminal === true,
          now: NOW,
          hostIPs: HOST_IPS,
          runtimeName: RUNTIME,
          prober: fakeProber,
          gates: { PodReadyToStartContainersCondition: enablePodReadyToStartContainersCondition },
        }).status;
        expect(generated(actual)).toEqual(expected);
      });
    }
  }
});
