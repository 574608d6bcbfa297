/**
 * Ported from kubernetes/kubernetes pkg/kubelet/nodestatus/setters_test.go @
 * 0064010cddfa009fe16ae23fcd0c57f4f15d227c — TestReadyCondition, TestMemoryPressureCondition,
 * TestDiskPressureCondition, TestPIDPressureCondition — as far as Podscope's inputs reach:
 * the runtime and network errors of the ReadyCondition table come from the CRI (Status, relists),
 * storage / shutdown / missing-capacity / AppArmor / soft-requirement rows have no CRI source and
 * are left out (the kubelet's own subsystems), and events are not modelled. Each pressure table
 * drives the condition through the eviction thresholds (pressure = available below threshold).
 * Plus the kubelet's start state (pkg/kubelet/runtime.go newRuntimeState: ErrNetworkUnknown).
 */
import type { V1NodeCondition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { generateNodeConditions, type NodeConditionsInput } from './node';
import type { NodeResources, RuntimeCondition } from './runtime';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 10);
const BEFORE = NOW - 1000;
const GiB = 2 ** 30;
const ready: RuntimeCondition = { type: 'RuntimeReady', status: true, reason: '', message: '' };
const net: RuntimeCondition = { type: 'NetworkReady', status: true, reason: '', message: '' };

const plenty: NodeResources = {
  memoryCapacityBytes: 8 * GiB,
  memoryAvailableBytes: 4 * GiB,
  nodeFsCapacityBytes: 100 * GiB,
  nodeFsAvailableBytes: 50 * GiB,
  nodeFsInodes: 1e6,
  nodeFsInodesFree: 9e5,
  imageFsCapacityBytes: 100 * GiB,
  imageFsAvailableBytes: 50 * GiB,
  imageFsInodes: 1e6,
  imageFsInodesFree: 9e5,
  pidMax: 1e5,
  pidsInUse: 100,
};

const input = (over: Partial<NodeConditionsInput> = {}): NodeConditionsInput => ({
  now: NOW,
  runtimeConditions: [ready, net],
  lastStatusAt: NOW - 500,
  lastRelistAt: NOW - 500,
  lastContactAt: NOW - 500,
  resources: plenty,
  ...over,
});
const byType = (cs: V1NodeCondition[], type: string) => cs.find((c) => c.type === type);

/** makeReadyCondition(ready, message, transition, heartbeat) of the upstream test. */
const makeReady = (isReady: boolean, message: string, transition: number, heartbeat: number) => ({
  type: 'Ready',
  status: isReady ? 'True' : 'False',
  reason: isReady ? 'KubeletReady' : 'KubeletNotReady',
  message,
  lastTransitionTime: new Date(transition),
  lastHeartbeatTime: new Date(heartbeat),
});

describe('TestReadyCondition (CRI-sourced rows)', () => {
  const notReadyRuntime: RuntimeCondition = {
    type: 'RuntimeReady',
    status: false,
    reason: 'runtime',
    message: 'down',
  };
  const notReadyNet: RuntimeCondition = {
    type: 'NetworkReady',
    status: false,
    reason: 'network',
    message: 'down',
  };
  it.each([
    ['new, ready', {}, undefined, makeReady(true, 'kubelet is posting ready status', NOW, NOW)],
    [
      'new, not ready: runtime and network errors',
      { runtimeConditions: [notReadyRuntime, notReadyNet] },
      undefined,
      makeReady(
        false,
        '[container runtime not ready: RuntimeReady=false reason:runtime message:down, container runtime network not ready: NetworkReady=false reason:network message:down]',
        NOW,
        NOW,
      ),
    ],
    [
      'transition to ready',
      {},
      makeReady(false, '', BEFORE, BEFORE),
      makeReady(true, 'kubelet is posting ready status', NOW, NOW),
    ],
    [
      'transition to not ready',
      { runtimeConditions: [notReadyRuntime, net] },
      makeReady(true, '', BEFORE, BEFORE),
      makeReady(
        false,
        'container runtime not ready: RuntimeReady=false reason:runtime message:down',
        NOW,
        NOW,
      ),
    ],
    [
      'ready, no transition',
      {},
      makeReady(true, '', BEFORE, BEFORE),
      makeReady(true, 'kubelet is posting ready status', BEFORE, NOW),
    ],
    [
      'not ready, no transition',
      { runtimeConditions: [notReadyRuntime, net] },
      makeReady(false, '', BEFORE, BEFORE),
      makeReady(
        false,
        'container runtime not ready: RuntimeReady=false reason:runtime message:down',
        BEFORE,
        NOW,
      ),
    ],
  ] as const)('%s', (_, over, old, expected) => {
    const r = generateNodeConditions(input({ ...over, ...(old ? { oldConditions: [old] } : {}) }));
    expect(byType(r.conditions, 'Ready')).toEqual(expected);
  });

  it("before the first successful Status: the kubelet's start state, two errors", () => {
    const r = generateNodeConditions(
      input({ runtimeConditions: undefined, lastStatusAt: undefined }),
    );
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: '[container runtime status check may not have completed yet, network state unknown]',
    });
    expect(r.why.Ready).toMatchObject({
      id: 'node.ready.runtimeStatusPending',
      params: { count: 2 },
    });
  });
});

