import type { V1NodeCondition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  aggregateMessage,
  formatRuntimeCondition,
  generateNodeConditions,
  type NodeConditionsInput,
} from './node';
import type { RuntimeCondition } from './runtime';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const ok: RuntimeCondition[] = [
  { type: 'RuntimeReady', status: true, reason: '', message: '' },
  { type: 'NetworkReady', status: true, reason: '', message: '' },
];
const healthy = (over: Partial<NodeConditionsInput> = {}): NodeConditionsInput => ({
  now: T0,
  runtimeConditions: ok,
  lastStatusAt: T0 - 1000,
  lastRelistAt: T0 - 1000,
  lastContactAt: T0 - 1000,
  resources: {
    memoryCapacityBytes: 8 * 2 ** 30,
    memoryAvailableBytes: 4 * 2 ** 30,
    nodeFsCapacityBytes: 100 * 2 ** 30,
    nodeFsAvailableBytes: 50 * 2 ** 30,
    nodeFsInodes: 1_000_000,
    nodeFsInodesFree: 900_000,
    imageFsCapacityBytes: 100 * 2 ** 30,
    imageFsAvailableBytes: 50 * 2 ** 30,
    imageFsInodes: 1_000_000,
    imageFsInodesFree: 900_000,
    pidMax: 4_194_304,
    pidsInUse: 500,
  },
  ...over,
});
const byType = (cs: V1NodeCondition[], type: string) => cs.find((c) => c.type === type);

