/**
 * Ported from kubernetes/kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller_test.go
 * (stored text @ 042f1843b648eb036047007dc443e34221519fd1; the controller itself read @
 * 003e86297d18a8538c9da3619871393f9703bf70), case by case, named as upstream names them:
 * TestMonitorNodeHealthUpdateStatus, TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease,
 * TestMonitorNodeHealthMarkPodsNotReady, TestMonitorNodeHealthMarkPodsNotReadyWithWorkerSize,
 * TestMonitorNodeHealthMarkPodsNotReadyRetry, TestApplyNoExecuteTaints,
 * TestSwapUnreachableNotReadyTaints — plus cases of our own for the rule upstream leaves implicit:
 * a Ready=False the kubelet posts marks no pod.
 *
 * Left out, and why:
 * - `expectedRequestCount` (List/Update calls on the fake clientset): client traffic, not a
 *   decision; every case checks the node status the controller posts (or that it posts none) and
 *   whether a pod status was updated instead.
 * - Node `Capacity` in the expected nodes: the controller copies it untouched; Podscope's node
 *   object here carries conditions and taints only.
 * - WithWorkerSize's `workers` (0 → the default 8, or 1): ParallelizeUntil's concurrency; the pass
 *   is serial here, so both rows expect the same 5,000 pod updates.
 * - TestMonitorNodeHealth (zone states), TestTaintsNodeByCondition (NoSchedule condition taints),
 *   TestApplyNoExecuteTaintsToNodesEnqueueTwice's queue internals and the zone/disruption rate
 *   limiters: Podscope models no zones (see the header of nodelifecycle.ts).
 * - pkg/controller/util/node TestMarkPodsNotReady: no such test is in the stored upstream text
 *   (controller_utils.go has no test file there); `markPodsNotReady` below is checked against the
 *   function's own code instead.
 */
import { describe, expect, it } from 'vitest';
import type { V1NodeCondition, V1Pod } from '@kubernetes/client-node';
import {
  markPodsNotReady,
  markPodsNotReadyDecision,
  NodeLifecycleController,
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  type ControllerNode,
  type NodeLease,
} from './nodelifecycle';

const d = (y: number, mo: number, day: number, h: number, mi = 0, s = 0) =>
  new Date(Date.UTC(y, mo - 1, day, h, mi, s));
const HOUR = 3_600_000;
const MINUTE = 60_000;
const PERIODS = { nodeMonitorGracePeriodMs: 50_000, nodeStartupGracePeriodMs: 60_000 };

/** testutil.NewPod: a pod bound to `host` with Ready=True. */
const newPod = (name: string, host: string): V1Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { nodeName: host, containers: [] },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

const ready = (status: string, hb: Date, tt: Date): V1NodeCondition => ({
  type: 'Ready',
  status,
  lastHeartbeatTime: hb,
  lastTransitionTime: tt,
});

const unknown = (type: string, reason: string, hb: Date, tt: Date): V1NodeCondition => ({
  type,
  status: 'Unknown',
  reason,
  message:
    reason === 'NodeStatusUnknown'
      ? 'Kubelet stopped posting node status.'
      : 'Kubelet never posted node status.',
  lastHeartbeatTime: hb,
  lastTransitionTime: tt,
});

const neverUpdated = (hb: Date, tt: Date) =>
  ['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) =>
    unknown(t, 'NodeStatusNeverUpdated', hb, tt),
  );

/** The fake clientset: pods by node, every pod status update recorded (and optionally failed). */
class FakeClient {
  readonly updates: V1Pod[] = [];
  failUpdate: (n: number) => boolean = () => false;
  failList: (n: number) => boolean = () => false;
  private lists = 0;
  constructor(public pods: V1Pod[]) {}
  podsOnNode(node: string): V1Pod[] {
    this.lists++;
    if (this.failList(this.lists)) throw new Error('fake error');
    return this.pods.filter((p) => p.spec?.nodeName === node);
  }
  updatePodStatus(pod: V1Pod): void {
    this.updates.push(pod);
    if (this.failUpdate(this.updates.length)) throw new Error('fake error');
    this.pods = this.pods.map((p) => (p.metadata?.name === pod.metadata?.name ? pod : p));
  }
}

