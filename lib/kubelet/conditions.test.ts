/**
 * Ported from kubernetes/kubernetes pkg/kubelet/status/generate_test.go (master, newest stored
 * text, 2026: the version with TestGeneratePodReadyToStartContainersCondition messages and
 * TestGenerateAllContainersRestartingCondition): TestGenerateContainersReadyCondition,
 * TestGeneratePodReadyCondition, TestGeneratePodInitializedCondition and
 * TestGeneratePodReadyToStartContainersCondition, case by case. Upstream's first three tables are
 * unnamed; cases here are named "case <index>" as upstream's failure message reports them.
 * Not ported: TestGenerateAllContainersRestartingCondition (that condition is not generated) and
 * TestGenerateInsecureIDCondition (needs container user info the CRI subset does not carry).
 */
import type { V1ContainerStatus, V1Pod, V1PodCondition, V1PodSpec } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  ContainersNotInitialized,
  ContainersNotReady,
  PodCompleted,
  ReadinessGatesNotReady,
  UnknownContainerStatuses,
  calculatePodConditionObservedGeneration,
  containersReadyDecision,
  generateContainersReadyCondition,
  generatePodInitializedCondition,
  generatePodReadyCondition,
  generatePodReadyToStartContainersCondition,
  podReadyToStartContainersDecision,
} from './conditions';
import type { RuntimeSandbox } from './runtime';
import {
  PodSandboxNotReadyMsgMultipleSandboxes,
  PodSandboxNotReadyMsgNetworkNamespaceMode,
  PodSandboxNotReadyMsgNoIPAddress,
  PodSandboxNotReadyMsgNoPodSandbox,
  PodSandboxNotReadyMsgSandboxNotReady,
  PodSandboxNotReadyReason,
} from './sandbox';
import {
  getNotReadyStatus,
  getNotStartedStatus,
  getPodCondition,
  getReadyStatus,
  getStartedStatus,
  sidecar,
} from './testing/fixtures';

describe('TestGenerateContainersReadyCondition', () => {
  const rows: {
    spec: V1PodSpec;
    statuses: V1ContainerStatus[] | undefined;
    phase: string;
    want: V1PodCondition;
  }[] = [
    {
      spec: { containers: [] },
      statuses: undefined,
      phase: 'Running',
      want: getPodCondition('ContainersReady', 'False', UnknownContainerStatuses, ''),
    },
    {
      spec: { containers: [] },
      statuses: [],
      phase: 'Running',
      want: getPodCondition('ContainersReady', 'True', '', ''),
    },
    {
      spec: { containers: [{ name: '1234' }] },
      statuses: [],
      phase: 'Running',
      want: getPodCondition(
        'ContainersReady',
        'False',
        ContainersNotReady,
        'containers with unknown status: [1234]',
      ),
    },
    {
      spec: { containers: [{ name: '1234' }, { name: '5678' }] },
      statuses: [getReadyStatus('1234'), getReadyStatus('5678')],
      phase: 'Running',
      want: getPodCondition('ContainersReady', 'True', '', ''),
    },
    {
      spec: { containers: [{ name: '1234' }, { name: '5678' }] },
      statuses: [getReadyStatus('1234')],
      phase: 'Running',
      want: getPodCondition(
        'ContainersReady',
        'False',
        ContainersNotReady,
        'containers with unknown status: [5678]',
      ),
    },
    {
      spec: { containers: [{ name: '1234' }, { name: '5678' }] },
      statuses: [getReadyStatus('1234'), getNotReadyStatus('5678')],
      phase: 'Running',
      want: getPodCondition(
        'ContainersReady',
        'False',
        ContainersNotReady,
        'containers with unready status: [5678]',
      ),
    },
    {
      spec: { containers: [{ name: '1234' }] },
      statuses: [getNotReadyStatus('1234')],
      phase: 'Succeeded',
      want: getPodCondition('ContainersReady', 'False', PodCompleted, ''),
    },
    {
      spec: {
        initContainers: [sidecar('restartable-init-1')],
        containers: [{ name: 'regular-1' }],
      },
      statuses: [getReadyStatus('regular-1')],
      phase: 'Running',
      want: getPodCondition(
        'ContainersReady',
        'False',
        ContainersNotReady,
        'containers with unknown status: [restartable-init-1]',
      ),
    },
    {
      spec: {
        initContainers: [sidecar('restartable-init-1'), sidecar('restartable-init-2')],
        containers: [{ name: 'regular-1' }],
      },
      statuses: [
        getReadyStatus('restartable-init-1'),
        getReadyStatus('restartable-init-2'),
        getReadyStatus('regular-1'),
      ],
      phase: 'Running',
      want: getPodCondition('ContainersReady', 'True', '', ''),
    },
    {
      spec: {
        initContainers: [sidecar('restartable-init-1'), sidecar('restartable-init-2')],
        containers: [{ name: 'regular-1' }],
      },
      statuses: [getReadyStatus('restartable-init-1'), getReadyStatus('regular-1')],
      phase: 'Running',
      want: getPodCondition(
        'ContainersReady',
        'False',
        ContainersNotReady,
        'containers with unknown status: [restartable-init-2]',
      ),
    },
    {
      spec: {
        initContainers: [sidecar('restartable-init-1'), sidecar('restartable-init-2')],
        containers: [{ name: 'regular-1' }],
      },
      statuses: [
        getReadyStatus('restartable-init-1'),
        getNotReadyStatus('restartable-init-2'),
        getReadyStatus('regular-1'),
      ],
      phase: 'Running',
      want: getPodCondition(
        'ContainersReady',
        'False',
        ContainersNotReady,
        'containers with unready status: [restartable-init-2]',
      ),
    },
  ];
  rows.forEach((row, i) => {
    it(`case ${i}`, () => {
      const pod: V1Pod = { spec: row.spec };
      expect(generateContainersReadyCondition(pod, {}, row.statuses, row.phase)).toEqual(row.want);
    });
  });
});

