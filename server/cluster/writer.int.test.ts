import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startNatsAndPostgres,
  type NatsInstance,
  type PostgresInstance,
} from '@/test/cluster/harness';
import { connectBus, type BusConnection } from './bus/connection';
import { BusPublisher } from './bus/publisher';
import { ReplicaReader } from './bus/reader';
import type { BusMessage } from './envelope';
import { newEpoch } from './envelope';
import { eventsMessage } from './testing';
import { openClusterTimeline, type ClusterTimeline } from './timeline/timeline';
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

async function setup(cluster: string, duplicateWindowMs = 120_000) {
  const bus = await connectBus({
    servers: nats.url,
    cluster,
    log: quiet,
    limits: { duplicateWindowMs },
  });
  const url = await pgi.createDatabase(`w${++n}`);
  const tl = await openClusterTimeline({ url });
  cleanup.push(
    () => bus.close(),
    () => tl.close(),
  );
  return { bus, reader: new ReplicaReader(bus), tl, url };
}

const publish = (bus: BusConnection, m: BusMessage) => new BusPublisher(bus).publish(m);

function writer(
  reader: ReplicaReader,
  tl: ClusterTimeline,
  extra: Partial<ConstructorParameters<typeof ClusterWriter>[0]> = {},
) {
  const w = new ClusterWriter({
    reader,
    timeline: tl,
    log: quiet,
    ackWaitMs: 1_500,
    batch: 100,
    ...extra,
  }).start();
  cleanup.push(() => w.stop());
  return w;
}

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every (node, epoch) run in the timeline is 1..N with no gap and no repeat. */
async function checkRuns(tl: ClusterTimeline, expected: Record<string, number>) {
  const rows = await tl.db
    .selectFrom('cluster_messages')
    .select(['node', 'epoch', 'node_seq', 'count', 'gid'])
    .orderBy('gid')
    .execute();
  const runs = new Map<string, number[]>();
  for (const r of rows) {
    const k = `${r.node}/${r.epoch}`;
    const seqs = Array.from({ length: r.count }, (_, i) => r.node_seq + i);
    runs.set(k, [...(runs.get(k) ?? []), ...seqs]);
  }
  for (const [k, seqs] of runs) {
    const node = k.slice(0, k.indexOf('/'));
    expect(seqs.sort((a, b) => a - b)).toEqual(
      Array.from({ length: expected[node] ?? -1 }, (_, i) => i + 1),
    );
  }
  expect(runs.size).toBe(Object.keys(expected).length);
}

async function consumerState(bus: BusConnection) {
  const info = await bus.jsm.consumers.info(bus.names.stream, bus.names.writerDurable);
  return { pending: info.num_pending, ackPending: info.num_ack_pending };
}