interface HealthCase {
  description: string;
  created: Date;
  conditions?: V1NodeCondition[];
  lease?: Date;
  timeToPass?: number;
  newConditions?: V1NodeCondition[];
  newLease?: Date;
  /** The conditions the controller posts; undefined: it posts none. */
  expectedConditions?: V1NodeCondition[];
  expectedPodStatusUpdate: boolean;
}

const fakeNow = d(2015, 1, 1, 12);

/** Two monitorNodeHealth passes (the second after timeToPass), as the upstream loops run them. */
function runHealthCase(c: HealthCase) {
  const client = new FakeClient([newPod('pod0', 'node0')]);
  const nc = new NodeLifecycleController(client, PERIODS);
  const node: ControllerNode = {
    name: 'node0',
    creationTimestamp: c.created.getTime(),
    conditions: structuredClone(c.conditions ?? []),
    taints: [],
  };
  const leases = (t: Date | undefined) =>
    new Map<string, NodeLease>(t ? [['node0', { renewTime: t.getTime() }]] : []);
  const posted: V1NodeCondition[][] = [];
  const pass = (now: number, lease: Date | undefined) => {
    const before = JSON.stringify(node.conditions);
    nc.monitorNodeHealth([node], leases(lease), now);
    if (JSON.stringify(node.conditions) !== before) posted.push(structuredClone(node.conditions));
  };
  pass(fakeNow.getTime(), c.lease);
  if (c.timeToPass) {
    node.conditions = structuredClone(c.newConditions ?? []);
    pass(fakeNow.getTime() + c.timeToPass, c.newLease);
  }
  return { posted, podStatusUpdated: client.updates.length > 0 };
}

function expectHealthCase(c: HealthCase) {
  const r = runHealthCase(c);
  if (c.expectedConditions) expect(r.posted.at(-1)).toEqual(c.expectedConditions);
  else expect(r.posted).toEqual([]);
  expect(r.podStatusUpdated).toBe(c.expectedPodStatusUpdate);
}

describe('TestMonitorNodeHealthUpdateStatus', () => {
  const created = d(2012, 1, 1, 0);
  const cases: HealthCase[] = [
    {
      description:
        'Node created long time ago, without status: Unknown posted from node controller',
      created,
      expectedConditions: [
        unknown('Ready', 'NodeStatusNeverUpdated', created, fakeNow),
        ...neverUpdated(created, fakeNow),
      ],
      expectedPodStatusUpdate: false, // Pod was never scheduled
    },
    {
      description: 'Node created recently, without status: no action (within startup grace period)',
      created: fakeNow,
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'Node created long time ago, with status updated by kubelet exceeds grace period: Unknown posted',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      timeToPass: HOUR,
      newConditions: [ready('True', fakeNow, fakeNow)],
      expectedConditions: [
        unknown('Ready', 'NodeStatusUnknown', fakeNow, new Date(fakeNow.getTime() + HOUR)),
        ...neverUpdated(created, new Date(fakeNow.getTime() + HOUR)),
      ],
      expectedPodStatusUpdate: true,
    },
    {
      description:
        'Node created long time ago, with status updated recently: no action (within monitor grace period)',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      expectedPodStatusUpdate: false,
    },
  ];
  for (const c of cases) it(c.description, () => expectHealthCase(c));
});