describe('TestGeneratePodReadyCondition', () => {
  const gate = (...types: string[]) => types.map((conditionType) => ({ conditionType }));
  const rows: {
    spec: V1PodSpec;
    conditions: V1PodCondition[] | undefined;
    statuses: V1ContainerStatus[] | undefined;
    phase: string;
    want: V1PodCondition;
  }[] = [
    {
      spec: { containers: [] },
      conditions: undefined,
      statuses: undefined,
      phase: 'Running',
      want: getPodCondition('Ready', 'False', UnknownContainerStatuses, ''),
    },
    {
      spec: { containers: [] },
      conditions: undefined,
      statuses: [],
      phase: 'Running',
      want: getPodCondition('Ready', 'True', '', ''),
    },
    {
      spec: { containers: [{ name: '1234' }] },
      conditions: undefined,
      statuses: [],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ContainersNotReady,
        'containers with unknown status: [1234]',
      ),
    },
    {
      spec: { containers: [{ name: '1234' }, { name: '5678' }] },
      conditions: undefined,
      statuses: [getReadyStatus('1234'), getReadyStatus('5678')],
      phase: 'Running',
      want: getPodCondition('Ready', 'True', '', ''),
    },
    {
      spec: { containers: [{ name: '1234' }, { name: '5678' }] },
      conditions: undefined,
      statuses: [getReadyStatus('1234')],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ContainersNotReady,
        'containers with unknown status: [5678]',
      ),
    },
    {
      spec: { containers: [{ name: '1234' }, { name: '5678' }] },
      conditions: undefined,
      statuses: [getReadyStatus('1234'), getNotReadyStatus('5678')],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ContainersNotReady,
        'containers with unready status: [5678]',
      ),
    },
    {
      spec: { containers: [{ name: '1234' }] },
      conditions: undefined,
      statuses: [getNotReadyStatus('1234')],
      phase: 'Succeeded',
      want: getPodCondition('Ready', 'False', PodCompleted, ''),
    },
    {
      spec: { containers: [], readinessGates: gate('gate1') },
      conditions: undefined,
      statuses: [],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ReadinessGatesNotReady,
        `corresponding condition of pod readiness gate "gate1" does not exist.`,
      ),
    },
    {
      spec: { containers: [], readinessGates: gate('gate1') },
      conditions: [getPodCondition('gate1', 'False', '', '')],
      statuses: [],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ReadinessGatesNotReady,
        `the status of pod readiness gate "gate1" is not "True", but False`,
      ),
    },
    {
      spec: { containers: [], readinessGates: gate('gate1') },
      conditions: [getPodCondition('gate1', 'True', '', '')],
      statuses: [],
      phase: 'Running',
      want: getPodCondition('Ready', 'True', '', ''),
    },
    {
      spec: { containers: [], readinessGates: gate('gate1', 'gate2') },
      conditions: [getPodCondition('gate1', 'True', '', '')],
      statuses: [],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ReadinessGatesNotReady,
        `corresponding condition of pod readiness gate "gate2" does not exist.`,
      ),
    },
    {
      spec: { containers: [], readinessGates: gate('gate1', 'gate2') },
      conditions: [
        getPodCondition('gate1', 'True', '', ''),
        getPodCondition('gate2', 'False', '', ''),
      ],
      statuses: [],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ReadinessGatesNotReady,
        `the status of pod readiness gate "gate2" is not "True", but False`,
      ),
    },
    {
      spec: { containers: [], readinessGates: gate('gate1', 'gate2') },
      conditions: [
        getPodCondition('gate1', 'True', '', ''),
        getPodCondition('gate2', 'True', '', ''),
      ],
      statuses: [],
      phase: 'Running',
      want: getPodCondition('Ready', 'True', '', ''),
    },
    {
      spec: { containers: [{ name: '1234' }], readinessGates: gate('gate1') },
      conditions: [getPodCondition('gate1', 'True', '', '')],
      statuses: [getNotReadyStatus('1234')],
      phase: 'Running',
      want: getPodCondition(
        'Ready',
        'False',
        ContainersNotReady,
        'containers with unready status: [1234]',
      ),
    },
  ];
  rows.forEach((row, i) => {
    it(`case ${i}`, () => {
      const pod: V1Pod = { spec: row.spec };
      expect(generatePodReadyCondition(pod, {}, row.conditions, row.statuses, row.phase)).toEqual(
        row.want,
      );
    });
  });
});

