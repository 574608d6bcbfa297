/**
 * The API server's pod specs in cluster mode, end to end on a real nats-server and PostgreSQL
 * (test/cluster/harness), the fake API server (test/fake-apiserver) and real agents on simulated
 * runtimes: the Lease holder writes each node's specs (spec-publisher.ts), each agent hands its
 * own node's to its engine (agent/specs.ts). Faults: an agent started after the specs were
 * written, a pod deleted from the API server, the leader killed (the agents keep their specs, the
 * next leader writes only what changed and deletes what went meanwhile), NATS restarted, and a
 * malformed, foreign or misrouted entry (refused and counted). And the point of it all: a pod
 * whose status depends on its spec is derived by the agent exactly as the embedded engine
 * derives it with KubeView — and not as the CRI alone would have it.
 */
import { KubeConfig, type V1NodeSystemInfo, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodView } from '@/lib/timeline/state';
import { agentFixture, IMAGE, quiet } from '@/server/agent/testing/fixture';
import type { Agent } from '@/server/agent/agent';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { createNodeEngine, type NodeEngine } from '@/server/engine/node/node-engine';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { KubeView } from '@/server/kube/view';
import type { SimNode } from '@/server/sim';
import { FakeApiServer, seed, waitFor } from '@/test/fake-apiserver';
import { startPostgres, type PostgresInstance } from '@/test/cluster/harness';
import { electApiView } from './api-view';
import { connectBus } from './bus/connection';
import { ReplicaReader } from './bus/reader';
import { ClusterSource } from './console';
import { newApiEpoch } from './envelope';
import { openSpecsBucket } from './specs';
import { openClusterTimeline } from './timeline/timeline';
import { ClusterWriter } from './writer';

const TIMING = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 250 };
const CLUSTER = 'specs';
const NODE = 'spec-node-1.example';

const fx = agentFixture();
let pgi: PostgresInstance;
let api: FakeApiServer;
let kc: KubeConfig;
let db: string;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  pgi = await startPostgres();
  api = new FakeApiServer();
  seed(api.store);
  await api.start();
  kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(api.kubeconfig()));
  db = await pgi.createDatabase('specs');
  api.store.upsert('nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: NODE },
    status: {
      addresses: [{ type: 'InternalIP', address: '10.9.8.7' }],
      nodeInfo: { kubeletVersion: 'v1.29.6' } as V1NodeSystemInfo,
    },
  });
}, 120_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {});
  await api?.stop();
  await pgi?.destroy();
});

const until = (what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 30_000) =>
  waitFor(what, ok, timeoutMs);

/** A console replica as server/runtime/cluster.ts makes one: bus, writer, view, the election. */
async function replica(name: string) {
  const bus = await connectBus({ servers: fx.nats.url, cluster: CLUSTER, log: quiet });
  const reader = new ReplicaReader(bus);
  const timeline = await openClusterTimeline({ url: db });
  const writer = new ClusterWriter({ reader, timeline, log: quiet, ackWaitMs: 2_000 }).start();
  const source = new ClusterSource({ reader, timeline, writer, graceMs: 60_000 });
  const election = electApiView({
    bus,
    source,
    kube: (o) => new KubeView({ kubeconfig: kc, backoff: { initialMs: 20, maxMs: 100 }, ...o }),
    bridge: { intervalMs: 200, settleMs: 50 },
    log: quiet,
    lease: { kubeconfig: kc, namespace: 'podscope', name: 'specs', identity: name, ...TIMING },
  });
  await source.start();
  let dead = false;
  const close = async () => {
    if (dead) return;
    dead = true;
    await source.stop();
    await writer.stop();
    await bus.close();
    await timeline.close();
  };
  const r = {
    election,
    get leads() {
      return election.publisher.watching;
    },
    stats: election.publisher.stats,
    async stop() {
      await election.stop();
      await close();
    },
    async kill() {
      await election.abandon();
      await close();
    },
  };
  cleanup.push(() => r.stop());
  return r;
}

/** The API server's pod for a simulated one (uid `uid-<name>`, container `main`), on NODE. */
function apiPod(name: string, spec: Partial<NonNullable<V1Pod['spec']>> = {}) {
  api.store.upsert('pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      nodeName: NODE,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 5,
      containers: [
        { name: 'main', image: IMAGE, env: [{ name: 'TOKEN', value: 'not-for-nodes' }] },
      ],
      ...spec,
    },
    status: { phase: 'Pending' },
  });
}

/** The simulated pod: one container that exits 3 after a second. */
function simPod(node: SimNode, name: string) {
  return fx.addPod(node, name, ['sh', '-c', 'sleep 1; exit 3']);
}

const podOf = (a: Agent, uid: string): PodView | undefined => a.view()?.pods[uid];