describe('TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease', () => {
  const created = d(2012, 1, 1, 0);
  const later = new Date(fakeNow.getTime() + HOUR);
  const cases: HealthCase[] = [
    {
      description: 'Node created recently, without status. Node lease is missing.',
      created: fakeNow,
      expectedPodStatusUpdate: false,
    },
    {
      description: 'Node created recently, without status. Node lease is renewed recently.',
      created: fakeNow,
      lease: fakeNow,
      expectedPodStatusUpdate: false,
    },
    {
      description: 'Node created long time ago, without status. Node lease is missing.',
      created,
      expectedConditions: [
        unknown('Ready', 'NodeStatusNeverUpdated', created, fakeNow),
        ...neverUpdated(created, fakeNow),
      ],
      expectedPodStatusUpdate: false, // Pod was never scheduled because the node was never ready.
    },
    {
      description: 'Node created long time ago, without status. Node lease is renewed recently.',
      created,
      lease: fakeNow,
      timeToPass: HOUR,
      newLease: later, // Lease is renewed after 1 hour.
      expectedPodStatusUpdate: false,
    },
    {
      description: 'Node created long time ago, without status. Node lease is expired.',
      created,
      lease: fakeNow,
      timeToPass: HOUR,
      newLease: fakeNow, // Lease is not renewed after 1 hour.
      expectedConditions: [
        unknown('Ready', 'NodeStatusNeverUpdated', created, later),
        ...neverUpdated(created, later),
      ],
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'Node created long time ago, with status updated by kubelet exceeds grace period. Node lease is renewed.',
      created,
      conditions: [
        ready('True', fakeNow, fakeNow),
        {
          type: 'DiskPressure',
          status: 'False',
          lastHeartbeatTime: fakeNow,
          lastTransitionTime: fakeNow,
        },
      ],
      lease: fakeNow,
      timeToPass: HOUR,
      newConditions: [
        ready('True', fakeNow, fakeNow),
        {
          type: 'DiskPressure',
          status: 'False',
          lastHeartbeatTime: fakeNow,
          lastTransitionTime: fakeNow,
        },
      ],
      newLease: later,
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'Node created long time ago, with status updated by kubelet recently. Node lease is expired.',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      lease: fakeNow,
      timeToPass: HOUR,
      newConditions: [ready('True', later, fakeNow)],
      newLease: fakeNow,
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'Node created long time ago, with status updated by kubelet exceeds grace period. Node lease is also expired.',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      lease: fakeNow,
      timeToPass: HOUR,
      newConditions: [ready('True', fakeNow, fakeNow)],
      newLease: fakeNow,
      expectedConditions: [
        unknown('Ready', 'NodeStatusUnknown', fakeNow, later),
        ...neverUpdated(created, later),
      ],
      expectedPodStatusUpdate: true,
    },
  ];
  for (const c of cases) it(c.description, () => expectHealthCase(c));
});

describe('TestMonitorNodeHealthMarkPodsNotReady', () => {
  const created = d(2012, 1, 1, 0);
  const cases: HealthCase[] = [
    {
      description: 'Node created recently, without status: no action (within startup grace period)',
      created: fakeNow,
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'Node created long time ago, with status updated recently: no action (within monitor grace period)',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'Node created long time ago, with status updated by kubelet exceeds grace period: pods marked, Unknown posted',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      timeToPass: MINUTE,
      newConditions: [ready('True', fakeNow, fakeNow)],
      expectedConditions: [
        unknown('Ready', 'NodeStatusUnknown', fakeNow, new Date(fakeNow.getTime() + MINUTE)),
        ...neverUpdated(created, new Date(fakeNow.getTime() + MINUTE)),
      ],
      expectedPodStatusUpdate: true,
    },
    // Podscope's own rows: the kubelet is alive and itself reports NotReady.
    {
      description:
        'the kubelet posts Ready=False (network not ready) and keeps posting: no pod is marked',
      created,
      conditions: [ready('True', fakeNow, fakeNow)],
      timeToPass: MINUTE,
      newConditions: [
        ready('False', new Date(fakeNow.getTime() + MINUTE), new Date(fakeNow.getTime() + 30_000)),
      ],
      // The controller posts nothing: the node's conditions are the kubelet's.
      expectedPodStatusUpdate: false,
    },
    {
      description:
        'the kubelet posted Ready=False, then went silent: Unknown posted, no pod is marked (observed Ready was not True)',
      created,
      conditions: [ready('False', fakeNow, fakeNow)],
      timeToPass: MINUTE,
      newConditions: [ready('False', fakeNow, fakeNow)],
      expectedConditions: [
        unknown('Ready', 'NodeStatusUnknown', fakeNow, new Date(fakeNow.getTime() + MINUTE)),
        ...neverUpdated(created, new Date(fakeNow.getTime() + MINUTE)),
      ],
      expectedPodStatusUpdate: false,
    },
  ];
  for (const c of cases) it(c.description, () => expectHealthCase(c));
});

