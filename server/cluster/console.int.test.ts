/**
 * Console replicas in cluster mode over a real nats-server and PostgreSQL: cluster.watch over
 * real HTTP SSE with global ids; a browser whose replica dies resumes on another with
 * Last-Event-ID — no gap, no duplicate; node contact judged centrally by heartbeat age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, WatchClient } from '@/test/faults/sse';
import {
  startNatsAndPostgres,
  type NatsInstance,
  type PostgresInstance,
} from '@/test/cluster/harness';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { connectBus } from './bus/connection';
import { BusPublisher } from './bus/publisher';
import { ReplicaReader } from './bus/reader';
import { ClusterSource } from './console';
import { newEpoch, type BusMessage } from './envelope';
import { gidOf } from './global';
import { eventsMessage, heartbeatOf, nodeAddedMessage } from './testing';
import { openClusterTimeline } from './timeline/timeline';
import { ClusterWriter } from './writer';

let nats: NatsInstance;
let pgi: PostgresInstance;
let n = 0;
const cleanup: (() => Promise<unknown>)[] = [];
const quiet = () => {};

beforeAll(async () => {
  [nats, pgi] = await startNatsAndPostgres();
});
afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {});
  await nats?.destroy();
  await pgi?.destroy();
});

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One console replica: its own bus connection, writer, view and HTTP server. */
async function replica(cluster: string, url: string, graceMs = 60_000) {
  const bus = await connectBus({ servers: nats.url, cluster, log: quiet });
  const reader = new ReplicaReader(bus);
  const timeline = await openClusterTimeline({ url });
  const writer = new ClusterWriter({ reader, timeline, log: quiet, ackWaitMs: 2_000 }).start();
  const source = await new ClusterSource({
    reader,
    timeline,
    writer,
    graceMs,
    judgeEveryMs: 100,
  }).start();
  const http = await serve(source);
  let dead = false;
  const kill = async () => {
    if (dead) return;
    dead = true;
    await http.close();
    await source.stop();
    await writer.stop();
    await bus.close();
    await timeline.close();
  };
  cleanup.push(kill);
  return { bus: new BusPublisher(bus), timeline, writer, source, url: http.url, kill };
}

async function publisher(cluster: string) {
  const bus = await connectBus({ servers: nats.url, cluster, log: quiet });
  cleanup.push(() => bus.close());
  return new BusPublisher(bus);
}

/** A fake agent fleet: each node publishes runs of 3 events with consecutive seqs. */
function fleet(bus: BusPublisher, cluster: string, nodes: string[]) {
  const epoch = newEpoch();
  const seqs = new Map(nodes.map((node) => [node, 1]));
  const gids: number[] = [];
  const publish = async (message: BusMessage, count: number) => {
    const { streamSeq, duplicate } = await bus.publish(message);
    if (!duplicate) for (let i = 0; i < count; i++) gids.push(gidOf(streamSeq, i));
  };
  return {
    gids,
    async add() {
      for (const node of nodes) {
        await publish(nodeAddedMessage(cluster, node, epoch), 1);
        seqs.set(node, 2);
      }
    },
    async burst(messages: number) {
      for (let m = 0; m < messages; m++)
        for (const node of nodes) {
          const seq = seqs.get(node) ?? 1;
          await publish(eventsMessage(cluster, node, epoch, seq, 3), 3);
          seqs.set(node, seq + 3);
        }
    },
    heartbeat: (node: string) =>
      bus.putHeartbeat(heartbeatOf(cluster, node, epoch, (seqs.get(node) ?? 1) - 1)),
  };
}

