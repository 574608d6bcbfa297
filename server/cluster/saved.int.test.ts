/**
 * Saving a period of the live recording in cluster mode (server/timelines/service.ts savePeriod
 * with the replica as its recording): the state at `from` and the events up to `to` read from
 * the cluster timeline in PostgreSQL, stored like an import in the cluster database's saved
 * tables (server/timeline-db/saved.ts), through the tRPC router as the console calls it. Real
 * nats-server and PostgreSQL. (Replica to replica, quotas, outages: postgres.int.test.ts.)
 */
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SavedTimelineStore } from '@/server/timeline-db';
import { TimelinesService } from '@/server/timelines/service';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { waitFor } from '@/test/fake-apiserver';
import {
  natsMissing,
  startNatsAndPostgres,
  type NatsInstance,
  type PostgresInstance,
} from '@/test/cluster/harness';
import { connectBus, type BusConnection } from './bus/connection';
import { BusPublisher } from './bus/publisher';
import { ReplicaReader } from './bus/reader';
import { ClusterSource } from './console';
import { newEpoch } from './envelope';
import { eventsMessage, nodeAddedMessage } from './testing';
import { openClusterTimeline, type ClusterTimeline } from './timeline/timeline';
import { ClusterWriter } from './writer';

const skip = natsMissing();
const quiet = () => {};
const T0 = Date.parse('2026-12-02T10:00:00Z');
let nats: NatsInstance;
let pgi: PostgresInstance;
let bus: BusConnection;
let timeline: ClusterTimeline;
let writer: ClusterWriter;
let source: ClusterSource;
let store: SavedTimelineStore;

beforeAll(async () => {
  if (skip) return;
  [nats, pgi] = await startNatsAndPostgres();
  bus = await connectBus({ servers: nats.url, cluster: 'saved', log: quiet });
  const reader = new ReplicaReader(bus);
  timeline = await openClusterTimeline({ url: await pgi.createDatabase('saved') });
  writer = new ClusterWriter({ reader, timeline, log: quiet, ackWaitMs: 2_000 }).start();
  source = await new ClusterSource({ reader, timeline, writer, graceMs: 60_000 }).start();
  store = new SavedTimelineStore(timeline);
}, 120_000);

afterAll(async () => {
  await source?.stop();
  await writer?.stop();
  await bus?.close();
  await timeline?.close();
  await nats?.destroy();
  await pgi?.destroy();
});

describe.skipIf(skip)('saving a live period in cluster mode', () => {
  it('saves the state at `from` and the events up to `to` from PostgreSQL; refuses a period too large', async () => {
    // An agent's run: its node at T0, then three runs of three events a second apart.
    const epoch = newEpoch(T0);
    const publisher = new BusPublisher(bus);
    await publisher.publish(nodeAddedMessage('saved', 'node-a', epoch, 1, T0));
    for (let i = 0; i < 3; i++)
      await publisher.publish(
        eventsMessage('saved', 'node-a', epoch, 2 + 3 * i, 3, T0 + 1_000 * (i + 1)),
      );
    await waitFor('10 events applied', () => source.view.stats.applied === 10, 15_000);
    await waitFor(
      'the writers to commit them',
      async () => (await source.committedThrough()) >= source.position(),
      15_000,
    );

    const timelines = new TimelinesService(store, { recording: source });
    const caller = createCaller(testContext({ engine: source, timelines }));
    const saved = await caller.timelines.save({
      title: 'the first two seconds',
      from: T0 + 500,
      to: T0 + 2_500,
      annotations: [{ t: T0 + 1_000, text: 'look here' }],
    });
    expect(saved.eventCount).toBe(6);

    const got = await caller.timelines.get({ id: saved.id });
    const inPostgres = await source.range({ afterSeq: 0, limit: 100 });
    expect(got.initialState.nodes['node-a']?.name).toBe('node-a');
    expect(got.initialState.seq).toBe(inPostgres[0]?.seq);
    expect(got.events).toEqual(inPostgres.filter((e) => e.t > T0 + 500 && e.t <= T0 + 2_500));
    expect(got.annotations.map((a) => a.text)).toEqual(['look here']);
    // Listed and exported like any saved timeline (the share page reads the same).
    expect((await caller.timelines.list()).map((t) => t.id)).toContain(saved.id);
    expect((await timelines.exportFile(saved.id)).events).toHaveLength(6);

    // Past the file limits: refused whole, nothing stored.
    const small = new TimelinesService(store, { recording: source, limits: { maxEvents: 4 } });
    const before = (await store.list()).length;
    const refused = await createCaller(testContext({ engine: source, timelines: small }))
      .timelines.save({ title: 'too much', from: T0, to: T0 + 10_000 })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe('BAD_REQUEST');
    expect((refused as TRPCError).message).toMatch(/more than 4 events/);
    expect(await store.list()).toHaveLength(before);
  }, 60_000);
});