describe('TestMonitorNodeHealthMarkPodsNotReadyWithWorkerSize', () => {
  const numNodes = 50;
  const podsPerNode = 100;
  for (const workers of [0, 1]) {
    it(`workers: ${workers} — every pod of every silent node is marked once`, () => {
      const hb = fakeNow;
      const makeNodes = (): ControllerNode[] =>
        Array.from({ length: numNodes }, (_, i) => ({
          name: `node${i}`,
          creationTimestamp: d(2012, 1, 1, 0).getTime(),
          conditions: [ready('True', hb, hb)],
          taints: [],
        }));
      const pods = Array.from({ length: numNodes * podsPerNode }, (_, i) =>
        newPod(`pod${i}`, `node${i % numNodes}`),
      );
      const client = new FakeClient(pods);
      const nc = new NodeLifecycleController(client, PERIODS);
      nc.monitorNodeHealth(makeNodes(), new Map(), fakeNow.getTime());
      nc.monitorNodeHealth(makeNodes(), new Map(), fakeNow.getTime() + MINUTE);
      expect(client.updates).toHaveLength(numNodes * podsPerNode);
    });
  }
});

describe('TestMonitorNodeHealthMarkPodsNotReadyRetry', () => {
  const timeNow = d(2015, 1, 1, 12);
  const timePlusTwoMinutes = d(2015, 1, 1, 12, 0, 2);
  const makeNodes = (status: string, hb: Date, tt: Date): ControllerNode[] => [
    {
      name: 'node0',
      creationTimestamp: timeNow.getTime(),
      conditions: [ready(status, hb, tt)],
      taints: [],
    },
  ];
  const iterations = [
    { timeToPass: 0, nodes: () => makeNodes('True', timeNow, timeNow) },
    { timeToPass: MINUTE, nodes: () => makeNodes('True', timeNow, timeNow) },
    {
      timeToPass: MINUTE,
      nodes: () => makeNodes('False', timePlusTwoMinutes, timePlusTwoMinutes),
    },
  ];
  const table: {
    desc: string;
    failUpdate?: (n: number) => boolean;
    failList?: (n: number) => boolean;
    expectedPodStatusUpdates: number;
  }[] = [
    { desc: 'successful pod status update, no retry required', expectedPodStatusUpdates: 1 },
    {
      desc: 'unsuccessful pod status update, retry required',
      failUpdate: (n) => n === 1,
      expectedPodStatusUpdates: 2, // One failed and one retry.
    },
    {
      desc: 'unsuccessful pod list, retry required',
      // The first list in the Ready → Unknown pass fails (the first pass lists too).
      failList: (n) => n === 2,
      expectedPodStatusUpdates: 1,
    },
  ];
  for (const item of table) {
    it(item.desc, () => {
      const client = new FakeClient([newPod('pod0', 'node0')]);
      if (item.failUpdate) client.failUpdate = item.failUpdate;
      if (item.failList) client.failList = item.failList;
      const nc = new NodeLifecycleController(client, PERIODS);
      for (const it of iterations)
        nc.monitorNodeHealth(it.nodes(), new Map(), timeNow.getTime() + it.timeToPass);
      expect(client.updates).toHaveLength(item.expectedPodStatusUpdates);
    });
  }
});

const nodeNamed = (nodes: ControllerNode[], name: string) => {
  const n = nodes.find((x) => x.name === name);
  if (!n) throw new Error(name);
  return n;
};
const hasTaint = (n: ControllerNode, key: string) =>
  n.taints.some((t) => t.key === key && t.effect === 'NoExecute');