describe('console replicas in cluster mode', () => {
  it('a browser whose replica dies resumes on another from its Last-Event-ID: no gap, no duplicate', async () => {
    const cluster = `fo${++n}`;
    const db = await pgi.createDatabase(cluster);
    const a = await replica(cluster, db);
    const b = await replica(cluster, db);
    const agents = fleet(await publisher(cluster), cluster, ['node-a', 'node.b']);
    await agents.add();
    await agents.burst(20);

    const browser = new WatchClient(`${a.url}`);
    const first = await browser.connect();
    await browser.read(first, () => browser.seq >= (agents.gids.at(-1) ?? 0));
    expect(browser.snapshots).toHaveLength(1);
    // Live events arrive from replica A under global ids.
    const live = agents.burst(30);
    await browser.read(first, () => browser.seqs.length >= 30);
    await a.kill(); // the serving replica dies while events keep coming
    await live;
    await agents.burst(10);
    const resumeFrom = Number(browser.lastEventId);
    const second = await browser.connect(b.url); // to replica B, with Last-Event-ID
    const last = agents.gids.at(-1) ?? 0;
    await browser.read(second, () => browser.seq >= last);
    second.close();

    expect(browser.snapshots).toHaveLength(1); // resumed, not restarted
    expect(browser.errors).toEqual([]);
    const received = [...browser.seqs];
    expect(new Set(received).size).toBe(received.length); // no duplicate
    expect(received).toEqual([...received].sort((x, y) => x - y));
    const expected = agents.gids.filter((g) => g > (browser.snapshots[0] ?? 0));
    expect(received).toEqual(expected); // no gap
    expect(received.some((g) => g > resumeFrom)).toBe(true);
    // Both replicas' writers committed every event once.
    await until(
      'the timeline holds every event',
      async () => (await b.timeline.count()) === agents.gids.length,
    );
  });

  it('resumes on a replica that started after the events, from PostgreSQL then the bus', async () => {
    const cluster = `late${++n}`;
    const db = await pgi.createDatabase(cluster);
    const a = await replica(cluster, db);
    const agents = fleet(await publisher(cluster), cluster, ['n1']);
    await agents.add();
    await agents.burst(40);
    const browser = new WatchClient(a.url);
    const c1 = await browser.connect();
    await browser.read(c1, () => browser.seq >= (agents.gids[10] ?? 0));
    c1.close();
    // The browser saw a snapshot at some point; now it has been away while more happened.
    await agents.burst(20);
    await until(
      'A committed everything',
      async () => (await a.timeline.count()) === agents.gids.length,
    );
    await a.kill();
    const late = await replica(cluster, db);
    const c2 = await browser.connect(late.url);
    const last = agents.gids.at(-1) ?? 0;
    await browser.read(c2, () => (browser.seqs.at(-1) ?? 0) >= last);
    c2.close();
    expect(browser.snapshots).toHaveLength(1);
    const after = agents.gids.filter((g) => g > (browser.snapshots[0] ?? 0));
    expect(browser.seqs).toEqual(after);
    expect(late.source.mode).toBe('cluster');
  });

  it('answers range and stateAt from the cluster timeline and refuses to connect nodes', async () => {
    const cluster = `q${++n}`;
    const db = await pgi.createDatabase(cluster);
    const a = await replica(cluster, db);
    const agents = fleet(a.bus, cluster, ['n1', 'n2']);
    await agents.add();
    await agents.burst(5);
    await until('committed', async () => (await a.timeline.count()) === agents.gids.length);
    const caller = createCaller(testContext({ engine: a.source }));
    const page = await caller.timeline.range({ limit: 7 });
    expect(page.events.map((e) => e.seq)).toEqual(agents.gids.slice(0, 7));
    expect(page.nextCursor).toBe(String(agents.gids[6]));
    const rest = await caller.timeline.range({ cursor: page.nextCursor ?? '', limit: 1000 });
    expect([...page.events, ...rest.events].map((e) => e.seq)).toEqual(agents.gids);
    expect(rest.nextCursor).toBeNull();
    const state = await caller.timeline.stateAt({ t: Date.now() + 60_000 });
    expect(Object.keys(state.nodes).sort()).toEqual(['n1', 'n2']);
    const past = await caller.timeline.stateAt({ t: 0 });
    expect(past.nodes).toEqual({});
    expect((await caller.nodes.list()).map((x) => x.name)).toEqual(['n1', 'n2']);
    const metrics = await a.source.metrics();
    const lastSeq = Math.floor((agents.gids.at(-1) ?? 0) / 1024);
    expect(metrics).toContain(`podscope_cluster_stream_seq ${lastSeq}`);
    expect(metrics).toContain(`podscope_cluster_events_applied ${agents.gids.length}`);
    expect(metrics).toContain('podscope_cluster_refused_total');
    await expect(
      caller.nodes.connect({ name: 'n3', endpoint: 'unix:///run/containerd/containerd.sock' }),
    ).rejects.toThrow(/podscope agent/);
  });

  it('turns a node Ready=Unknown when its agent stops heartbeating, and back when it returns', async () => {
    const cluster = `hb${++n}`;
    const db = await pgi.createDatabase(cluster);
    const graceMs = 1_500;
    const a = await replica(cluster, db, graceMs);
    const agents = fleet(a.bus, cluster, ['n1']);
    await agents.add();
    let beating = true;
    const beat = setInterval(() => void (beating && agents.heartbeat('n1')), 200);
    cleanup.push(() => Promise.resolve(clearInterval(beat)));
    const browser = new WatchClient(a.url);
    const c = await browser.connect();
    const connected = () => browser.state?.nodes.n1?.health.connected;
    await browser.read(c, () => connected() === true);
    beating = false;
    await browser.read(c, () => connected() === false, 15_000);
    const ready = browser.state?.nodes.n1?.conditions.find((x) => x.type === 'Ready');
    expect(ready?.status).toBe('Unknown');
    expect(ready?.reason).toBe('NodeStatusUnknown');
    beating = true;
    await browser.read(c, () => connected() !== false, 15_000);
    c.close();
    expect(browser.snapshots.length).toBeGreaterThanOrEqual(3);
  });
});

describe('two agents claiming one node name', () => {
  it('is shown on the node, sent to watchers as a fresh snapshot, and cleared when one stops', async () => {
    const cluster = `dup${++n}`;
    const db = await pgi.createDatabase(cluster);
    const a = await replica(cluster, db, 1_500);
    const bus = await publisher(cluster);
    const agents = fleet(bus, cluster, ['n1']);
    await agents.add();
    const intruder = newEpoch();
    let both = true;
    // One after the other: KV keeps one value per key, so a watcher can miss the first of two
    // puts landing together (real agents heartbeat seconds apart).
    const beat = setInterval(() => {
      void agents
        .heartbeat('n1')
        .then(() => (both ? bus.putHeartbeat(heartbeatOf(cluster, 'n1', intruder, 0)) : 0));
    }, 200);
    cleanup.push(() => Promise.resolve(clearInterval(beat)));
    const browser = new WatchClient(a.url);
    const c = await browser.connect();
    const error = () => browser.state?.nodes.n1?.health.lastError ?? '';
    await browser.read(c, () => /2 agents claim the node name n1/.test(error()), 15_000);
    expect(error()).toContain(intruder);
    const caller = createCaller(testContext({ engine: a.source }));
    expect((await caller.nodes.list())[0]?.lastError).toMatch(/2 agents claim/);
    both = false; // the second agent stops: after the grace period only one run is heard
    await browser.read(c, () => !/agents claim/.test(error()), 15_000);
    c.close();
  });
});
