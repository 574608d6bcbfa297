/**
 * Saved timelines in the cluster database (server/timeline-db/saved.ts), as two console replicas see them: each
 * replica has its own connection pool to the same PostgreSQL database (as two pods behind one
 * Service do), its own TimelinesService and tRPC caller. What one saves, the other lists, opens,
 * annotates, exports and deletes; quotas hold when both save at once; PostgreSQL going away is a
 * clear error with nothing half-written. Real PostgreSQL (test/cluster/harness).
 */
import { TRPCError } from '@trpc/server';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serializeTimelineFile, stateAtTime, type TimelineFile } from '@/lib/timeline/file';
import { sampleFile } from '@/lib/timeline/file/testing';
import { isPodscopeStoreError, type PodscopeStoreError } from '@/server/timeline-db';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { openClusterTimeline, type ClusterTimeline } from '@/server/cluster/timeline/timeline';
import { postgresMissing, startPostgres, type PostgresInstance } from '@/test/cluster/harness';
import { handleExport, handleImport } from './http';
import { SavedTimelineStore } from '@/server/timeline-db';
import { TimelinesService, type LiveRecording, type TimelinesOptions } from './service';

const skip = postgresMissing();
let pgi: PostgresInstance;
let url: string;
let admin: pg.Client;
const replicas: ClusterTimeline[] = [];

/** A console replica: its own pool to the shared database, its own service and tRPC caller. */
async function replica(options: TimelinesOptions = {}) {
  const timeline = await openClusterTimeline({ url });
  replicas.push(timeline);
  const saved = new SavedTimelineStore(timeline);
  const timelines = new TimelinesService(saved, options);
  return { saved, timelines, caller: createCaller(testContext({ timelines })) };
}

/** The live recording a replica saves periods from (the cluster timeline, here a file's). */
function recordingOf(file: TimelineFile): LiveRecording {
  return {
    stateAt: (t) => Promise.resolve(stateAtTime(file, t)),
    range: (q) =>
      Promise.resolve(
        file.events
          .filter((e) => e.seq > q.afterSeq && e.t >= q.from && e.t <= q.to)
          .slice(0, q.limit),
      ),
  };
}

async function rows(table: string): Promise<number> {
  const res = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(res.rows[0]?.n);
}

async function storeError(p: Promise<unknown>): Promise<PodscopeStoreError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isPodscopeStoreError(err))
    throw new Error(`expected a PodscopeStoreError, got ${String(err)}`);
  return err;
}

async function trpcError(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(err)}`);
  return err;
}

const upload = (body: string) =>
  new Request('http://127.0.0.1/api/timelines/import', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
const exportUrl = (id: string) => new URL(`http://127.0.0.1/api/timelines/${id}/export`);

beforeAll(async () => {
  if (skip) return;
  pgi = await startPostgres();
  url = await pgi.createDatabase('saved_shared');
  // Migrated once before the tests clear its tables.
  replicas.push(await openClusterTimeline({ url }));
  admin = new pg.Client({ connectionString: url });
  admin.on('error', () => {});
  await admin.connect();
}, 120_000);

afterAll(async () => {
  await admin?.end().catch(() => undefined);
  for (const r of replicas) await r.close().catch(() => undefined);
  await pgi?.destroy();
});

beforeEach(async () => {
  if (skip) return;
  if (!pgi.running) await pgi.start();
  await admin.query('DELETE FROM saved_timelines');
});

