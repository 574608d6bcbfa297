/**
 * overview.watch on console replicas in cluster mode (real nats-server and PostgreSQL): the
 * overview and the detail of the requested node from one replica, a resume on another replica
 * from Last-Event-ID with no gap and no duplicate, and nodes losing contact (judged by heartbeat
 * age, no event) reaching the overview as changed cells and one change group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import { connectBus } from '@/server/cluster/bus/connection';
import { BusPublisher } from '@/server/cluster/bus/publisher';
import { ReplicaReader } from '@/server/cluster/bus/reader';
import { ClusterSource } from '@/server/cluster/console';
import { newEpoch, type BusMessage } from '@/server/cluster/envelope';
import { gidOf } from '@/server/cluster/global';
import { eventsMessage, heartbeatOf, nodeAddedMessage } from '@/server/cluster/testing';
import { openClusterTimeline } from '@/server/cluster/timeline/timeline';
import { ClusterWriter } from '@/server/cluster/writer';
import type { OverviewWatchMessage } from '@/server/trpc/routers/overview';
import { serve, SseConnection } from '@/test/faults/sse';
import {
  startNatsAndPostgres,
  type NatsInstance,
  type PostgresInstance,
} from '@/test/cluster/harness';
import { OverviewIndex } from './index';

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
    OverviewIndex.of(source).stop();
    await http.close();
    await source.stop();
    await writer.stop();
    await bus.close();
    await timeline.close();
  };
  cleanup.push(kill);
  return { bus: new BusPublisher(bus), source, url: http.url, kill };
}

async function publisher(cluster: string) {
  const bus = await connectBus({ servers: nats.url, cluster, log: quiet });
  cleanup.push(() => bus.close());
  return new BusPublisher(bus);
}

/** Agents of `nodes`: each publishes runs of 3 events; the gids of each node's events are kept. */
function fleet(bus: BusPublisher, cluster: string, nodes: string[]) {
  const epoch = newEpoch();
  const seqs = new Map(nodes.map((node) => [node, 1]));
  const gids = new Map<string, number[]>(nodes.map((node) => [node, []]));
  const publish = async (node: string, message: BusMessage, count: number) => {
    const { streamSeq, duplicate } = await bus.publish(message);
    if (!duplicate) for (let i = 0; i < count; i++) gids.get(node)?.push(gidOf(streamSeq, i));
  };
  return {
    gids,
    async add() {
      for (const node of nodes) {
        await publish(node, nodeAddedMessage(cluster, node, epoch), 1);
        seqs.set(node, 2);
      }
    },
    async burst(messages: number, only = nodes) {
      for (let m = 0; m < messages; m++)
        for (const node of only) {
          const seq = seqs.get(node) ?? 1;
          await publish(node, eventsMessage(cluster, node, epoch, seq, 3), 3);
          seqs.set(node, seq + 3);
        }
    },
    heartbeat: (node: string) =>
      bus.putHeartbeat(heartbeatOf(cluster, node, epoch, (seqs.get(node) ?? 1) - 1)),
  };
}

/** A tab's end of overview.watch: the messages in order, the detail events, the last id. */
class OverviewTab {
  readonly messages: OverviewWatchMessage[] = [];
  readonly events: TimelineEvent[] = [];
  lastEventId: string | undefined;

  constructor(private readonly input: object) {}

  connect(base: string): Promise<SseConnection> {
    const input = encodeURIComponent(JSON.stringify(this.input));
    return SseConnection.open(`${base}/overview.watch?input=${input}`, this.lastEventId);
  }

