/**
 * Per-version tables: the gate defaults of each kubelet minor 1.28–1.36 and every rule Podscope
 * applies that differs between them (phase, conditions, back-off).
 *
 * Gate stages: kubernetes/kubernetes pkg/features/kube_features.go,
 * defaultVersionedKubernetesFeatureGates — the 1.33 table @ b0b89d3bd251db932ed5a7bef66039fb88acab64
 * and the newest stored text (1.36 development: VolumeAttributesClass locks at 1.36). Back-off:
 * pkg/kubelet/kubelet.go newCrashLoopBackOff, NewMainKubelet (newest stored text). Phase:
 * pkg/kubelet/kubelet_pods.go getPhase @ 001a80e975bb880d0fe60b304d30950fe661f278 (the
 * ContainerRestartRules branches). Conditions: pkg/kubelet/kubelet_pods.go generateAPIPodStatus
 * (PodReadyToStartContainers behind its gate) and pkg/api/v1/pod/util.go
 * CalculatePodStatusObservedGeneration / CalculatePodConditionObservedGeneration.
 */
import type { V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { containerBackoff } from './backoff';
import type { FeatureGateName } from './gates';
import { DEFAULT_FEATURE_GATES } from './gates';
import { getPhase } from './phase';
import { generateAPIPodStatus } from './status';
import { failedState, record, runtimeOf, succeededState } from './testing/fixtures';
import {
  crashLoopBackOffFor,
  explainKubeletVersion,
  gatesForMinor,
  kubeletFeatures,
  NEWEST_KUBELET_MINOR,
  parseKubeletVersion,
  parseKubeletVersionSettings,
  resolveKubeletVersion,
  configuredKubeletVersion,
} from './version';

const MINORS = [28, 29, 30, 31, 32, 33, 34, 35, 36] as const;

describe('parseKubeletVersion', () => {
  const rows: [string, { major: number; minor: number } | undefined][] = [
    ['v1.33.2', { major: 1, minor: 33 }],
    ['1.33', { major: 1, minor: 33 }],
    ['v1.30.0-eks-4096722', { major: 1, minor: 30 }],
    ['v1.29.4+k3s1', { major: 1, minor: 29 }],
    [' v1.26.1 ', { major: 1, minor: 26 }],
    ['', undefined],
    ['latest', undefined],
    ['1', undefined],
    ['v1.x', undefined],
  ];
  for (const [raw, want] of rows)
    it(`"${raw}"`, () => expect(parseKubeletVersion(raw)).toEqual(want));
});

describe('resolveKubeletVersion: the API server, else the operator, else the newest minor', () => {
  it('the API server wins over the flag', () => {
    expect(resolveKubeletVersion({ apiServer: 'v1.29.3', flag: '1.31' })).toEqual({
      value: '1.29',
      source: 'api-server',
      reported: 'v1.29.3',
    });
  });
  it('the flag when the API server says nothing readable', () => {
    expect(resolveKubeletVersion({ apiServer: '', flag: '1.31' })).toEqual({
      value: '1.31',
      source: 'flag',
    });
  });
  it('the default: the newest supported minor', () => {
    expect(resolveKubeletVersion({})).toEqual({
      value: `1.${NEWEST_KUBELET_MINOR}`,
      source: 'default',
    });
  });
  it('older than 1.28 applies 1.28, newer than 1.36 applies 1.36, and keeps what was reported', () => {
    expect(resolveKubeletVersion({ apiServer: 'v1.26.1' })).toEqual({
      value: '1.28',
      source: 'api-server',
      reported: 'v1.26.1',
    });
    expect(resolveKubeletVersion({ flag: '1.40' })).toEqual({
      value: '1.36',
      source: 'flag',
      reported: '1.40',
    });
  });
});

describe('PODSCOPE_KUBELET_VERSION / --kubelet-version', () => {
  it('VERSION for every node, NODE=VERSION for one', () => {
    const s = parseKubeletVersionSettings('1.30, node-a=v1.28.9');
    expect(s).toEqual({ all: '1.30', byNode: { 'node-a': 'v1.28.9' } });
    expect(configuredKubeletVersion(s, 'node-a')).toBe('v1.28.9');
    expect(configuredKubeletVersion(s, 'node-b')).toBe('1.30');
    expect(configuredKubeletVersion(parseKubeletVersionSettings([]), 'x')).toBeUndefined();
  });
  it('repeated flags add up', () => {
    expect(parseKubeletVersionSettings(['a=1.29', 'b=1.33'], '--kubelet-version')).toEqual({
      byNode: { a: '1.29', b: '1.33' },
    });
  });
  it('refuses what is not a version, and a node given twice', () => {
    expect(() => parseKubeletVersionSettings('latest')).toThrow(/"latest" is not VERSION/);
    expect(() => parseKubeletVersionSettings('=1.30')).toThrow(/NODE=VERSION/);
    expect(() => parseKubeletVersionSettings('a=1.30,a=1.31')).toThrow(/a is given twice/);
    expect(() => parseKubeletVersionSettings('1.30,1.31')).toThrow(/every node is given twice/);
  });
  it('a node named __proto__ is an entry like any other', () => {
    const s = parseKubeletVersionSettings('__proto__=1.29');
    expect(configuredKubeletVersion(s, '__proto__')).toBe('1.29');
    expect(configuredKubeletVersion(s, 'other')).toBeUndefined();
  });
});

describe('gate defaults per minor (kube_features.go versioned specs)', () => {
  // One column per minor, 1.28 … 1.36.
  const table: Record<FeatureGateName, readonly boolean[]> = {
    //                                     28     29     30     31     32     33     34     35     36
    SidecarContainers: [false, true, true, true, true, true, true, true, true],
    PodReadyToStartContainersCondition: [false, true, true, true, true, true, true, true, true],
    ContainerRestartRules: [false, false, false, false, false, false, false, true, true],
    RestartAllContainersOnContainerExits: [
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ],
    PodObservedGenerationTracking: [false, false, false, false, false, false, true, true, true],
    ChangeContainerStatusOnKubeletRestart: [
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ],
    KubeletCrashLoopBackOffMax: [false, false, false, false, false, false, false, true, true],
    ReduceDefaultCrashLoopBackOffDecay: [
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ],
  };
  MINORS.forEach((minor, i) => {
    it(`1.${minor}`, () => {
      const want = Object.fromEntries(
        Object.entries(table).map(([name, column]) => [name, column[i]]),
      );
      expect(gatesForMinor(minor)).toEqual(want);
    });
  });
  it('the newest minor is DEFAULT_FEATURE_GATES (what the rules assume without a version)', () => {
    expect(gatesForMinor(NEWEST_KUBELET_MINOR)).toEqual(DEFAULT_FEATURE_GATES);
  });
  it('explicit gates win over the minor’s defaults; unknown names are ignored', () => {
    const f = kubeletFeatures(
      { value: '1.28', source: 'flag' },
      { SidecarContainers: true, NoSuchGate: true },
    );
    expect(f.gates.SidecarContainers).toBe(true);
    expect(f.gates.PodReadyToStartContainersCondition).toBe(false);
    expect('NoSuchGate' in f.gates).toBe(false);
  });
});

describe('crash-loop back-off per minor (kubelet.go newCrashLoopBackOff)', () => {
  // [minor, configured crashLoopBackOff.maxContainerRestartPeriod, extra gates, first, max]
  const rows: [number, number, Partial<Record<FeatureGateName, boolean>>, number, number][] = [
    // Before 1.35 KubeletCrashLoopBackOffMax is off (absent before 1.32): the field is ignored.
    [28, 30_000, {}, 10_000, 300_000],
    [31, 30_000, {}, 10_000, 300_000],
    [32, 30_000, {}, 10_000, 300_000],
    [34, 5_000, {}, 10_000, 300_000],
    // 1.32–1.34 with the alpha gate turned on: the field counts.
    [32, 30_000, { KubeletCrashLoopBackOffMax: true }, 10_000, 30_000],
    // 1.35+: beta, on.
    [35, 300_000, {}, 10_000, 300_000],
    [35, 30_000, {}, 10_000, 30_000],
    [36, 5_000, {}, 5_000, 5_000],
    // ReduceDefaultCrashLoopBackOffDecay (alpha since 1.33, off by default) when turned on.
    [33, 300_000, { ReduceDefaultCrashLoopBackOffDecay: true }, 1_000, 60_000],
    [36, 300_000, { ReduceDefaultCrashLoopBackOffDecay: true }, 1_000, 300_000],
    [36, 30_000, { ReduceDefaultCrashLoopBackOffDecay: true }, 1_000, 30_000],
    [
      34,
      30_000,
      { ReduceDefaultCrashLoopBackOffDecay: true, KubeletCrashLoopBackOffMax: false },
      1_000,
      60_000,
    ],
  ];
  for (const [minor, configured, extra, first, max] of rows) {
    it(`1.${minor}, configured ${configured / 1000} s, ${JSON.stringify(extra)}: ${first / 1000} s doubling to ${max / 1000} s`, () => {
      const { gates } = kubeletFeatures({ value: `1.${minor}`, source: 'flag' }, extra);
      expect(crashLoopBackOffFor(gates, configured)).toEqual({
        initialMs: first,
        maxMs: max,
        resetMs: 600_000,
      });
      expect(containerBackoff(configured, 1, gates)).toMatchObject({
        initialMs: first,
        maxMs: max,
        resetMs: 600_000,
      });
    });
  }
  it('the kubelet refuses a maximum outside 1 s–300 s whatever its version', () => {
    expect(() => crashLoopBackOffFor(gatesForMinor(28), 500)).toThrow(RangeError);
  });
});

describe('phase per minor: ContainerRestartRules (beta, on since 1.35)', () => {
  // A container-level restartPolicy on a regular container is honoured only with the gate.
  const spec: V1PodSpec = {
    containers: [{ name: 'a', restartPolicy: 'Never' }],
    restartPolicy: 'Always',
  };
  const neverUnderAlways: [number, string][] = MINORS.map((m) => [
    m,
    m >= 35 ? 'Failed' : 'Running',
  ]);
  for (const [minor, want] of neverUnderAlways)
    it(`1.${minor}: container restartPolicy Never under pod Always, exited 1 → ${want}`, () => {
      const { gates } = kubeletFeatures({ value: `1.${minor}`, source: 'flag' });
      expect(getPhase({ spec }, [failedState('a')], false, false, gates)).toBe(want);
    });

  // Every container exited 0 under Always: with the gate the pod is decided by restartability.
  const always: V1PodSpec = { containers: [{ name: 'a' }, { name: 'b' }], restartPolicy: 'Always' };
  for (const minor of MINORS)
    it(`1.${minor}: restartPolicy Always, every container Completed → Running`, () => {
      const { gates } = kubeletFeatures({ value: `1.${minor}`, source: 'flag' });
      expect(
        getPhase({ spec: always }, [succeededState('a'), succeededState('b')], false, false, gates),
      ).toBe('Running');
    });

  // restartPolicy Never with a failed init container: Failed either way, by a different rule.
  const initNever: V1PodSpec = {
    initContainers: [{ name: 'i' }],
    containers: [{ name: 'a' }],
    restartPolicy: 'Never',
  };
  for (const minor of MINORS)
    it(`1.${minor}: restartPolicy Never, init container failed → Failed`, () => {
      const { gates } = kubeletFeatures({ value: `1.${minor}`, source: 'flag' });
      expect(getPhase({ spec: initNever }, [failedState('i')], false, false, gates)).toBe('Failed');
    });
});

describe('conditions per minor', () => {
  const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const pod: V1Pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'uid1', generation: 3 },
    spec: { containers: [{ name: 'app', image: 'busybox' }], restartPolicy: 'Always' },
  };
  const run = (minor: number, p: V1Pod = pod) =>
    generateAPIPodStatus({
      pod: p,
      runtime: runtimeOf([record({ name: 'app', startedAt: T0 - 5000 })]),
      now: T0,
      gates: kubeletFeatures({ value: `1.${minor}`, source: 'flag' }).gates,
    }).status;

  for (const minor of MINORS) {
    const types =
      minor >= 29
        ? ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']
        : ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
    it(`1.${minor}: ${minor >= 29 ? 'PodReadyToStartContainers first' : 'no PodReadyToStartContainers (alpha, off)'}`, () => {
      expect(run(minor).conditions?.map((c) => c.type)).toEqual(types);
    });
    const tracked = minor >= 34;
    it(`1.${minor}: observedGeneration ${tracked ? 'on the status and conditions' : 'omitted'} (PodObservedGenerationTracking)`, () => {
      const s = run(minor, { ...pod, status: {} });
      expect(s.observedGeneration).toBe(tracked ? 3 : undefined);
      expect(s.conditions?.find((c) => c.type === 'Ready')?.observedGeneration).toBe(
        tracked ? 3 : undefined,
      );
    });
  }
  it('a value already posted is kept with the gate off (CalculatePodStatusObservedGeneration)', () => {
    expect(run(33, { ...pod, status: { observedGeneration: 2 } }).observedGeneration).toBe(3);
  });
  it('1.28: a PodReadyToStartContainers on the API object is not the kubelet’s (IsPodConditionOwnedByKubelet) and stays', () => {
    const s = run(28, {
      ...pod,
      status: { conditions: [{ type: 'PodReadyToStartContainers', status: 'True' }] },
    });
    expect(s.conditions?.filter((c) => c.type === 'PodReadyToStartContainers')).toHaveLength(1);
  });
});

describe('explainKubeletVersion: which version’s rules, and why that one', () => {
  it('the API server’s report', () => {
    expect(
      explainKubeletVersion({ value: '1.29', source: 'api-server', reported: 'v1.29.3' }),
    ).toMatchObject({
      id: 'node.kubelet.apiServer',
      params: { version: '1.29', reported: 'v1.29.3' },
    });
  });
  it('the operator’s', () => {
    expect(explainKubeletVersion({ value: '1.31', source: 'flag' })).toMatchObject({
      id: 'node.kubelet.flag',
      params: { version: '1.31', reported: '1.31' },
    });
  });
  it('the default says it is one', () => {
    expect(explainKubeletVersion(resolveKubeletVersion({}))).toMatchObject({
      id: 'node.kubelet.default',
      params: { version: '1.36' },
    });
  });
  it('outside the supported minors: the nearest, said so', () => {
    expect(explainKubeletVersion(resolveKubeletVersion({ apiServer: 'v1.26.1' }))).toMatchObject({
      id: 'node.kubelet.outOfRange',
      params: {
        version: '1.28',
        reported: 'v1.26.1',
        from: 'apiServer',
        oldest: '1.28',
        newest: '1.36',
      },
    });
  });
});