describe('timeline writer: NATS → PostgreSQL', () => {
  it('two writers share one durable consumer: every event is written once, republished ones are skipped', async () => {
    const { bus, reader, tl } = await setup('two', 1_000);
    const epoch = newEpoch();
    const nodes = ['a', 'b.example', 'c'];
    // ack_wait well above a loaded commit: no redelivery, so each message goes to one writer once
    const a = writer(reader, tl, { ackWaitMs: 30_000 });
    const bus2 = await connectBus({
      servers: nats.url,
      cluster: 'two',
      log: quiet,
      limits: { duplicateWindowMs: 1_000 },
    });
    cleanup.push(() => bus2.close());
    const b = writer(new ReplicaReader(bus2), tl, { ackWaitMs: 30_000 });
    const sent: ReturnType<typeof eventsMessage>[] = [];
    for (let i = 0; i < 100; i++)
      for (const node of nodes) {
        const m = eventsMessage('two', node, epoch, i * 10 + 1, 10);
        sent.push(m);
        await publish(bus, m);
      }
    // the agent republishes after the stream's duplicate window: a second copy in the stream
    await new Promise((r) => setTimeout(r, 1_200));
    for (const m of sent.slice(0, 5)) expect((await publish(bus, m)).duplicate).toBe(false);
    await until('all messages handled', () => a.stats.messages + b.stats.messages >= 305);
    expect(await tl.count()).toBe(3_000);
    expect(a.stats.inserted + b.stats.inserted).toBe(3_000);
    expect(a.stats.duplicates + b.stats.duplicates).toBe(50);
    expect(a.stats.messages + b.stats.messages).toBe(305); // each message handled by one writer once
    expect(a.stats.messages).toBeGreaterThan(0);
    expect(b.stats.messages).toBeGreaterThan(0);
    await checkRuns(tl, { a: 1_000, 'b.example': 1_000, c: 1_000 });
    await until('all acknowledged', async () => (await consumerState(bus)).ackPending === 0);
  });

  it('a writer that dies mid-batch loses nothing: its messages go to the other writer', async () => {
    const { bus, reader, tl } = await setup('die');
    const epoch = newEpoch();
    const doomedBus = await connectBus({ servers: nats.url, cluster: 'die', log: quiet });
    let died = false;
    const doomed = writer(new ReplicaReader(doomedBus), tl, {
      beforeCommit: async () => {
        died = true;
        await doomedBus.nc.close(); // the process is gone: no commit, no ack
      },
    });
    for (let i = 0; i < 50; i++)
      await publish(bus, eventsMessage('die', 'n1', epoch, i * 4 + 1, 4));
    await until('the first writer to take a batch and die', () => died);
    expect(await tl.count()).toBe(0);
    const survivor = writer(reader, tl);
    await until('all events written', async () => (await tl.count()) === 200);
    expect(doomed.stats.inserted).toBe(0);
    expect(survivor.stats.inserted).toBe(200);
    await checkRuns(tl, { n1: 200 });
  });

  it('PostgreSQL restarted: the writer retries and acknowledges nothing before it is committed', async () => {
    const { bus, reader, tl } = await setup('pgrestart');
    const epoch = newEpoch();
    const w = writer(reader, tl, { ackWaitMs: 30_000 });
    for (let i = 0; i < 10; i++)
      await publish(bus, eventsMessage('pgrestart', 'n', epoch, i * 5 + 1, 5));
    await until('first events written', async () => (await tl.count()) === 50);
    await until('acknowledged', async () => (await consumerState(bus)).ackPending === 0);

    await pgi.stop();
    for (let i = 10; i < 30; i++)
      await publish(bus, eventsMessage('pgrestart', 'n', epoch, i * 5 + 1, 5));
    await until('a failed commit', () => w.stats.failures > 0);
    await new Promise((r) => setTimeout(r, 1_000));
    const during = await consumerState(bus);
    // fetched and held (ack pending) or still waiting — none acknowledged
    expect(during.pending + during.ackPending).toBe(20);
    expect(w.stats.lastError).toBeTruthy();

    await pgi.start();
    await until('all events written after the restart', async () => {
      try {
        return (await tl.count()) === 150;
      } catch {
        return false;
      }
    });
    await until('all acknowledged', async () => {
      const s = await consumerState(bus);
      return s.ackPending === 0 && s.pending === 0;
    });
    await checkRuns(tl, { n: 150 });
  });

  it("a writer ahead of its replica's tail waits for it: each message is parsed once, by the tail", async () => {
    const { bus, reader, tl } = await setup('once');
    const nc = await connect({ servers: nats.url });
    nc.publish(bus.names.eventSubject('n'), 'not json');
    await nc.flush();
    await nc.close();
    const epoch = newEpoch();
    for (let i = 0; i < 3; i++) await publish(bus, eventsMessage('once', 'n', epoch, 1 + 2 * i, 2));
    // The tail reads the junk and the first events message, and stops there (nothing asks it for
    // more yet).
    const tail = reader.tail(1);
    expect((await tail.next()).value?.streamSeq).toBe(2);
    const w = writer(reader, tl, { tailWaitMs: 60_000 });
    await until('the writer waiting for the tail', () => reader.waitingForTail === 1);
    // It fetched all four and waits for the tail: nothing parsed, nothing written.
    expect(w.stats.messages).toBe(0);
    expect(await tl.count()).toBe(0);
    for (let i = 0; i < 2; i++) expect((await tail.next()).done).toBe(false);
    await until('handled', () => w.stats.messages === 4);
    await tail.return(undefined);
    expect(w.stats.refused).toBe(1);
    expect(await tl.count()).toBe(6);
    // The junk was parsed once (by the tail) and refused once: the writer took its verdict.
    expect(bus.refusals.total('not-json')).toBe(1);
  });

  it('commits the end of a burst as soon as it is in, not when its fetch expires', async () => {
    const { bus, reader, tl } = await setup('burst');
    const epoch = newEpoch();
    for (let i = 0; i < 150; i++) await publish(bus, eventsMessage('burst', 'n', epoch, 1 + i, 1));
    const started = Date.now();
    // Batches of 100 and fetches that would wait 30 s for a full one: after the first 100 the
    // consumer has 50 left, and the next fetch asks for those 50.
    const w = writer(reader, tl, { fetchWaitMs: 30_000 });
    await until('all written', async () => (await tl.count()) === 150);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(w.stats.batches).toBe(2);
  });

  it('a batch holds no more bytes than it may, whatever the messages weigh', async () => {
    const { bus, reader, tl } = await setup('heavy');
    const nc = await connect({ servers: nats.url });
    const heavy = new Uint8Array(700 * 1024).fill(0x7b); // "{{{…": refused as not JSON
    for (let i = 0; i < 12; i++) nc.publish(bus.names.eventSubject('n'), heavy);
    await nc.flush();
    await nc.close();
    const epoch = newEpoch();
    for (let i = 0; i < 40; i++) await publish(bus, eventsMessage('heavy', 'n', epoch, 1 + i, 1));
    // Room for three messages as large as the stream allows: each fetch asks for what is left
    // of it, so the heavy ones go at most three a batch and the light ones many a batch.
    const batches: { messages: number; bytes: number }[] = [];
    const w = writer(reader, tl, {
      batchBytes: 3 * 1024 * 1024,
      beforeCommit: (b) => {
        batches.push(b);
        return Promise.resolve();
      },
    });
    await until('all handled', () => w.stats.messages === 52);
    expect(w.stats.refused).toBe(12);
    expect(await tl.count()).toBe(40);
    await checkRuns(tl, { n: 40 });
    expect(Math.max(...batches.map((b) => b.bytes))).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(Math.max(...batches.map((b) => b.messages))).toBeGreaterThan(3);
    // 12 heavy ones three at a time, then the light ones: fetched a few at a time, but together.
    expect(w.stats.batches).toBeLessThanOrEqual(6);
  });

  it('refused messages are terminated, counted and never written', async () => {
    const { bus, reader, tl } = await setup('junk');
    const w = writer(reader, tl);
    const nc = await connect({ servers: nats.url });
    nc.publish(bus.names.eventSubject('n'), 'not json');
    nc.publish(
      bus.names.eventSubject('n'),
      JSON.stringify(eventsMessage('other', 'n', newEpoch(), 1, 1)),
    );
    await nc.flush();
    await nc.close();
    await publish(bus, eventsMessage('junk', 'n', newEpoch(), 1, 2));
    await until('handled', () => w.stats.messages === 3);
    expect(w.stats.refused).toBe(2);
    expect(await tl.count()).toBe(2);
    expect(bus.refusals.total('not-json')).toBe(1);
    expect(bus.refusals.total('foreign-cluster')).toBe(1);
    await until(
      'nothing left to redeliver',
      async () => (await consumerState(bus)).ackPending === 0,
    );
  });

  it('parses and prepares the batch read ahead while the one before it commits', async () => {
    const { bus, reader, tl } = await setup('ahead');
    const epoch = newEpoch();
    for (let i = 1; i <= 10; i++) await publish(bus, eventsMessage('ahead', 'n', epoch, i, 1));
    const nc = await connect({ servers: nats.url });
    nc.publish(bus.names.eventSubject('n'), 'not json'); // in the second batch
    await nc.flush();
    await nc.close();
    for (let i = 11; i <= 19; i++) await publish(bus, eventsMessage('ahead', 'n', epoch, i, 1));
    // The first commit waits until the second batch has been read (its junk message refused).
    let preparedAhead: boolean | undefined;
    const w = writer(reader, tl, {
      batch: 10,
      beforeCommit: async () => {
        if (preparedAhead !== undefined) return;
        const deadline = Date.now() + 10_000;
        while (bus.refusals.total('not-json') === 0 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 50));
        preparedAhead = bus.refusals.total('not-json') === 1 && w.stats.batches === 0;
      },
    });
    await until('handled', () => w.stats.messages === 20);
    expect(preparedAhead).toBe(true);
    expect(w.stats.refused).toBe(1);
    expect(await tl.count()).toBe(19);
    await checkRuns(tl, { n: 19 });
  });
});