  async read(c: SseConnection, done: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out (last id ${this.lastEventId})`);
      const frame = await c.next();
      if (!frame) throw new Error('the stream ended');
      if (frame.id === undefined || frame.data === undefined) continue;
      const m = decode<OverviewWatchMessage>(frame.data);
      this.messages.push(m);
      if (m.type === 'events') this.events.push(...m.events);
      this.lastEventId = frame.id;
    }
  }
}

async function until(what: string, ok: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const nodeNames = (count: number) => Array.from({ length: count }, (_, i) => `node-${i}`);

describe('overview.watch in cluster mode', () => {
  it('the detail of one node from one replica, resumed on another with no gap and no duplicate', async () => {
    const cluster = `ov${++n}`;
    const db = await pgi.createDatabase(cluster);
    const a = await replica(cluster, db);
    const b = await replica(cluster, db);
    const names = nodeNames(40);
    const agents = fleet(await publisher(cluster), cluster, names);
    await agents.add();
    await until('A holds every node', () => Object.keys(a.source.snapshot().nodes).length === 40);
    const tab = new OverviewTab({ nodes: ['node-7'] });
    const c1 = await tab.connect(a.url);
    await tab.read(c1, () => tab.messages.some((m) => m.type === 'snapshot'));
    const first = tab.messages[0];
    if (first?.type !== 'overview') throw new Error('no overview first');
    expect(first.cells.names).toHaveLength(40);
    const snap = tab.messages.find((m) => m.type === 'snapshot');
    expect(snap?.type === 'snapshot' && Object.keys(snap.state.nodes)).toEqual(['node-7']);
    await agents.burst(5);
    const mine = () => agents.gids.get('node-7') ?? [];
    await tab.read(c1, () => (tab.events.at(-1)?.seq ?? 0) >= (mine().at(-1) ?? 0));
    await a.kill();
    await agents.burst(5);
    const c2 = await tab.connect(b.url);
    await tab.read(c2, () => (tab.events.at(-1)?.seq ?? 0) >= (mine().at(-1) ?? 0));
    c2.close();
    expect(tab.messages.filter((m) => m.type === 'overview')).toHaveLength(2);
    expect(tab.messages.filter((m) => m.type === 'snapshot')).toHaveLength(1);
    expect(new Set(tab.events.map((e) => e.node))).toEqual(new Set(['node-7']));
    const since = snap?.type === 'snapshot' ? snap.state.seq : 0;
    expect(tab.events.map((e) => e.seq)).toEqual(mine().filter((g) => g > since));
    // Replica B's overview holds every node, without a pod.
    const again = tab.messages.filter((m) => m.type === 'overview').at(-1);
    expect(again?.type === 'overview' && again.cells.names.length).toBe(40);
  });

  it('nodes that stop heartbeating turn Unknown in the overview, as one change group', async () => {
    const cluster = `ovhb${++n}`;
    const db = await pgi.createDatabase(cluster);
    const a = await replica(cluster, db, 1_500);
    const names = nodeNames(10);
    const agents = fleet(a.bus, cluster, names);
    await agents.add();
    const quiet = new Set(names.slice(0, 4));
    let stopped = false;
    const beat = setInterval(() => {
      for (const node of names) if (!stopped || !quiet.has(node)) void agents.heartbeat(node);
    }, 200);
    cleanup.push(() => Promise.resolve(clearInterval(beat)));
    const tab = new OverviewTab({});
    const c = await tab.connect(a.url);
    const ready = new Map<string, string>();
    const fold = () => {
      for (const m of tab.messages.splice(0)) {
        if (m.type === 'overview')
          m.cells.names.forEach((x, i) => ready.set(x, m.cells.ready[i] ?? ''));
        if (m.type === 'overview-delta')
          m.cells.index.forEach((i, k) => ready.set(names[i] ?? '', m.cells.ready[k] ?? ''));
        if (m.type !== 'overview' && m.type !== 'overview-delta') continue;
        const groups = m.changes ?? [];
        if (groups.length > 0) latest = groups;
      }
    };
    let latest: { what: string; to: string; count: number }[] = [];
    await until('A holds every node', () => Object.keys(a.source.snapshot().nodes).length === 10);
    await tab.read(c, () => {
      fold();
      return ready.size === 10;
    });
    stopped = true;
    await tab.read(
      c,
      () => {
        fold();
        return [...quiet].every((x) => ready.get(x) === 'Unknown');
      },
      20_000,
    );
    await tab.read(
      c,
      () => {
        fold();
        return latest.some((g) => g.what === 'node.ready' && g.to === 'Unknown');
      },
      5_000,
    );
    c.close();
    expect(names.filter((x) => !quiet.has(x)).some((x) => ready.get(x) === 'Unknown')).toBe(false);
    const group = latest.find((g) => g.what === 'node.ready' && g.to === 'Unknown');
    expect(group?.count).toBe(4);
  });
});