describe('TestGeneratePodInitializedCondition', () => {
  const noInitContainer: V1PodSpec = { containers: [] };
  const oneInitContainer: V1PodSpec = {
    initContainers: [{ name: '1234' }],
    containers: [{ name: 'regular' }],
  };
  const twoInitContainer: V1PodSpec = {
    initContainers: [{ name: '1234' }, { name: '5678' }],
    containers: [{ name: 'regular' }],
  };
  const oneRestartableInitContainer: V1PodSpec = {
    initContainers: [sidecar('1234')],
    containers: [{ name: 'regular' }],
  };
  const status = (name: string, state: V1ContainerStatus['state']): V1ContainerStatus => ({
    name,
    image: '',
    imageID: '',
    ready: false,
    restartCount: 0,
    state,
  });
  const rows: {
    spec: V1PodSpec;
    statuses: V1ContainerStatus[] | undefined;
    phase: string;
    status: string;
    reason: string;
  }[] = [
    {
      spec: twoInitContainer,
      statuses: undefined,
      phase: 'Running',
      status: 'False',
      reason: UnknownContainerStatuses,
    },
    { spec: noInitContainer, statuses: [], phase: 'Running', status: 'True', reason: '' },
    {
      spec: oneInitContainer,
      statuses: [],
      phase: 'Running',
      status: 'False',
      reason: ContainersNotInitialized,
    },
    {
      spec: twoInitContainer,
      statuses: [getReadyStatus('1234'), getReadyStatus('5678')],
      phase: 'Running',
      status: 'True',
      reason: '',
    },
    {
      spec: twoInitContainer,
      statuses: [getReadyStatus('1234')],
      phase: 'Running',
      status: 'False',
      reason: ContainersNotInitialized,
    },
    {
      spec: twoInitContainer,
      statuses: [getReadyStatus('1234'), getNotReadyStatus('5678')],
      phase: 'Running',
      status: 'False',
      reason: ContainersNotInitialized,
    },
    {
      spec: oneInitContainer,
      statuses: [getReadyStatus('1234')],
      phase: 'Succeeded',
      status: 'True',
      reason: PodCompleted,
    },
    {
      spec: oneRestartableInitContainer,
      statuses: [getNotStartedStatus('1234')],
      phase: 'Pending',
      status: 'False',
      reason: ContainersNotInitialized,
    },
    {
      spec: oneRestartableInitContainer,
      statuses: [getStartedStatus('1234')],
      phase: 'Running',
      status: 'True',
      reason: '',
    },
    {
      spec: oneRestartableInitContainer,
      statuses: [getNotStartedStatus('1234'), status('regular', { running: {} })],
      phase: 'Running',
      status: 'True',
      reason: '',
    },
    {
      spec: oneInitContainer,
      statuses: [
        status('1234', { waiting: {} }),
        status('regular', { terminated: { exitCode: 0 } }),
      ],
      phase: 'Running',
      status: 'True',
      reason: '',
    },
  ];
  rows.forEach((row, i) => {
    it(`case ${i}`, () => {
      // Upstream runs this table with ContainerRestartRules and RestartAllContainersOnContainerExits on.
      const c = generatePodInitializedCondition({ spec: row.spec }, {}, row.statuses, row.phase, {
        ContainerRestartRules: true,
        RestartAllContainersOnContainerExits: true,
      });
      expect(c.type).toBe('Initialized');
      expect(c.status).toBe(row.status);
      expect(c.reason ?? '').toBe(row.reason);
    });
  });
});