describe('TestApplyNoExecuteTaints', () => {
  it('unreachable for Unknown, not-ready for False; none once Ready again or without a Ready condition', () => {
    const fake = d(2017, 1, 1, 12).getTime();
    const created = d(2012, 1, 1, 0).getTime();
    const nodes: ControllerNode[] = [
      {
        name: 'node0',
        creationTimestamp: created,
        conditions: [ready('Unknown', d(2015, 1, 1, 12), d(2015, 1, 1, 12))],
        taints: [],
      },
      {
        name: 'node1',
        creationTimestamp: created,
        conditions: [ready('True', d(2017, 1, 1, 12), d(2017, 1, 1, 12))],
        taints: [],
      },
      {
        name: 'node2',
        creationTimestamp: created,
        conditions: [ready('False', d(2015, 1, 1, 12), d(2015, 1, 1, 12))],
        taints: [],
      },
      {
        name: 'node3',
        creationTimestamp: created,
        conditions: [ready('True', d(2016, 1, 1, 12), d(2016, 1, 1, 12))],
        taints: [],
      },
    ];
    const nc = new NodeLifecycleController(new FakeClient([newPod('pod0', 'node0')]), PERIODS);
    nc.monitorNodeHealth(nodes, new Map(), fake);
    nc.doNoExecuteTaintingPass(nodes, fake);
    expect(hasTaint(nodeNamed(nodes, 'node0'), TAINT_UNREACHABLE)).toBe(true);
    expect(hasTaint(nodeNamed(nodes, 'node2'), TAINT_NOT_READY)).toBe(true);

    // Make node2 healthy again.
    nodeNamed(nodes, 'node2').conditions = [
      ready('True', d(2017, 1, 1, 12, 10), d(2017, 1, 1, 12)),
    ];
    nc.monitorNodeHealth(nodes, new Map(), fake);
    nc.doNoExecuteTaintingPass(nodes, fake);
    expect(nodeNamed(nodes, 'node2').taints).toEqual([]);

    // node3 turns NotReady; before the tainting pass its Ready condition is replaced away.
    const node3 = nodeNamed(nodes, 'node3');
    node3.conditions = [ready('False', d(2017, 1, 1, 12, 10), d(2017, 1, 1, 12))];
    nc.monitorNodeHealth(nodes, new Map(), fake);
    node3.conditions = [
      {
        type: 'MemoryPressure',
        status: 'Unknown',
        lastHeartbeatTime: d(2017, 1, 1, 12, 10),
        lastTransitionTime: d(2017, 1, 1, 12),
      },
    ];
    nc.doNoExecuteTaintingPass(nodes, fake);
    expect(node3.taints).toEqual([]);
  });

  it('a tainted node is not tainted again on the next passes (its timeAdded stays)', () => {
    const fake = d(2017, 1, 1, 12).getTime();
    const nodes: ControllerNode[] = [
      {
        name: 'node2',
        creationTimestamp: d(2012, 1, 1, 0).getTime(),
        conditions: [ready('False', d(2015, 1, 1, 12), d(2015, 1, 1, 12))],
        taints: [],
      },
    ];
    const nc = new NodeLifecycleController(new FakeClient([]), PERIODS);
    nc.monitorNodeHealth(nodes, new Map(), fake);
    nc.doNoExecuteTaintingPass(nodes, fake);
    const first = nodeNamed(nodes, 'node2').taints[0]?.timeAdded;
    nc.monitorNodeHealth(nodes, new Map(), fake + 5_000);
    nc.doNoExecuteTaintingPass(nodes, fake + 5_000);
    expect(nodeNamed(nodes, 'node2').taints).toHaveLength(1);
    expect(nodeNamed(nodes, 'node2').taints[0]?.timeAdded).toEqual(first);
  });
});

describe('TestSwapUnreachableNotReadyTaints', () => {
  it('an unreachable node that posts Ready=False has its taint swapped to not-ready at once', () => {
    const fake = d(2017, 1, 1, 12).getTime();
    const created = d(2012, 1, 1, 0).getTime();
    const nodes: ControllerNode[] = [
      {
        name: 'node0',
        creationTimestamp: created,
        conditions: [ready('Unknown', d(2015, 1, 1, 12), d(2015, 1, 1, 12))],
        taints: [],
      },
      {
        name: 'node1',
        creationTimestamp: created,
        conditions: [ready('True', d(2017, 1, 1, 12), d(2017, 1, 1, 12))],
        taints: [],
      },
    ];
    const nc = new NodeLifecycleController(new FakeClient([newPod('pod0', 'node0')]), PERIODS);
    nc.monitorNodeHealth(nodes, new Map(), fake);
    nc.doNoExecuteTaintingPass(nodes, fake);
    expect(hasTaint(nodeNamed(nodes, 'node0'), TAINT_UNREACHABLE)).toBe(true);

    // Node status has just been updated, and is NotReady for 10 min.
    nodeNamed(nodes, 'node0').conditions = [
      ready('False', d(2017, 1, 1, 12, 9), d(2017, 1, 1, 12)),
    ];
    nodeNamed(nodes, 'node1').conditions = [
      ready('True', d(2017, 1, 1, 12, 10), d(2017, 1, 1, 12)),
    ];
    nc.monitorNodeHealth(nodes, new Map(), fake);
    nc.doNoExecuteTaintingPass(nodes, fake);
    const node0 = nodeNamed(nodes, 'node0');
    expect(hasTaint(node0, TAINT_NOT_READY)).toBe(true);
    expect(hasTaint(node0, TAINT_UNREACHABLE)).toBe(false);
  });
});