describe.skipIf(skip)('saved timelines shared by console replicas (PostgreSQL)', () => {
  it('a timeline saved on replica A is listed, opened, annotated, exported and deleted on replica B', async () => {
    const file = sampleFile();
    const a = await replica({ recording: recordingOf(file) });
    const b = await replica();

    const saved = await a.caller.timelines.save({
      title: 'web-1 crash loop',
      notes: 'seen from replica A',
      from: file.from,
      to: file.to,
      annotations: [{ t: file.from + 1_000, text: 'deploy finished' }],
    });
    expect(saved.eventCount).toBe(
      file.events.filter((e) => e.t > file.from && e.t <= file.to).length,
    );

    // Replica B: the same list, the same timeline, the share page finds it.
    expect(await b.caller.timelines.list()).toEqual([saved]);
    expect(await b.timelines.exists(saved.id)).toBe(true);
    const onB = await b.caller.timelines.get({ id: saved.id });
    expect(onB).toEqual(await a.caller.timelines.get({ id: saved.id }));
    expect(onB.initialState).toEqual(stateAtTime(file, file.from));
    expect(onB.events.map((e) => e.seq)).toEqual(
      file.events.filter((e) => e.t > file.from && e.t <= file.to).map((e) => e.seq),
    );

    // Annotated on B, seen on A.
    const note = await b.caller.timelines.annotate({
      id: saved.id,
      t: file.from + 2_000,
      entity: 'uid-web/app',
      text: 'annotated on B',
    });
    expect(note).toMatchObject({ timelineId: saved.id, text: 'annotated on B' });
    expect((await a.caller.timelines.get({ id: saved.id })).annotations.map((x) => x.text)).toEqual(
      ['deploy finished', 'annotated on B'],
    );
    expect((await a.caller.timelines.list())[0]?.annotationCount).toBe(2);
    expect(
      (
        await trpcError(
          b.caller.timelines.annotate({ id: saved.id, t: file.to + 1, text: 'outside' }),
        )
      ).code,
    ).toBe('BAD_REQUEST');

    // Exported on B: the same file A exports.
    const res = await handleExport(b.timelines, saved.id, exportUrl(saved.id));
    expect(res.status).toBe(200);
    const fromA = await a.timelines.exportBytes(saved.id);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe(fromA.body.toString());

    // Imported on B (the upload route), listed on A.
    const imported = await handleImport(b.timelines, upload(serializeTimelineFile(file)));
    expect(imported.status).toBe(201);
    const { id: importedId } = (await imported.json()) as { id: string };
    expect((await a.timelines.list()).map((t) => t.id).sort()).toEqual(
      [saved.id, importedId].sort(),
    );
    expect((await a.timelines.get(importedId)).events).toEqual(file.events);

    // Deleted on B: gone on A, its events and annotations with it.
    expect(await b.caller.timelines.delete({ id: saved.id })).toEqual({ ok: true });
    expect((await trpcError(a.caller.timelines.get({ id: saved.id }))).code).toBe('NOT_FOUND');
    expect(await a.timelines.exists(saved.id)).toBe(false);
    expect((await handleExport(a.timelines, saved.id, exportUrl(saved.id))).status).toBe(404);
    expect((await trpcError(a.caller.timelines.delete({ id: saved.id }))).code).toBe('NOT_FOUND');
    expect(
      (await trpcError(a.caller.timelines.annotate({ id: saved.id, t: file.from, text: 'x' })))
        .code,
    ).toBe('NOT_FOUND');
    expect(await rows('saved_timeline_events')).toBe(file.events.length);
    expect(await rows('saved_annotations')).toBe(file.annotations.length);

    // Retention run by either replica.
    expect(await a.saved.expire(file.createdAt + 1)).toBe(1);
    expect(await b.timelines.list()).toEqual([]);
    expect(await rows('saved_timeline_events')).toBe(0);
  }, 60_000);

  it('two replicas saving at once at the quota edge: exactly the quota is kept', async () => {
    const file = sampleFile();
    const json = serializeTimelineFile(file);
    const quota = { maxCount: 5, maxBytes: 512 * 1024 * 1024 };
    const a = await replica({ quota, recording: recordingOf(file) });
    const b = await replica({ quota, recording: recordingOf(file) });
    for (let i = 0; i < quota.maxCount - 1; i++) await a.timelines.importText(json);

    // One place left, six saves and imports racing for it from both replicas.
    const racers = [a, b, a, b, a, b].map((r, i) =>
      i % 2 === 0
        ? r.timelines.importText(json)
        : r.timelines.savePeriod({ title: `race ${i}`, from: file.from, to: file.to }),
    );
    const results = await Promise.allSettled(racers);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') {
        expect(isPodscopeStoreError(r.reason) && r.reason.code).toBe('QUOTA');
        expect((r.reason as Error).message).toMatch(/quota of 5 \(PODSCOPE_SAVED_MAX_COUNT\)/);
      }
    expect(await rows('saved_timelines')).toBe(quota.maxCount);
    // Nothing of the refused ones was left behind.
    expect(await rows('saved_timeline_events')).toBe(
      (await a.timelines.list()).reduce((n, t) => n + t.eventCount, 0),
    );

    // At the quota the API answers as before: 412 from tRPC, 507 from the upload route.
    const refused = await trpcError(
      b.caller.timelines.save({ title: 'one more', from: file.from, to: file.to }),
    );
    expect(refused.code).toBe('PRECONDITION_FAILED');
    expect((await handleImport(a.timelines, upload(json))).status).toBe(507);
  }, 60_000);

  it('holds the byte quota across replicas too', async () => {
    const file = sampleFile();
    const json = serializeTimelineFile(file);
    const probe = await replica();
    await probe.timelines.importText(json);
    const one = Number(
      (await admin.query<{ b: string }>('SELECT bytes AS b FROM saved_timelines')).rows[0]?.b,
    );
    expect(one).toBeGreaterThan(1_000);
    // Room for two, not three: one is stored, two more race for the one place.
    const quota = { maxCount: 100, maxBytes: 2 * one + Math.floor(one / 2) };
    const a = await replica({ quota });
    const b = await replica({ quota });
    const results = await Promise.allSettled([
      a.timelines.importText(json),
      b.timelines.importText(json),
      a.timelines.importText(json),
      b.timelines.importText(json),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected')
        expect((r.reason as Error).message).toMatch(/PODSCOPE_SAVED_MAX_BYTES/);
    expect(await rows('saved_timelines')).toBe(2);
  }, 60_000);

  it('PostgreSQL down: a clear error, nothing stored; back up: as before', async () => {
    const file = sampleFile();
    const json = serializeTimelineFile(file);
    const a = await replica({ recording: recordingOf(file) });
    const kept = await a.timelines.importText(json);

    await pgi.stop();
    const err = await storeError(a.timelines.importText(json));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.publicMessage).toMatch(
      /^storing timeline "web-1 crash loop" failed: PostgreSQL cannot be reached \(.+\); nothing was stored$/,
    );
    // The client is told, without the database's address.
    const viaTrpc = await trpcError(
      a.caller.timelines.save({ title: 'while down', from: file.from, to: file.to }),
    );
    expect(viaTrpc.code).toBe('SERVICE_UNAVAILABLE');
    expect(viaTrpc.message).toMatch(/PostgreSQL cannot be reached/);
    expect(viaTrpc.message).not.toContain(url);
    expect((await trpcError(a.caller.timelines.list())).code).toBe('SERVICE_UNAVAILABLE');
    const upload503 = await handleImport(a.timelines, upload(json));
    expect(upload503.status).toBe(503);
    expect(((await upload503.json()) as { error: { code: string } }).error.code).toBe(
      'UNAVAILABLE',
    );

    await pgi.start();
    await admin.end().catch(() => undefined);
    admin = new pg.Client({ connectionString: url });
    admin.on('error', () => {});
    await admin.connect();
    expect((await a.timelines.list()).map((t) => t.id)).toEqual([kept.id]);
    expect(await rows('saved_timeline_events')).toBe(file.events.length);
  }, 120_000);

  it('a connection lost in the middle of storing a large timeline leaves nothing behind', async () => {
    // ~28,000 events: 28 INSERT statements, time enough to cut the connection between two.
    const file = sampleFile({ cycles: 4_000 });
    const a = await replica();
    // Its outcome is taken at once: the import may fail while the loop below is still looking.
    const outcome = storeError(a.timelines.importFile(file));
    let terminated = 0;
    for (let i = 0; i < 2_000 && terminated === 0; i++) {
      const res = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE pid <> pg_backend_pid() AND query ILIKE 'insert into "saved_timeline_events"%'`,
      );
      terminated = res.rows[0]?.n ?? 0;
    }
    expect(terminated).toBeGreaterThan(0);
    const err = await outcome;
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.publicMessage).toMatch(/nothing was stored$/);
    expect(await rows('saved_timelines')).toBe(0);
    expect(await rows('saved_timeline_events')).toBe(0);
    // The replica's pool recovers: the next import goes through.
    await a.timelines.importFile(file);
    expect(await rows('saved_timeline_events')).toBe(file.events.length);
  }, 120_000);
});