const sandbox = (over: Partial<RuntimeSandbox>): RuntimeSandbox => ({
  id: 'sb',
  name: 'p',
  namespace: 'ns',
  uid: 'u',
  attempt: 0,
  state: 'ready',
  createdAt: 0,
  labels: {},
  annotations: {},
  inspected: true,
  ...over,
});

describe('TestGeneratePodReadyToStartContainersCondition', () => {
  const rows: Record<
    string,
    { pod: V1Pod; sandboxes: RuntimeSandbox[]; status: string; reason: string; message: string }
  > = {
    'Empty pod status': {
      pod: {},
      sandboxes: [],
      status: 'False',
      reason: PodSandboxNotReadyReason,
      message: PodSandboxNotReadyMsgNoPodSandbox,
    },
    'Pod sandbox status not ready': {
      pod: {},
      sandboxes: [sandbox({ attempt: 0, state: 'notready' })],
      status: 'False',
      reason: PodSandboxNotReadyReason,
      message: PodSandboxNotReadyMsgSandboxNotReady,
    },
    'Pod with multiple ready sandboxes': {
      pod: {},
      sandboxes: [
        sandbox({ attempt: 1, network: { ip: '10.0.0.10', additionalIps: [] } }),
        sandbox({ attempt: 0, network: { ip: '10.0.0.11', additionalIps: [] } }),
      ],
      status: 'False',
      reason: PodSandboxNotReadyReason,
      message: PodSandboxNotReadyMsgMultipleSandboxes,
    },
    'Pod sandbox status ready but network namespace mode changed': {
      pod: { spec: { containers: [], hostNetwork: true } },
      sandboxes: [sandbox({ network: { ip: '10.0.0.10', additionalIps: [] }, networkMode: 'POD' })],
      status: 'False',
      reason: PodSandboxNotReadyReason,
      message: PodSandboxNotReadyMsgNetworkNamespaceMode,
    },
    'Pod sandbox status ready but no IP configured': {
      pod: {},
      sandboxes: [sandbox({ network: { ip: '', additionalIps: [] } })],
      status: 'False',
      reason: PodSandboxNotReadyReason,
      message: PodSandboxNotReadyMsgNoIPAddress,
    },
    'Pod sandbox status ready and IP configured': {
      pod: {},
      sandboxes: [sandbox({ network: { ip: '10.0.0.10', additionalIps: [] } })],
      status: 'True',
      reason: '',
      message: '',
    },
  };
  for (const [desc, row] of Object.entries(rows)) {
    it(desc, () => {
      const c = generatePodReadyToStartContainersCondition(row.pod, {}, row.sandboxes);
      expect(c.type).toBe('PodReadyToStartContainers');
      expect(c.status).toBe(row.status);
      expect(c.reason ?? '').toBe(row.reason);
      expect(c.message ?? '').toBe(row.message);
    });
  }
});