describe('processPod', () => {
  it('a pod bound to a node whose Ready is not True is marked; on a Ready node it is not', () => {
    const fake = d(2017, 1, 1, 12).getTime();
    const created = d(2012, 1, 1, 0).getTime();
    const nodes: ControllerNode[] = [
      {
        name: 'sick',
        creationTimestamp: created,
        conditions: [ready('False', d(2017, 1, 1, 12), d(2017, 1, 1, 11))],
        taints: [],
      },
      {
        name: 'fine',
        creationTimestamp: created,
        conditions: [ready('True', d(2017, 1, 1, 12), d(2017, 1, 1, 11))],
        taints: [],
      },
    ];
    const client = new FakeClient([]);
    const nc = new NodeLifecycleController(client, PERIODS);
    // A node the controller has not observed yet: left to the next node pass.
    expect(nc.processPod(newPod('early', 'sick'), fake)).toBe(false);
    nc.monitorNodeHealth(nodes, new Map(), fake);
    expect(nc.processPod(newPod('bound', 'sick'), fake)).toBe(true);
    expect(nc.processPod(newPod('ok', 'fine'), fake)).toBe(false);
    expect(client.updates.map((p) => p.metadata?.name)).toEqual(['bound']);
    expect(client.updates[0]?.status?.conditions?.[0]).toMatchObject({
      type: 'Ready',
      status: 'False',
    });
  });
});

describe('MarkPodsNotReady (controller_utils.go)', () => {
  it('only Ready turns False, only on this node, only where it was not False already', () => {
    const client = new FakeClient([]);
    const at = d(2020, 1, 1, 0).getTime();
    const pods: V1Pod[] = [
      newPod('a', 'n'),
      newPod('other', 'm'),
      {
        ...newPod('already', 'n'),
        status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }] },
      },
      { ...newPod('noReady', 'n'), status: { conditions: [] } },
      {
        ...newPod('both', 'n'),
        status: {
          conditions: [
            { type: 'ContainersReady', status: 'True' },
            { type: 'Ready', status: 'True', reason: 'kept' },
          ],
        },
      },
    ];
    expect(markPodsNotReady(client, pods, 'n', at).marked).toEqual(['a', 'both']);
    expect(client.updates[1]?.status?.conditions).toEqual([
      { type: 'ContainersReady', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'kept', lastTransitionTime: new Date(at) },
    ]);
  });

  it('a deleted pod is skipped; other errors are returned together after every pod was tried', () => {
    const client = new FakeClient([]);
    let n = 0;
    client.updatePodStatus = (pod) => {
      n++;
      if (pod.metadata?.name === 'gone')
        throw Object.assign(new Error('not found'), { notFound: true });
      if (pod.metadata?.name !== 'ok') throw new Error(`conflict ${pod.metadata?.name ?? ''}`);
    };
    const pods = ['gone', 'x', 'ok', 'y'].map((name) => newPod(name, 'n'));
    expect(() => markPodsNotReady(client, pods, 'n', 0)).toThrow('[conflict x, conflict y]');
    expect(n).toBe(4);
  });
});

describe('markPodsNotReadyDecision (monitorNodeHealth switch)', () => {
  it.each([
    ['True', 'Unknown', false, 'transition'],
    ['True', 'True', false, undefined],
    ['False', 'False', false, undefined],
    ['False', 'Unknown', false, undefined],
    ['Unknown', 'Unknown', false, undefined],
    ['False', 'False', true, 'retry'],
    ['Unknown', 'Unknown', true, 'retry'],
    ['True', 'True', true, undefined],
    [undefined, undefined, true, undefined],
  ] as const)('observed %s, current %s, retry %s → %s', (observed, current, retry, want) => {
    expect(markPodsNotReadyDecision(observed, current, retry)).toBe(want);
  });
});
