/**
 * Leader election over a coordination.k8s.io/v1 Lease (server/kube/lease.ts) against the fake
 * API server (test/fake-apiserver: Lease get/create/replace with resourceVersion conflicts), with
 * each leader publishing on a real nats-server (test/cluster/harness) while it leads — the shape
 * of the console replica that watches the API server for the others. Checked from what a
 * subscriber receives: one publisher at a time, a killed leader replaced only after its lease
 * expired, a released one at once, and a leader cut off from the API server stepping down
 * before anyone else can take over.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeApiServer } from '@/test/fake-apiserver';
import { natsMissing, startNats, type NatsInstance } from '@/test/cluster/harness';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { LeaseElector } from './lease';

const TIMING = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 250 };
const NS = 'podscope';

let api: FakeApiServer;
let nats: NatsInstance;
let kc: KubeConfig;
let nc: NatsConnection;

const skip = natsMissing();

beforeAll(async () => {
  if (skip) return;
  api = await new FakeApiServer().start();
  kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(api.kubeconfig()));
  nats = await startNats();
  nc = await connect({ servers: nats.url });
}, 60_000);

afterAll(async () => {
  await nc?.close();
  await nats?.destroy();
  await api?.stop();
});

const until = async (what: string, ok: () => boolean, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A replica: an elector, and while it leads, a publisher of numbered messages. */
async function replica(name: string, lease: string) {
  const conn = await connect({ servers: nats.url });
  let timer: ReturnType<typeof setInterval> | undefined;
  let n = 0;
  const starts: number[] = [];
  const elector = new LeaseElector({
    kubeconfig: kc,
    namespace: NS,
    name: lease,
    identity: name,
    ...TIMING,
    onStartedLeading() {
      starts.push(Date.now());
      timer = setInterval(() => conn.publish(`leader.${lease}`, `${name} ${++n}`), 25);
    },
    onStoppedLeading() {
      clearInterval(timer);
      timer = undefined;
    },
  });
  elector.start();
  return {
    name,
    elector,
    starts,
    get publishing() {
      return timer !== undefined;
    },
    async close() {
      await elector.stop();
      await conn.drain();
    },
    /** As SIGKILL would: no release, no more renewals, no more messages. */
    async kill() {
      elector.abandon();
      await conn.close();
    },
  };
}

/** Everything published on the lease's subject, in order of arrival. */
function listen(lease: string) {
  const got: { from: string; at: number }[] = [];
  const sub = nc.subscribe(`leader.${lease}`);
  void (async () => {
    for await (const m of sub) got.push({ from: m.string().split(' ')[0] ?? '', at: Date.now() });
  })();
  return {
    got,
    /** Publishers in the order they took turns: a name appears again only after another's turn. */
    turns: () => got.map((g) => g.from).filter((f, i, all) => i === 0 || all[i - 1] !== f),
    stop: () => sub.unsubscribe(),
  };
}

const leaseOf = (name: string) =>
  api.store.get('leases', NS, name)?.spec as
    | { holderIdentity?: string; leaseTransitions?: number; leaseDurationSeconds?: number }
    | undefined;