type Pressure = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';
const PRESSURE: Record<
  Pressure,
  {
    on: Partial<NodeResources>;
    reasons: [string, string];
    messages: [string, string];
    thresholds?: NodeConditionsInput['thresholds'];
  }
> = {
  MemoryPressure: {
    on: { memoryAvailableBytes: 50 * 2 ** 20 },
    reasons: ['KubeletHasInsufficientMemory', 'KubeletHasSufficientMemory'],
    messages: [
      'kubelet has insufficient memory available',
      'kubelet has sufficient memory available',
    ],
  },
  DiskPressure: {
    on: { nodeFsAvailableBytes: 5 * GiB },
    reasons: ['KubeletHasDiskPressure', 'KubeletHasNoDiskPressure'],
    messages: ['kubelet has disk pressure', 'kubelet has no disk pressure'],
  },
  PIDPressure: {
    on: { pidsInUse: 99_990 },
    reasons: ['KubeletHasInsufficientPID', 'KubeletHasSufficientPID'],
    messages: ['kubelet has insufficient PID available', 'kubelet has sufficient PID available'],
    thresholds: { 'pid.available': { quantity: 100 } },
  },
};

/** makeXPressureCondition(pressure, transition, heartbeat). */
function make(type: Pressure, pressure: boolean, transition: number, heartbeat: number) {
  const t = PRESSURE[type];
  return {
    type,
    status: pressure ? 'True' : 'False',
    reason: pressure ? t.reasons[0] : t.reasons[1],
    message: pressure ? t.messages[0] : t.messages[1],
    lastTransitionTime: new Date(transition),
    lastHeartbeatTime: new Date(heartbeat),
  };
}

describe.each(['MemoryPressure', 'DiskPressure', 'PIDPressure'] as const)(
  'Test%sCondition',
  (type) => {
    const run = (pressure: boolean, old?: object) =>
      byType(
        generateNodeConditions(
          input({
            resources: { ...plenty, ...(pressure ? PRESSURE[type].on : {}) },
            ...(PRESSURE[type].thresholds ? { thresholds: PRESSURE[type].thresholds } : {}),
            // The setter's pressureFunc is the eviction manager's answer, transition period
            // included: "no pressure" means the threshold was last met over 5 min ago.
            pressureObservedAt: { [type]: NOW - 300_001 },
            ...(old ? { oldConditions: [old as V1NodeCondition] } : {}),
          }),
        ).conditions,
        type,
      );
    it('new, no pressure', () => expect(run(false)).toEqual(make(type, false, NOW, NOW)));
    it('new, pressure', () => expect(run(true)).toEqual(make(type, true, NOW, NOW)));
    it('transition to pressure', () =>
      expect(run(true, make(type, false, BEFORE, BEFORE))).toEqual(make(type, true, NOW, NOW)));
    it('transition to no pressure', () =>
      expect(run(false, make(type, true, BEFORE, BEFORE))).toEqual(make(type, false, NOW, NOW)));
    it('pressure, no transition', () =>
      expect(run(true, make(type, true, BEFORE, BEFORE))).toEqual(make(type, true, BEFORE, NOW)));
    it('no pressure, no transition', () =>
      expect(run(false, make(type, false, BEFORE, BEFORE))).toEqual(
        make(type, false, BEFORE, NOW),
      ));
  },
);