/** What a console shows of a pod, as far as the spec decides it. */
const shown = (p: PodView | undefined) =>
  p && {
    specSource: p.specSource,
    spec: p.spec,
    phase: p.status.phase,
    reason: p.status.reason,
    hostIP: p.status.hostIP,
    containers: (p.status.containerStatuses ?? []).map((c) => ({
      name: c.name,
      state: Object.keys(c.state ?? {}).filter((k) => (c.state as Record<string, unknown>)[k]),
      waiting: c.state?.waiting?.reason,
      exitCode: c.state?.terminated?.exitCode,
      restartCount: c.restartCount,
    })),
    conditions: (p.status.conditions ?? []).map((c) => `${c.type}=${c.status}`).sort(),
  };

/** The embedded console's engine on the same runtime: KubeView as its provider. */
async function embeddedEngine(endpoint: string) {
  const kube = new KubeView({ kubeconfig: kc, backoff: { initialMs: 20, maxMs: 100 } });
  const client = criRuntime(endpoint, { timeoutMs: 2_000 });
  const engines: NodeEngine[] = [];
  const make = (providers: KubeView[]) => {
    const e = createNodeEngine({
      name: NODE,
      client,
      timings: { ...DEFAULT_ENGINE_TIMINGS, relistMs: 200 },
      providers,
      onEvents: () => {},
    });
    engines.push(e);
    return e;
  };
  const withApi = make([kube]);
  kube.onChange((uids) => withApi.rederive(new Set(uids)));
  const criOnly = make([]);
  kube.start();
  await kube.synced();
  for (const e of engines) e.start();
  cleanup.push(async () => {
    for (const e of engines) e.stop();
    await kube.stop();
    client.close();
  });
  return { withApi, criOnly };
}