describe.skipIf(skip)('LeaseElector (fake API server, real nats-server)', () => {
  it('two replicas: one leads and publishes; kill it and the other takes over once the lease expires, never both at once', async () => {
    const bus = listen('kill');
    const a = await replica('replica-a', 'kill');
    const b = await replica('replica-b', 'kill');
    await until('a leader', () => a.elector.isLeader || b.elector.isLeader);
    const [leader, other] = a.elector.isLeader ? [a, b] : [b, a];
    await until('messages from the leader', () => bus.got.length >= 10);
    await until('the follower to see the leader', () => other.elector.leader === leader.name);
    expect(other.elector.isLeader).toBe(false);
    expect(leaseOf('kill')).toMatchObject({ holderIdentity: leader.name, leaseTransitions: 0 });

    const killedAt = Date.now();
    await leader.kill();
    await until('the other replica to lead', () => other.elector.isLeader, 15_000);
    const tookOver = other.starts[0] ?? 0;
    // Not before the lease ran out (as the follower observed it; a renew just before the kill
    // may make it up to a retry period less than the duration from the kill).
    expect(tookOver - killedAt).toBeGreaterThanOrEqual(
      TIMING.leaseDurationMs - TIMING.retryPeriodMs,
    );
    await until('messages from the new leader', () => bus.turns().length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(bus.turns()).toEqual([leader.name, other.name]);
    expect(leaseOf('kill')).toMatchObject({ holderIdentity: other.name, leaseTransitions: 1 });
    bus.stop();
    await other.close();
  }, 60_000);

  it('a replica that stops releases the lease: the other leads at once, not after the lease expires', async () => {
    const bus = listen('release');
    const a = await replica('replica-a', 'release');
    await until('a to lead', () => a.elector.isLeader);
    const b = await replica('replica-b', 'release');
    await new Promise((r) => setTimeout(r, 3 * TIMING.retryPeriodMs));
    expect(b.elector.isLeader).toBe(false);
    const stoppedAt = Date.now();
    await a.close();
    expect(leaseOf('release')?.holderIdentity).toBe('');
    await until('b to lead', () => b.elector.isLeader, 10_000);
    // The released lease is 1 s long and empty-handed: taken within a retry or two.
    expect((b.starts[0] ?? 0) - stoppedAt).toBeLessThan(TIMING.leaseDurationMs);
    await until('b publishing', () => bus.turns().length === 2);
    expect(bus.turns()).toEqual(['replica-a', 'replica-b']);
    bus.stop();
    await b.close();
  }, 60_000);

  it('a leader cut off from the API server steps down within the renew deadline, before the lease can pass to another', async () => {
    const a = await replica('replica-a', 'cut');
    await until('a to lead', () => a.elector.isLeader);
    api.failLeases = true;
    const cutAt = Date.now();
    try {
      await until('a to step down', () => !a.elector.isLeader, 10_000);
      const after = Date.now() - cutAt;
      expect(after).toBeLessThan(TIMING.leaseDurationMs);
      expect(a.publishing).toBe(false);
    } finally {
      api.failLeases = false;
    }
    // Back in touch: the lease is still its own, so it leads again.
    await until('a to lead again', () => a.elector.isLeader, 10_000);
    expect(leaseOf('cut')?.holderIdentity).toBe('replica-a');
    await a.close();
  }, 60_000);

  it('replicas starting together: the create race and resourceVersion conflicts leave exactly one leader', async () => {
    const replicas = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((n) => replica(n, 'race')));
    await until('a leader', () => replicas.some((r) => r.elector.isLeader));
    await new Promise((r) => setTimeout(r, 4 * TIMING.retryPeriodMs));
    const leaders = replicas.filter((r) => r.elector.isLeader);
    expect(leaders.map((r) => r.name)).toEqual([leaseOf('race')?.holderIdentity]);
    await Promise.all(replicas.map((r) => r.close()));
  }, 60_000);

  it('the fake API server keeps Leases as the real one does: 404, 409 AlreadyExists, 409 Conflict on a stale resourceVersion', async () => {
    const coord = kc.makeApiClient(CoordinationV1Api);
    const name = 'optimistic';
    await expect(coord.readNamespacedLease({ name, namespace: NS })).rejects.toMatchObject({
      code: 404,
    });
    const body = { metadata: { name, namespace: NS }, spec: { holderIdentity: 'x' } };
    const made = await coord.createNamespacedLease({ namespace: NS, body });
    await expect(coord.createNamespacedLease({ namespace: NS, body })).rejects.toMatchObject({
      code: 409,
    });
    const first = await coord.replaceNamespacedLease({
      name,
      namespace: NS,
      body: { ...made, spec: { holderIdentity: 'y' } },
    });
    expect(first.metadata?.resourceVersion).not.toBe(made.metadata?.resourceVersion);
    // A second writer that read the same version as the first loses.
    await expect(
      coord.replaceNamespacedLease({
        name,
        namespace: NS,
        body: { ...made, spec: { holderIdentity: 'z' } },
      }),
    ).rejects.toMatchObject({ code: 409 });
    expect((await coord.readNamespacedLease({ name, namespace: NS })).spec?.holderIdentity).toBe(
      'y',
    );
  });

  it('refuses timings that would let two replicas lead at once', () => {
    const base = { kubeconfig: kc, namespace: NS, name: 'x', identity: 'x' };
    const cb = { onStartedLeading() {}, onStoppedLeading() {} };
    expect(
      () => new LeaseElector({ ...base, ...cb, leaseDurationMs: 1000, renewDeadlineMs: 1000 }),
    ).toThrow(/leaseDurationMs/);
    expect(
      () =>
        new LeaseElector({
          ...base,
          ...cb,
          leaseDurationMs: 3000,
          renewDeadlineMs: 1000,
          retryPeriodMs: 900,
        }),
    ).toThrow(/retryPeriodMs/);
  });
});
