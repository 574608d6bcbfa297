/**
 * The API server's view in cluster mode (api-view.ts) with two console replicas on a real
 * nats-server and PostgreSQL (test/cluster/harness) and the fake API server
 * (test/fake-apiserver): one replica — the Lease holder — watches the API server (counted on the
 * fake server's open watches), both serve the same Events and drift under the same global ids,
 * the other takes over when the leader is killed, and a forged API-view message is refused.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { K8sEvent, TimelineEvent } from '@/lib/timeline/events';
import { FakeApiServer, seed, waitFor } from '@/test/fake-apiserver';
import {
  natsMissing,
  startNatsAndPostgres,
  type NatsInstance,
  type PostgresInstance,
} from '@/test/cluster/harness';
import { KubeView } from '@/server/kube/view';
import { electApiView } from './api-view';
import { connectBus } from './bus/connection';
import { BusPublisher } from './bus/publisher';
import { ReplicaReader } from './bus/reader';
import { ClusterSource } from './console';
import { encodeMessageV1, newApiEpoch, newEpoch, type EventsMessage } from './envelope';
import { heartbeatOf, nodeAddedMessage } from './testing';
import { openClusterTimeline } from './timeline/timeline';
import { ClusterWriter } from './writer';

const TIMING = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 250 };
const NS = 'podscope';
const CLUSTER = 'apiview';
const quiet = () => {};
const skip = natsMissing();

let nats: NatsInstance;
let pgi: PostgresInstance;
let api: FakeApiServer;
let kc: KubeConfig;
let agentBus: BusPublisher;
let db: string;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (skip) return;
  [nats, pgi] = await startNatsAndPostgres();
  api = new FakeApiServer();
  seed(api.store);
  await api.start();
  kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(api.kubeconfig()));
  agentBus = new BusPublisher(
    await connectBus({ servers: nats.url, cluster: CLUSTER, log: quiet }),
  );
  db = await pgi.createDatabase('apiview');
}, 120_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {});
  await agentBus?.bus.close();
  await api?.stop();
  await nats?.destroy();
  await pgi?.destroy();
});

const until = (what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 30_000) =>
  waitFor(what, ok, timeoutMs);

/** A console replica as server/runtime/cluster.ts makes one: bus, writer, view, the election. */
async function replica(name: string) {
  const lines: string[] = [];
  const bus = await connectBus({ servers: nats.url, cluster: CLUSTER, log: (l) => lines.push(l) });
  const reader = new ReplicaReader(bus);
  const timeline = await openClusterTimeline({ url: db });
  const writer = new ClusterWriter({ reader, timeline, log: quiet, ackWaitMs: 2_000 }).start();
  const source = new ClusterSource({ reader, timeline, writer, graceMs: 60_000 });
  const applied: TimelineEvent[] = [];
  source.view.onApplied((events) => {
    for (const e of events) if (e.kind !== 'gap') applied.push(e);
  });
  const election = electApiView({
    bus,
    source,
    kube: (o) => new KubeView({ kubeconfig: kc, backoff: { initialMs: 20, maxMs: 100 }, ...o }),
    bridge: { intervalMs: 200, settleMs: 50 },
    log: (l) => lines.push(l),
    lease: { kubeconfig: kc, namespace: NS, name: 'api-view', identity: name, ...TIMING },
  });
  source.addMetrics(election.publisher.registry);
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
    name,
    bus,
    source,
    election,
    applied,
    lines,
    get leads() {
      return election.publisher.watching;
    },
    k8s: () => applied.filter((e): e is K8sEvent => e.kind === 'k8s'),
    async stop() {
      await election.stop();
      await close();
    },
    /** As SIGKILL would: no Lease release; its sockets (API watches, NATS) close with it. */
    async kill() {
      await election.abandon();
      await close();
    },
  };
  cleanup.push(() => r.stop());
  return r;
}

let events = 0;
/** A new Event about node-a, as the kubelet would record it. */
function recordEvent(reason: string): void {
  const at = new Date().toISOString();
  events++;
  api.store.upsert('events', {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `node-a.test${events}`, namespace: 'default', uid: `test-event-${events}` },
    involvedObject: { kind: 'Node', name: 'node-a', uid: 'node-a' },
    reason,
    message: `${reason} on node-a`,
    type: 'Warning',
    count: 1,
    firstTimestamp: at,
    lastTimestamp: at,
    source: { component: 'kubelet', host: 'node-a' },
  });
}

/** Every API collection watched once at most: the API server is not watched per replica. */
const watchedOnce = () =>
  (['nodes', 'pods', 'leases', 'events'] as const).every((r) => api.openWatches(r) <= 1);

