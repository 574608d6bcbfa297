/**
 * The scenario API server: what the kubelet posts while it can, what the node lifecycle
 * controller does once it cannot, and the three ways a pod leaves — each seen through lib/drift,
 * as the walkthroughs record it.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeCond, nodeView, podView, running, T0 } from '@/lib/drift/testing/fixtures';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import type { ClusterState, PodView } from '@/lib/timeline/state';
import { ManualClock } from '@/server/driver/clock';
import { API_SERVER_TIMINGS, ScenarioApiServer, UNREACHABLE_TAINT } from './apiserver';
import { findScenario, parseScenario } from './library';
import { runScenario } from './runner';

const NODE = 'node-a';
const UID = 'uid-1';

const template: V1Pod = {
  metadata: { name: 'redis-0', namespace: 'default' },
  spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'redis', image: 'busybox' }] },
};

interface Rig {
  clock: ManualClock;
  api: ScenarioApiServer;
  driver: {
    node: string;
    partitioned: boolean;
    running: Set<string>;
    delete: ReturnType<typeof vi.fn<(uid: string) => Promise<void>>>;
    evict: ReturnType<typeof vi.fn<(uid: string) => void>>;
  };
  /** The runtime side (what the engine derives); tests change it as the node would. */
  view: { pod: PodView | undefined; restarts: number; startedS: number };
  /** The drift as the timeline has it after the events the API server recorded. */
  state(): ClusterState;
}

function rig(): Rig {
  const clock = new ManualClock(T0);
  const view: Rig['view'] = { pod: undefined, restarts: 0, startedS: 0 };
  const recorded: UnsequencedEvent[] = [];
  const observe = (): ClusterState => {
    const pod = view.pod
      ? {
          ...view.pod,
          status: {
            ...view.pod.status,
            containerStatuses: [running('redis', view.startedS, view.restarts)],
          },
        }
      : undefined;
    const base: ClusterState = {
      seq: 0,
      t: clock.now(),
      nodes: { [NODE]: nodeView(NODE, pod ? [pod] : [], [nodeCond('Ready', 'True')]) },
    };
    // Drift so far, as the timeline folds the recorded events in.
    return reduceAll(
      base,
      recorded.map((e, i) => ({ ...e, seq: i + 1 })),
    );
  };
  const driver: Rig['driver'] = {
    node: NODE,
    partitioned: false,
    running: new Set<string>(),
    delete: vi.fn((uid: string) => {
      driver.running.delete(uid);
      return Promise.resolve();
    }),
    evict: vi.fn<(uid: string) => void>(),
  };
  const api = new ScenarioApiServer({
    driver: {
      get node() {
        return NODE;
      },
      get partitioned() {
        return driver.partitioned;
      },
      apply: (pod) => {
        driver.running.add(UID);
        return Promise.resolve({
          ...pod,
          metadata: { ...pod.metadata, uid: UID },
          spec: { containers: [], ...pod.spec, nodeName: NODE },
        });
      },
      delete: (uid) => driver.delete(uid),
      evict: (uid) => driver.evict(uid),
      configs: { putConfigMap: () => undefined },
      resyncAll: () => undefined,
      pods: () => [...driver.running].map((uid) => ({ uid })),
    },
    clock,
    observe,
    record: (events) => recorded.push(...events),
  });
  return { clock, api, driver, view, state: observe };
}

/** Ticks once a second for `seconds`, as a session's own timer does. */
function run(r: Rig, seconds: number): void {
  for (let i = 0; i < seconds; i++) {
    r.clock.advance(1_000);
    r.api.tick();
  }
}

async function applied(r: Rig): Promise<void> {
  await r.api.wrap().apply(structuredClone(template));
  r.view.pod = {
    ...podView({ uid: UID, name: 'redis-0', node: NODE, phase: 'Running', containers: [] }),
  };
  r.api.tick();
}

const kinds = (list: { kind: string; status: string }[] | undefined) =>
  (list ?? []).filter((d) => d.status === 'drift').map((d) => d.kind);