// Podscope's own cases.
describe('conditions (Podscope cases)', () => {
  it('observedGeneration is the pod generation (PodObservedGenerationTracking is GA)', () => {
    const pod: V1Pod = { metadata: { generation: 3 }, spec: { containers: [] } };
    expect(generateContainersReadyCondition(pod, {}, [], 'Running').observedGeneration).toBe(3);
    expect(calculatePodConditionObservedGeneration(undefined, 3, 'Ready')).toBe(0);
  });
  it('with tracking off, observedGeneration is kept only where the old condition had one', () => {
    const off = { PodObservedGenerationTracking: false };
    expect(calculatePodConditionObservedGeneration({}, 5, 'Ready', off)).toBe(0);
    expect(
      calculatePodConditionObservedGeneration(
        { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2 }] },
        5,
        'Ready',
        off,
      ),
    ).toBe(5);
  });
  it('ContainersReady is False PodFailed for a Failed pod even when every container is ready', () => {
    const pod: V1Pod = { spec: { containers: [{ name: 'a' }] } };
    const d = containersReadyDecision(pod, {}, [getReadyStatus('a')], 'Failed');
    expect(d.condition).toMatchObject({ status: 'False', reason: 'PodFailed' });
    expect(d.why.id).toBe('condition.containersReady.podFailed');
  });
  it('regular init containers do not count for ContainersReady', () => {
    const pod: V1Pod = { spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] } };
    expect(generateContainersReadyCondition(pod, {}, [getReadyStatus('a')], 'Running').status).toBe(
      'True',
    );
  });
  it('Initialized stays True with RestartAllContainers when the old status says True', () => {
    const pod: V1Pod = { spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] } };
    const old = { conditions: [{ type: 'Initialized', status: 'True' }] };
    const gates = { RestartAllContainersOnContainerExits: true };
    expect(
      generatePodInitializedCondition(pod, old, [getNotReadyStatus('i')], 'Running', gates).status,
    ).toBe('True');
    expect(
      generatePodInitializedCondition(pod, old, [getNotReadyStatus('i')], 'Running').status,
    ).toBe('False');
  });
  it('Initialized messages list unknown and incomplete init containers', () => {
    const pod: V1Pod = {
      spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'a' }] },
    };
    expect(
      generatePodInitializedCondition(pod, {}, [getNotReadyStatus('i1')], 'Pending').message,
    ).toBe('containers with unknown status: [i2], containers with incomplete status: [i1]');
  });
  it('a hostNetwork pod does not need a sandbox IP', () => {
    const pod: V1Pod = { spec: { containers: [], hostNetwork: true } };
    const d = podReadyToStartContainersDecision(pod, {}, [
      sandbox({ networkMode: 'NODE', network: { ip: '', additionalIps: [] } }),
    ]);
    expect(d.condition.status).toBe('True');
  });
  it('an uninspected sandbox (no network yet) is taken as ready, as upstream skips the IP check when Network is nil', () => {
    expect(
      generatePodReadyToStartContainersCondition({}, {}, [sandbox({ inspected: false })]).status,
    ).toBe('True');
  });
  it('malformed readiness gates and conditions do not throw', () => {
    const pod = {
      spec: { containers: [], readinessGates: [null, { conditionType: 7 }] },
    } as unknown as V1Pod;
    expect(() =>
      generatePodReadyCondition(pod, {}, [null] as unknown as V1PodCondition[], [], 'Running'),
    ).not.toThrow();
  });
});