describe('generateNodeConditions', () => {
  it('a healthy node: pressure False, Ready True last, kubelet reasons and messages', () => {
    const r = generateNodeConditions(healthy());
    expect(r.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ]);
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      message: 'kubelet is posting ready status',
      lastHeartbeatTime: new Date(T0),
      lastTransitionTime: new Date(T0),
    });
    expect(byType(r.conditions, 'MemoryPressure')?.message).toBe(
      'kubelet has sufficient memory available',
    );
    expect(r.why.Ready?.id).toBe('node.ready.true');
    expect(r.why.MemoryPressure).toMatchObject({
      id: 'node.pressure.false',
      params: { signal: 'memory.available', observed: '4Gi', threshold: '100Mi' },
    });
    expect(r.why.PIDPressure).toMatchObject({
      id: 'node.pressure.noThreshold',
      params: { signal: 'pid.available' },
    });
    expect(r.ready).toEqual({ status: 'True', since: T0 });
  });

  it('heartbeat advances every update; transition time only when the status changes', () => {
    const first = generateNodeConditions(healthy());
    const second = generateNodeConditions(
      healthy({ now: T0 + 10_000, lastRelistAt: T0 + 9_000, oldConditions: first.conditions }),
    );
    expect(byType(second.conditions, 'Ready')).toMatchObject({
      lastHeartbeatTime: new Date(T0 + 10_000),
      lastTransitionTime: new Date(T0),
    });
    expect(byType(second.conditions, 'DiskPressure')).toMatchObject({
      lastHeartbeatTime: new Date(T0 + 10_000),
      lastTransitionTime: new Date(T0),
    });
  });

  it('RuntimeReady false: Ready False with the kubelet message', () => {
    const r = generateNodeConditions(
      healthy({
        runtimeConditions: [
          { type: 'RuntimeReady', status: false, reason: 'ContainerdDown', message: 'no shim' },
          ok[1] as RuntimeCondition,
        ],
        lastStatusAt: undefined,
      }),
    );
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message:
        '[container runtime status check may not have completed yet, container runtime not ready: RuntimeReady=false reason:ContainerdDown message:no shim]',
    });
    expect(r.why.Ready).toMatchObject({
      id: 'node.ready.runtimeStatusPending',
      params: { count: 2 },
    });
  });

  it('NetworkReady false: Ready False with the kubelet network error; no NetworkUnavailable (not a kubelet condition)', () => {
    const net: RuntimeCondition = {
      type: 'NetworkReady',
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'Network plugin returns error: cni plugin not initialized',
    };
    const r = generateNodeConditions(
      healthy({ runtimeConditions: [ok[0] as RuntimeCondition, net] }),
    );
    expect(byType(r.conditions, 'Ready')?.message).toBe(
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    );
    expect(byType(r.conditions, 'NetworkUnavailable')).toBeUndefined();
    expect(r.why.Ready).toMatchObject({
      id: 'node.ready.networkNotReady',
      params: { reason: 'NetworkPluginNotReady' },
    });
  });

  it('Ready False says which error came first, for the pods (their Ready stands: the kubelet posts it)', () => {
    const net: RuntimeCondition = { type: 'NetworkReady', status: false, reason: 'x', message: '' };
    const r = generateNodeConditions(
      healthy({ runtimeConditions: [ok[0] as RuntimeCondition, net] }),
    );
    expect(r.ready).toMatchObject({ status: 'False', cause: 'networkNotReady' });
    expect(r.ready.podsMarked).toBeUndefined();
    expect(generateNodeConditions(healthy({ lastStatusAt: T0 - 30_000 })).ready.cause).toBe(
      'runtimeDown',
    );
    expect(generateNodeConditions(healthy()).ready.cause).toBeUndefined();
  });

  it('Unknown marks the pods only when the controller turns Ready from True (monitorNodeHealth)', () => {
    const silent = (oldConditions: V1NodeCondition[], oldReady?: NodeConditionsInput['oldReady']) =>
      generateNodeConditions({
        now: T0 + 51_000,
        lastRelistAt: T0,
        lastContactAt: T0,
        oldConditions,
        ...(oldReady ? { oldReady } : {}),
      }).ready;
    const wasReady = generateNodeConditions(healthy()).conditions;
    const net: RuntimeCondition = { type: 'NetworkReady', status: false, reason: 'x', message: '' };
    const wasNotReady = generateNodeConditions(
      healthy({ runtimeConditions: [ok[0] as RuntimeCondition, net] }),
    ).conditions;
    expect(silent(wasReady).podsMarked).toBe(true);
    // The kubelet posted Ready=False, then fell silent: observed Ready was not True.
    expect(silent(wasNotReady).podsMarked).toBe(false);
    // Unknown kept from before: what was decided at the transition carries over.
    const unknown = generateNodeConditions({
      now: T0 + 51_000,
      lastRelistAt: T0,
      lastContactAt: T0,
      oldConditions: wasNotReady,
    });
    expect(
      silent(unknown.conditions, { status: 'Unknown', since: T0 + 50_000, podsMarked: false })
        .podsMarked,
    ).toBe(false);
    expect(
      silent(unknown.conditions, { status: 'Unknown', since: T0 + 50_000, podsMarked: true })
        .podsMarked,
    ).toBe(true);
    // A node never heard from: no observed True, nothing marked.
    const never = generateNodeConditions({ now: T0 + 61_000, startedAt: T0 });
    expect(never.ready).toMatchObject({ status: 'Unknown', podsMarked: false });
  });

  it('a missing NetworkReady condition reads as <nil>', () => {
    const r = generateNodeConditions(healthy({ runtimeConditions: [ok[0] as RuntimeCondition] }));
    expect(byType(r.conditions, 'Ready')?.message).toBe(
      'container runtime network not ready: <nil>',
    );
  });

  it('PLEG: unhealthy only after 3 minutes without a relist (contact by Status keeps the node known)', () => {
    const at = (sinceRelist: number) =>
      generateNodeConditions(
        healthy({
          lastRelistAt: T0 - sinceRelist,
          lastStatusAt: T0 - 1000,
          lastContactAt: T0 - 1000,
        }),
      );
    expect(byType(at(180_000).conditions, 'Ready')?.status).toBe('True');
    const r = at(180_500);
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      status: 'False',
      message: 'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s',
    });
    expect(r.why.Ready).toMatchObject({
      id: 'node.ready.plegUnhealthy',
      params: { elapsed: 181, threshold: 180 },
    });
  });

  it('runtime status older than 30 s: container runtime is down', () => {
    const r = generateNodeConditions(healthy({ lastStatusAt: T0 - 30_000 }));
    expect(byType(r.conditions, 'Ready')?.message).toBe('container runtime is down');
  });

  it('no contact for longer than node-monitor-grace-period (50 s): Ready and pressure Unknown', () => {
    const first = generateNodeConditions(healthy());
    const r = generateNodeConditions({
      now: T0 + 51_000,
      lastRelistAt: T0,
      lastContactAt: T0,
      oldConditions: first.conditions,
    });
    expect(r.conditions.map((c) => [c.type, c.status])).toEqual([
      ['MemoryPressure', 'Unknown'],
      ['DiskPressure', 'Unknown'],
      ['PIDPressure', 'Unknown'],
      ['Ready', 'Unknown'],
    ]);
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: new Date(T0),
      lastTransitionTime: new Date(T0 + 50_000),
    });
    expect(r.ready).toEqual({ status: 'Unknown', since: T0 + 50_000, podsMarked: true });
    expect(r.why.Ready).toMatchObject({
      id: 'node.ready.unknown',
      params: { seconds: 51, grace: 50 },
    });
    // 50 s exactly is still within the grace period
    expect(
      generateNodeConditions({
        now: T0 + 50_000,
        runtimeConditions: ok,
        lastRelistAt: T0,
        lastStatusAt: T0,
        oldConditions: first.conditions,
      }).ready.status,
    ).toBe('False'); // known (not Unknown); False because the runtime status is older than 30 s
    // the grace period is a parameter
    expect(
      generateNodeConditions({
        now: T0 + 41_000,
        lastRelistAt: T0,
        oldConditions: first.conditions,
        timings: { nodeMonitorGracePeriodMs: 40_000 },
      }).ready.status,
    ).toBe('Unknown');
  });

  it('with the kubelet heard from, a silent runtime is Ready=False (runtime down, PLEG), never Unknown', () => {
    const first = generateNodeConditions(healthy());
    // The runtime has not answered for 4 minutes; the kubelet posted a moment ago.
    const r = generateNodeConditions({
      now: T0 + 240_000,
      runtimeConditions: ok,
      lastStatusAt: T0,
      lastRelistAt: T0,
      lastContactAt: T0,
      kubeletPostedAt: T0 + 239_000,
      oldConditions: first.conditions,
    });
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message:
        '[container runtime is down, PLEG is not healthy: pleg was last seen active 4m0s ago; threshold is 3m0s]',
    });
    expect(r.ready.status).toBe('False');
  });

  it('a kubelet silent past node-monitor-grace-period is Unknown though its runtime answers', () => {
    const first = generateNodeConditions(healthy());
    const r = generateNodeConditions(
      healthy({
        now: T0 + 51_000,
        lastStatusAt: T0 + 50_000,
        lastRelistAt: T0 + 50_000,
        lastContactAt: T0 + 50_000,
        kubeletPostedAt: T0,
        oldConditions: first.conditions,
      }),
    );
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      lastTransitionTime: new Date(T0 + 50_000),
    });
    expect(r.why.Ready).toMatchObject({
      id: 'node.ready.kubeletSilent',
      params: { seconds: 51, grace: 50 },
    });
  });

  it('an Unknown condition stays as it was while the node stays silent; contact brings Ready back', () => {
    const first = generateNodeConditions(healthy());
    const lost = generateNodeConditions({
      now: T0 + 60_000,
      lastRelistAt: T0,
      oldConditions: first.conditions,
    });
    const still = generateNodeConditions({
      now: T0 + 90_000,
      lastRelistAt: T0,
      oldConditions: lost.conditions,
    });
    expect(byType(still.conditions, 'Ready')).toEqual(byType(lost.conditions, 'Ready'));
    const back = generateNodeConditions(
      healthy({
        now: T0 + 95_000,
        lastRelistAt: T0 + 94_000,
        lastStatusAt: T0 + 94_000,
        oldConditions: still.conditions,
      }),
    );
    expect(byType(back.conditions, 'Ready')).toMatchObject({
      status: 'True',
      lastTransitionTime: new Date(T0 + 95_000),
    });
  });

  it('a node never heard from: no conditions during node-startup-grace-period (60 s), then NodeStatusNeverUpdated', () => {
    const early = generateNodeConditions({ now: T0 + 60_000, startedAt: T0 });
    expect(early.conditions).toEqual([]);
    expect(early.why.Ready).toMatchObject({
      id: 'node.ready.startupGrace',
      params: { seconds: 60, grace: 60 },
    });
    const r = generateNodeConditions({ now: T0 + 60_001, startedAt: T0 });
    expect(r.conditions.map((c) => c.type)).toEqual([
      'MemoryPressure',
      'DiskPressure',
      'PIDPressure',
      'Ready',
    ]);
    expect(byType(r.conditions, 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
    });
    expect(r.why.Ready?.id).toBe('node.ready.neverContacted');
  });

  it('MemoryPressure names the pods using the most memory when the stats say; other pressures do not', () => {
    const users = [
      { name: 'test/hog', memoryBytes: 7200 * 2 ** 20 },
      { name: 'test/web', memoryBytes: 12 * 2 ** 20 },
    ];
    const r = generateNodeConditions(
      healthy({
        resources: { memoryCapacityBytes: 8 * 2 ** 30, memoryAvailableBytes: 50 * 2 ** 20 },
        memoryUsers: users,
      }),
    );
    expect(r.why.MemoryPressure).toMatchObject({
      id: 'node.pressure.trueUsage',
      params: { observed: '50Mi', threshold: '100Mi', pods: 'test/hog 7Gi, test/web 12Mi' },
    });
    expect(r.why.DiskPressure?.id).toBe('node.pressure.unknownResources');
    const held = generateNodeConditions(
      healthy({
        now: T0 + 60_000,
        lastRelistAt: T0 + 59_000,
        lastStatusAt: T0 + 59_000,
        oldConditions: r.conditions,
        pressureObservedAt: r.pressureObservedAt,
        memoryUsers: users,
      }),
    );
    expect(held.why.MemoryPressure).toMatchObject({
      id: 'node.pressure.holdingUsage',
      params: { seconds: 240, pods: 'test/hog 7Gi, test/web 12Mi' },
    });
  });

  it('memory below 100Mi: MemoryPressure True, held for the 5-minute transition period', () => {
    const low = healthy({
      resources: { memoryCapacityBytes: 8 * 2 ** 30, memoryAvailableBytes: 50 * 2 ** 20 },
    });
    const r = generateNodeConditions(low);
    expect(byType(r.conditions, 'MemoryPressure')).toMatchObject({
      status: 'True',
      reason: 'KubeletHasInsufficientMemory',
      message: 'kubelet has insufficient memory available',
    });
    expect(r.why.MemoryPressure).toMatchObject({
      id: 'node.pressure.true',
      params: { observed: '50Mi', threshold: '100Mi' },
    });
    const recovered = healthy({
      now: T0 + 60_000,
      lastRelistAt: T0 + 59_000,
      lastStatusAt: T0 + 59_000,
      oldConditions: r.conditions,
      pressureObservedAt: r.pressureObservedAt,
    });
    const held = generateNodeConditions(recovered);
    expect(byType(held.conditions, 'MemoryPressure')?.status).toBe('True');
    expect(held.why.MemoryPressure).toMatchObject({
      id: 'node.pressure.holding',
      params: { seconds: 240 },
    });
    const later = generateNodeConditions({
      ...recovered,
      now: T0 + 300_000,
      lastRelistAt: T0 + 299_000,
      lastStatusAt: T0 + 299_000,
      oldConditions: held.conditions,
      pressureObservedAt: held.pressureObservedAt,
    });
    expect(byType(later.conditions, 'MemoryPressure')).toMatchObject({
      status: 'False',
      lastTransitionTime: new Date(T0 + 300_000),
    });
  });

  it('disk pressure from any nodefs/imagefs signal; percentages of capacity', () => {
    const r = generateNodeConditions(
      healthy({
        resources: { imageFsCapacityBytes: 100 * 2 ** 30, imageFsAvailableBytes: 14 * 2 ** 30 },
      }),
    );
    expect(r.why.DiskPressure).toMatchObject({
      id: 'node.pressure.true',
      params: { signal: 'imagefs.available', observed: '14Gi', threshold: '15%' },
    });
  });

  it('unknown resources: False like a kubelet without a signal, and the why says so', () => {
    const r = generateNodeConditions(healthy({ resources: undefined }));
    expect(byType(r.conditions, 'MemoryPressure')?.status).toBe('False');
    expect(r.why.MemoryPressure).toMatchObject({
      id: 'node.pressure.unknownResources',
      params: { signal: 'memory.available' },
    });
  });

  it('a configured pid.available threshold drives PIDPressure', () => {
    const r = generateNodeConditions(
      healthy({
        thresholds: { 'pid.available': { percentage: 0.1 } },
        resources: { pidMax: 1000, pidsInUse: 950 },
      }),
    );
    expect(byType(r.conditions, 'PIDPressure')).toMatchObject({
      status: 'True',
      reason: 'KubeletHasInsufficientPID',
    });
  });

  it('helpers format as Go does', () => {
    expect(formatRuntimeCondition(undefined)).toBe('<nil>');
    expect(aggregateMessage(['a'])).toBe('a');
    expect(aggregateMessage(['a', 'b', 'a'])).toBe('[a, b]');
    expect(aggregateMessage([])).toBe('');
  });

  it('never throws on garbage', () => {
    expect(() => generateNodeConditions(null as never)).not.toThrow();
    expect(() =>
      generateNodeConditions({
        now: Number.NaN,
        runtimeConditions: [null, 5] as never,
        oldConditions: 'x' as never,
        resources: { memoryAvailableBytes: -5 },
      }),
    ).not.toThrow();
  });
});