describe('the scenario API server', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
  });

  it('holds what the kubelet posts while it can: no drift, a fresh Lease, the pod as the node shows it', async () => {
    await applied(r);
    r.view.restarts = 1;
    r.view.startedS = 30;
    run(r, 60);
    const s = r.state();
    expect(s.nodes[NODE]?.drift).toBeUndefined();
    expect(s.nodes[NODE]?.pods[UID]?.drift).toBeUndefined();
    expect(r.api.pod(UID)?.status?.containerStatuses?.[0]?.restartCount).toBe(1);
    expect(r.clock.now() - (r.api.postedAt(NODE) ?? 0)).toBeLessThan(
      API_SERVER_TIMINGS.leaseRenewMs,
    );
    expect(r.api.postedAt('other-node')).toBeUndefined();
  });

  it('during a partition: the Lease ages, the node goes Unknown after 50 s with the taint, the pod status freezes', async () => {
    await applied(r);
    r.driver.partitioned = true;
    const cut = r.api.postedAt(NODE) ?? 0;
    run(r, 45);
    expect(kinds(r.state().nodes[NODE]?.drift)).toEqual(['kubeletNotReporting']);
    // The runtime still answers: the drift says so.
    expect(r.state().nodes[NODE]?.drift?.[0]?.why.id).toBe('drift.kubelet.silentRuntimeAlive');
    expect(r.api.nodeStatus().status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    run(r, 15);
    const ready = r.api.nodeStatus().status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    expect(new Date(ready?.lastTransitionTime ?? 0).getTime() - cut).toBeGreaterThan(
      API_SERVER_TIMINGS.nodeMonitorGracePeriodMs,
    );
    expect(r.api.nodeStatus().spec?.taints?.map((t) => t.key)).toEqual([UNREACHABLE_TAINT]);
    expect(r.api.pod(UID)?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'False',
    );
    // The container restarts on the node; the API server does not hear of it. (This view keeps
    // the pod Ready, so the controller's Ready=False shows as a condition drift too.)
    r.view.restarts = 1;
    r.view.startedS = 61;
    run(r, 10);
    expect(kinds(r.state().nodes[NODE]?.pods[UID]?.drift)).toEqual(
      expect.arrayContaining(['staleStatus', 'restartCountMismatch']),
    );
    expect(r.api.pod(UID)?.status?.containerStatuses?.[0]?.restartCount).toBe(0);

    // Healed: the kubelet renews, posts node status and the pod's, and the drift goes.
    r.driver.partitioned = false;
    run(r, 11);
    expect(r.api.nodeStatus().status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    expect(r.api.nodeStatus().spec?.taints).toEqual([]);
    expect(r.state().nodes[NODE]?.drift).toBeUndefined();
    expect(r.state().nodes[NODE]?.pods[UID]?.drift).toBeUndefined();
  });

  it('a force delete during a partition leaves an orphan until the kubelet hears and stops the pod', async () => {
    await applied(r);
    r.driver.partitioned = true;
    run(r, 5);
    r.api.wrap().forceDelete?.(UID);
    expect(r.api.pod(UID)).toBeUndefined();
    run(r, 6);
    const drift = r.state().nodes[NODE]?.pods[UID]?.drift;
    expect(kinds(drift)).toEqual(['orphanSandbox']);
    expect(drift?.[0]?.why.id).toBe('drift.orphan.deleted');
    expect(r.driver.delete).not.toHaveBeenCalled();
    r.driver.partitioned = false;
    run(r, 1);
    expect(r.driver.delete).toHaveBeenCalledWith(UID);
    expect(() => r.api.wrap().forceDelete?.(UID)).toThrow(/no pod/);
  });

  it('a graceful deletion or an eviction marks the pod; the kubelet removes it once its containers are gone', async () => {
    await applied(r);
    const d = r.api.wrap();
    d.evict?.(UID);
    expect(r.driver.evict).toHaveBeenCalledWith(UID);
    expect(r.api.pod(UID)?.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect(r.api.pod(UID)?.metadata?.deletionGracePeriodSeconds).toBe(5);
    run(r, 3);
    expect(r.api.pod(UID)).toBeDefined();
    // The pod's containers are gone from the node: the kubelet's final delete.
    r.driver.running.delete(UID);
    r.view.pod = undefined;
    run(r, 1);
    expect(r.api.pod(UID)).toBeUndefined();
    expect(r.api.apiObjects().deletedPods?.[UID]).toBe(r.clock.now());
  });

  it('the runner calls a pod in sync only once the API server holds what the node shows at that moment', async () => {
    // The race partition-drift lost in CI: the node showed the pod Running and Ready before the
    // writers' next round posted it, the comparison from their last round had no finding, the
    // step passed, and the partition that followed froze the API server's copy at Pending.
    const base = findScenario('partition-drift');
    if (!base) throw new Error('no partition-drift scenario');
    const scenario = parseScenario(
      {
        ...base,
        steps: [{ do: 'apply', pod: 'cache', expect: [{ pod: 'cache', synced: true }] }],
      },
      'synced',
    );
    // The node already shows the pod running when the runner first looks (a relist came first).
    r.view.pod = {
      ...podView({ uid: UID, name: 'redis-0', node: NODE, phase: 'Running', containers: [] }),
      namespace: 'shop',
    };
    const result = await runScenario(scenario, {
      driver: r.api.wrap(),
      api: r.api,
      clock: r.clock,
      observe: () => r.state(),
      keep: true,
    });
    expect(result.steps.map((s) => s.status)).toEqual(['passed']);
    expect(r.api.pod(UID)?.status?.phase).toBe('Running');
    expect(r.api.pod(UID)?.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
  });
});