describe('API pod specs for the agents (cluster mode)', () => {
  it('an agent started after the specs were written derives its pods as the embedded engine does; a deleted pod loses its spec', async () => {
    apiPod('failer');
    const a = await replica('replica-a');
    await until('a leader', () => a.leads);
    const { bus } = await fx.reader(CLUSTER);
    const kv = await openSpecsBucket(bus);
    const key = bus.names.podSpecKey(NODE, 'uid-failer');
    await until('the spec in the bucket', async () => (await kv.get(key))?.operation === 'PUT');
    // Compact: no env values, no managed fields — what the kubelet's rules read.
    const stored = (await kv.get(key))?.json<{ pod: V1Pod; epoch: string }>();
    expect(stored?.pod.spec?.containers[0]).toEqual({ name: 'main', image: IMAGE });
    expect(stored?.epoch).toBe(a.election.publisher.epoch);
    await until('the node in the bucket', async () => {
      const e = await kv.get(bus.names.nodeSpecKey(NODE));
      return e?.operation === 'PUT' && e.json<{ hostIPs: string[] }>().hostIPs[0] === '10.9.8.7';
    });

    // Only now the node, its pod and its agent: the bucket gives the agent the latest specs.
    const { node } = await fx.simNode('specs-1');
    simPod(node, 'failer');
    const embedded = await embeddedEngine(node.endpoint);
    const agent = await fx.agent(fx.config(NODE, node.endpoint, CLUSTER));
    await until('the agent derives Failed from the API spec', () => {
      const p = podOf(agent, 'uid-failer');
      return p?.specSource === 'apiserver' && p.status.phase === 'Failed';
    });
    await until('the embedded engine too', () => {
      return embedded.withApi.view()?.pods['uid-failer']?.status.phase === 'Failed';
    });
    await new Promise((r) => setTimeout(r, 600)); // a few relists: settled
    // The Node's kubelet version reaches the agent through the bucket, as KubeView gives it to
    // the embedded engine: both derive with 1.29's rules and say where the version came from.
    const kubelet = { value: '1.29', source: 'api-server', reported: 'v1.29.6' };
    await until(
      'the agent applies the Node’s kubelet version',
      () => JSON.stringify(agent.view()?.kubelet) === JSON.stringify(kubelet),
    );
    expect(embedded.withApi.view()?.kubelet).toEqual(kubelet);
    const clusterShown = shown(podOf(agent, 'uid-failer'));
    expect(clusterShown).toEqual(shown(embedded.withApi.view()?.pods['uid-failer']));
    expect(clusterShown).toMatchObject({
      specSource: 'apiserver',
      phase: 'Failed',
      hostIP: '10.9.8.7',
      spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 5 },
    });
    // What the CRI alone says of the same pod: an inferred spec, restarted, not Failed.
    const criOnly = shown(embedded.criOnly.view()?.pods['uid-failer']);
    expect(criOnly?.specSource).not.toBe('apiserver');
    expect(criOnly?.phase).not.toBe('Failed');
    expect(await (await fetch(`http://${agent.address}/metrics`)).text()).toMatch(
      /podscope_cluster_refused_total/,
    );

    // Deleted from the API server: the key goes, the agent falls back to the CRI's spec.
    api.store.remove('pods', 'default', 'failer');
    await until('the key deleted', async () => (await kv.get(key))?.operation !== 'PUT');
    await until('the agent without the spec', () => {
      const p = podOf(agent, 'uid-failer');
      return agent.specs.specFor('uid-failer') === undefined && p?.specSource !== 'apiserver';
    });
    await a.stop();
  }, 120_000);

  it('a new leader keeps what is current and writes what changed; agents keep their specs meanwhile; NATS restarts; bad entries are refused', async () => {
    apiPod('keeper');
    apiPod('goner');
    const { node } = await fx.simNode('specs-2');
    simPod(node, 'keeper');
    const a = await replica('replica-b1');
    const b = await replica('replica-b2');
    await until('a leader', () => a.leads || b.leads);
    const [leader, other] = a.leads ? [a, b] : [b, a];
    const agent = await fx.agent(fx.config(NODE, node.endpoint, CLUSTER));
    await until('both specs at the agent', () =>
      ['uid-keeper', 'uid-goner'].every((u) => agent.specs.specFor(u) !== undefined),
    );
    await until('keeper Failed', () => podOf(agent, 'uid-keeper')?.status.phase === 'Failed');

    // The leader dies without releasing its Lease. Nobody writes specs now: the agent keeps them.
    await leader.kill();
    api.store.update('pods', 'default', 'keeper', (o) => {
      (o.spec as { terminationGracePeriodSeconds: number }).terminationGracePeriodSeconds = 7;
    });
    api.store.remove('pods', 'default', 'goner');
    await new Promise((r) => setTimeout(r, 500));
    expect(agent.specs.specFor('uid-goner')).toBeDefined();
    expect(podOf(agent, 'uid-keeper')?.specSource).toBe('apiserver');

    // The other takes over: it reconciles with the bucket — the change and the deletion arrive,
    // and what was current is not written again.
    await until('the other leads', () => other.leads, 15_000);
    await until(
      'the new grace period at the agent',
      () => podOf(agent, 'uid-keeper')?.spec.terminationGracePeriodSeconds === 7,
    );
    await until('goner gone', () => agent.specs.specFor('uid-goner') === undefined);
    const seeded = api.store.list('pods').length; // the fixtures' pods, also on the bucket
    expect(other.stats.specsWritten).toBeLessThan(seeded);
    expect(podOf(agent, 'uid-keeper')?.status.phase).toBe('Failed');

    // NATS stopped and restarted: specs kept meanwhile, a change made during it arrives after.
    await fx.nats.stop();
    api.store.update('pods', 'default', 'keeper', (o) => {
      (o.spec as { terminationGracePeriodSeconds: number }).terminationGracePeriodSeconds = 9;
    });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(podOf(agent, 'uid-keeper')?.specSource).toBe('apiserver');
    await fx.nats.start();
    await until(
      'the change after the restart',
      () => podOf(agent, 'uid-keeper')?.spec.terminationGracePeriodSeconds === 9,
      45_000,
    );

    // Malformed, foreign-cluster and misrouted entries under the agent's keys: refused, counted.
    const { bus } = await fx.reader(CLUSTER);
    const kv = await openSpecsBucket(bus);
    const key = bus.names.podSpecKey(NODE, 'uid-keeper');
    const good = (await kv.get(key))?.json<Record<string, unknown>>() ?? {};
    const before = agent.refusals.total();
    await kv.put(key, '{not json');
    await kv.put(key, JSON.stringify({ ...good, cluster: 'elsewhere' }));
    await kv.put(key, JSON.stringify({ ...good, node: 'another-node' }));
    await kv.put(key, JSON.stringify({ ...good, epoch: newApiEpoch(), pod: { spec: {} } }));
    await until('four refusals', () => agent.refusals.total() >= before + 4);
    expect(agent.refusals.total('not-json')).toBeGreaterThanOrEqual(1);
    expect(agent.refusals.total('foreign-cluster')).toBeGreaterThanOrEqual(1);
    expect(agent.refusals.total('subject-mismatch')).toBeGreaterThanOrEqual(1);
    expect(agent.refusals.total('bad-envelope')).toBeGreaterThanOrEqual(1);
    // The last good spec still in use.
    expect(podOf(agent, 'uid-keeper')?.spec.terminationGracePeriodSeconds).toBe(9);
    expect(agent.specs.specFor('uid-keeper')?.spec?.restartPolicy).toBe('Never');
  }, 180_000);
});