describe.skipIf(skip)('the API server view in cluster mode (Lease, NATS, PostgreSQL)', () => {
  it('one replica watches the API server; both serve its Events and drift under the same ids; the other takes over when it dies', async () => {
    // The agents of node-a and node-b, as far as the replicas need them: the nodes exist, alive.
    const epoch = newEpoch();
    for (const node of ['node-a', 'node-b']) {
      await agentBus.publish(nodeAddedMessage(CLUSTER, node, epoch));
      await agentBus.putHeartbeat(heartbeatOf(CLUSTER, node, epoch, 1));
    }
    const a = await replica('replica-a');
    const b = await replica('replica-b');
    await until('a leader', () => a.leads || b.leads);
    const [leader, other] = a.leads ? [a, b] : [b, a];
    await until('the API watches open', () => api.openWatches('events') === 1, 15_000);

    // Drift: the fixtures' node Leases are months old while the agents heartbeat now — the
    // leader compares and publishes; each replica shows the same drift from the stream.
    const driftOf = (r: typeof a) => r.source.snapshot().nodes['node-a']?.drift ?? [];
    // The leader publishes drift as it finds it (missing pods may come before the stale Lease),
    // so wait for what is expected, then for the other replica to have applied the same.
    const kinds = (r: typeof a) => driftOf(r).map((d) => d.kind);
    await until('kubeletNotReporting on both replicas', () =>
      [a, b].every((r) => kinds(r).includes('kubeletNotReporting')),
    );
    await until(
      'the same drift on both replicas',
      () => JSON.stringify(driftOf(a)) === JSON.stringify(driftOf(b)),
    );
    expect(driftOf(a)).toEqual(driftOf(b));

    // An Event reaches both replicas once, with one global id.
    recordEvent('FirstWarning');
    await until('the Event on both replicas', () =>
      [a, b].every((r) => r.k8s().some((e) => e.reason === 'FirstWarning')),
    );
    const first = (r: typeof a) => r.k8s().filter((e) => e.reason === 'FirstWarning');
    expect(first(a)).toHaveLength(1);
    expect(first(a)).toEqual(first(b));

    // Only the leader watches: one watch per collection, though two replicas run.
    expect(other.leads).toBe(false);
    for (let i = 0; i < 10; i++) {
      expect(watchedOnce()).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(api.openWatches()).toBe(4);
    expect(await leader.source.metrics()).toMatch(/^podscope_cluster_api_view_leading 1$/m);
    expect(await other.source.metrics()).toMatch(/^podscope_cluster_api_view_leading 0$/m);
    const podWatchesBefore = api.watchRequests('pods').length;

    // The leader dies (no release): the other takes over once the Lease has expired.
    const oldEpoch = leader.election.publisher.epoch;
    const killedAt = Date.now();
    await leader.kill();
    // Recorded while nobody holds the Lease: the next leader's first list brings it.
    recordEvent('DuringGap');
    await until('the other replica to lead', () => other.leads, 15_000);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeGreaterThanOrEqual(TIMING.leaseDurationMs - 250);
    expect(other.election.publisher.epoch).not.toBe(oldEpoch);
    await until('its API watches', () => api.openWatches('events') === 1, 15_000);
    expect(watchedOnce()).toBe(true);
    expect(api.watchRequests('pods').length).toBeGreaterThan(podWatchesBefore);

    recordEvent('AfterTakeover');
    await until('the Event from the new leader', () =>
      other.k8s().some((e) => e.reason === 'AfterTakeover'),
    );
    await until('the Event of the gap', () => other.k8s().some((e) => e.reason === 'DuringGap'));
    // Each once: the new leader's first list held FirstWarning too, already on the stream.
    for (const reason of ['FirstWarning', 'DuringGap', 'AfterTakeover'])
      expect(
        other.k8s().filter((e) => e.reason === reason),
        reason,
      ).toHaveLength(1);
    // The fixtures' Events, months old, are history: no leader published them.
    expect(other.k8s().some((e) => e.reason === 'Scheduled')).toBe(false);
    expect(driftOf(other).map((d) => d.kind)).toContain('kubeletNotReporting');

    // The timeline database holds what the API view published (the writers committed it).
    await until('the Events in PostgreSQL', async () => {
      const rows = await other.source.range({ afterSeq: 0, limit: 10_000 });
      return rows.filter((e) => e.kind === 'k8s').length >= 3;
    });
  }, 120_000);

  it('refuses, counts and logs an API-view message that claims more than Events and drift', async () => {
    const r = await replica('replica-c');
    const before = r.bus.refusals.total('bad-api-event');
    const appliedBefore = r.applied.length;
    const forged: EventsMessage = {
      v: 1,
      type: 'events',
      cluster: CLUSTER,
      node: 'node-a',
      epoch: newApiEpoch(),
      seq: 1,
      t: Date.now(),
      events: [
        {
          kind: 'node',
          type: 'NodeUpdated',
          seq: 1,
          t: Date.now(),
          node: 'node-a',
          health: { connected: false, lastError: 'forged' },
        },
      ],
    };
    await r.bus.js.publish(r.bus.names.eventSubject('node-a'), encodeMessageV1(forged));
    await until('the refusal', () => r.bus.refusals.total('bad-api-event') > before);
    expect(r.lines.some((l) => /bad-api-event/.test(l))).toBe(true);
    expect(r.source.snapshot().nodes['node-a']?.health.lastError).not.toBe('forged');
    expect(r.applied.slice(appliedBefore).some((e) => e.t === forged.t && e.kind === 'node')).toBe(
      false,
    );
  }, 60_000);
});
