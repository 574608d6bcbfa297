import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresInstance } from '@/test/cluster/harness';
import { sql, type Kysely } from 'kysely';
import { ENVELOPE_VERSION, newEpoch, type BusMessage, type GapMessage } from '../envelope';
import { globalEvents, gidOf } from '../global';
import { criEvents, eventsMessage } from '../testing';
import { bodyText, storedMessage, type StoredMessage } from './rows';
import type { ClusterEventsTable } from '@/server/timeline-db/schema';
import { openClusterTimeline, type ClusterTimeline } from './timeline';

const DAY = 86_400_000;
let pgi: PostgresInstance;
let dir: string;
let dbn = 0;

beforeAll(async () => {
  pgi = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'podscope-tl-'));
});
afterAll(async () => {
  await pgi?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const open: Record<'postgres' | 'sqlite', () => Promise<ClusterTimeline>> = {
  postgres: async () => openClusterTimeline({ url: await pgi.createDatabase(`tl${++dbn}`) }),
  sqlite: () => openClusterTimeline({ path: join(dir, `tl${++dbn}.db`) }),
};

/** A message stored as its agent published it, at stream seq `streamSeq`. */
const sm = (streamSeq: number, m: BusMessage) => storedMessage(streamSeq, m);
/** A stored message's body as text (what the timeline holds). */
const text = (m: StoredMessage | undefined) => (m ? bodyText(m.body) : undefined);
/** The events of `m` at `streamSeq` under global ids, as plain JSON (what a read gives back). */
const expected = (streamSeq: number, m: BusMessage) =>
  globalEvents(streamSeq, structuredClone(m)).map(
    (g) => JSON.parse(JSON.stringify(g.event)) as unknown,
  );

describe.each(['postgres', 'sqlite'] as const)(
  'cluster timeline on %s (one kysely schema)',
  (dialect) => {
    it('writes messages idempotently by (node, epoch, seq) and reads their events back by global id', async () => {
      const tl = await open[dialect]();
      try {
        expect(tl.dialect).toBe(dialect);
        const epoch = newEpoch();
        const m1 = eventsMessage('c', 'a.b', epoch, 1, 3);
        const m2 = eventsMessage('c', 'a.b', epoch, 4, 2);
        expect(await tl.insert([sm(10, m1)])).toBe(3);
        // the same message again: redelivered (same stream seq) or republished (a later one)
        expect(await tl.insert([sm(10, m1)])).toBe(0);
        expect(await tl.insert([sm(11, m1), sm(12, m2)])).toBe(2);
        expect(await tl.count()).toBe(5);
        expect(await tl.latestGid()).toBe(gidOf(12, 1));
        expect(await tl.oldestGid()).toBe(gidOf(10, 0));
        const after = await tl.eventsAfter(gidOf(10, 0), 10);
        expect(after.map((e) => e.seq)).toEqual([
          gidOf(10, 1),
          gidOf(10, 2),
          gidOf(12, 0),
          gidOf(12, 1),
        ]);
        expect(after[0]).toMatchObject({ kind: 'cri', node: 'a.b', type: 'ContainerStarted' });
        // a second run of the migrations changes nothing
        const again = await openClusterTimeline(
          dialect === 'postgres'
            ? { url: pgi.url(`tl${dbn}`) }
            : { path: join(dir, `tl${dbn}.db`) },
        );
        expect(await again.count()).toBe(5);
        await again.close();
      } finally {
        await tl.close();
      }
    });

    it('keeps each message as published, counts one repeated within a batch once, files a batch across days', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        const lastMs = Date.UTC(2026, 0, 2) - 1;
        const endpoint = 'unix:///run/"odd" \\ name\n\t é ✓ 😀 \u2028 {"json":[1]}.sock';
        const added = eventsMessage('c', 'n', epoch, 1, 1, lastMs, [
          {
            kind: 'node',
            type: 'NodeAdded',
            seq: 1,
            t: lastMs,
            node: 'n',
            endpoint,
            health: { connected: true },
          },
        ]);
        const next = eventsMessage('c', 'n', epoch, 2, 2, lastMs + 1);
        const batch = [sm(1, added), sm(2, next), sm(3, next)];
        expect(await tl.insert(batch)).toBe(3);
        const back = await tl.eventsAfter(0, 10);
        expect(back).toEqual([...expected(1, added), ...expected(2, next)]);
        expect(back[0]).toMatchObject({ endpoint });
        // Byte for byte: the stored text is the message as it was read from the bus.
        const raw = await tl.db
          .selectFrom('cluster_messages')
          .select(['body', 'count', 't', 't_max', 'node_seq'])
          .orderBy('gid')
          .execute();
        expect(raw).toEqual([
          { body: text(batch[0]), count: 1, t: lastMs, t_max: lastMs, node_seq: 1 },
          { body: text(batch[1]), count: 2, t: lastMs + 1, t_max: lastMs + 1, node_seq: 2 },
        ]);
        if (dialect === 'postgres') expect(await tl.listPartitions()).toHaveLength(2);
      } finally {
        await tl.close();
      }
    });

    it('a prepared batch inserts as insert() does, and again as nothing (retried)', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        const m20 = eventsMessage('c', 'n', epoch, 1, 3, 1_000);
        const m21 = eventsMessage('c', 'n', epoch, 4, 2, 1_000 + DAY);
        const batch = tl.prepareInsert([sm(20, m20), sm(21, m21)]);
        expect(batch.count).toBe(5);
        expect([...batch.days]).toEqual([0, 1]);
        // PostgreSQL's batch is one statement's parameters.
        expect(batch.statements?.length).toBe(dialect === 'postgres' ? 1 : undefined);
        expect(await tl.insertPrepared(batch)).toBe(5);
        expect(await tl.insertPrepared(batch)).toBe(0);
        expect(await tl.insertPrepared(tl.prepareInsert([]))).toBe(0);
        expect(await tl.eventsAfter(0, 10)).toEqual([...expected(20, m20), ...expected(21, m21)]);
      } finally {
        await tl.close();
      }
    });

    it('a batch cut into statements (by body bytes) inserts whole, and again as nothing', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        const messages = [1, 4, 6, 9].map((seq, i) =>
          eventsMessage('c', 'n', epoch, seq, 3 - (i % 2)),
        );
        const ms = messages.map((m, i) => sm(30 + i, m));
        // One body's worth per statement: four statements, one transaction.
        const batch = tl.prepareInsert(ms, 1);
        expect(batch.statements?.length).toBe(dialect === 'postgres' ? 4 : undefined);
        expect(await tl.insertPrepared(batch)).toBe(10);
        expect(await tl.insertPrepared(batch)).toBe(0);
        expect(await tl.eventsAfter(0, 20)).toEqual(
          messages.flatMap((m, i) => expected(30 + i, m)),
        );
      } finally {
        await tl.close();
      }
    });

    it('stores a body that is not UTF-8 as the text it was read as (PostgreSQL refuses such bytes)', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        const good = sm(40, eventsMessage('c', 'n', epoch, 1, 1));
        const m = eventsMessage('c', 'n', epoch, 2, 1);
        // A lone 0xff in a string of the message: parse.ts read it as U+FFFD, and so is it stored.
        const stored = storedMessage(41, m);
        const json = bodyText(stored.body);
        const at = json.indexOf('"n"') + 1;
        const bytes = Buffer.concat([
          Buffer.from(json.slice(0, at)),
          Buffer.from([0xff]),
          Buffer.from(json.slice(at)),
        ]);
        const bad: StoredMessage = { ...stored, body: bytes };
        expect(await tl.insert([good, bad])).toBe(2);
        const rows = await tl.db
          .selectFrom('cluster_messages')
          .select(['body'])
          .orderBy('gid')
          .execute();
        expect(rows.map((r) => r.body)).toEqual([text(good), bytes.toString('utf8')]);
        expect(rows[1]?.body).toContain('\ufffdn"');
      } finally {
        await tl.close();
      }
    });

    it('reads bounds that fall inside a message: a gid, a limit, a time, a byte budget, nodes', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        // One relist's events at three times (an agent that batched two relists in one message).
        const a = eventsMessage('c', 'a', epoch, 1, 4, 0, [
          ...criEvents('a', 1, 2, 1_000),
          ...criEvents('a', 3, 2, 3_000),
        ]);
        const b = eventsMessage('c', 'b', newEpoch(), 1, 3, 2_000);
        const gap: GapMessage = {
          v: ENVELOPE_VERSION,
          type: 'gap',
          cluster: 'c',
          node: 'a',
          epoch,
          seq: 5,
          t: 4_000,
          lost: { from: 5, to: 9 },
          reason: 'outbox-full',
        };
        await tl.insert([sm(1, a), sm(2, b), sm(3, gap)]);
        const seqs = (es: { seq: number }[]) => es.map((e) => e.seq);
        const all = [gidOf(1, 0), gidOf(1, 1), gidOf(1, 2), gidOf(1, 3)];
        const bs = [gidOf(2, 0), gidOf(2, 1), gidOf(2, 2)];
        expect(seqs(await tl.eventsAfter(gidOf(1, 1), 100))).toEqual([
          ...all.slice(2),
          ...bs,
          gidOf(3, 0),
        ]);
        expect(seqs(await tl.eventsAfter(0, 3))).toEqual(all.slice(0, 3));
        expect(seqs(await tl.eventsAfter(gidOf(1, 0), 100, gidOf(2, 1)))).toEqual([
          ...all.slice(1),
          ...bs.slice(0, 2),
        ]);
        expect(await tl.eventsAfter(0, 0)).toEqual([]);
        // the gap record comes back as the view files it
        expect((await tl.eventsAfter(gidOf(2, 2), 10))[0]).toMatchObject({
          kind: 'gap',
          seq: gidOf(3, 0),
          node: 'a',
          lost: { from: 5, to: 9 },
        });
        expect(await tl.countBetween(0, gidOf(3, 0))).toBe(8);
        expect(await tl.countBetween(gidOf(1, 1), gidOf(2, 0))).toBe(3);
        expect(await tl.countBetween(gidOf(1, 3), gidOf(1, 3))).toBe(0);
        // t ≤ 2,500: the first two of a, all of b — not a's later two, though in the same row
        const upTo = await tl.withEpochs(0, 100, 2_500);
        expect(seqs(upTo.map((r) => r.event))).toEqual([...all.slice(0, 2), ...bs]);
        expect(upTo[0]?.epoch).toBe(epoch);
        expect(seqs(await tl.range({ from: 2_500, to: 3_500 }))).toEqual(all.slice(2));
        expect(seqs(await tl.range({ nodes: ['b'] }))).toEqual(bs);
        expect(await tl.range({ nodes: [] })).toEqual([]);
        expect(seqs(await tl.range({ afterSeq: gidOf(1, 2), limit: 2 }))).toEqual([all[3], bs[0]]);
        // a byte budget below one event still returns the first
        expect(seqs(await tl.range({ maxBytes: 1 }))).toEqual([all[0]]);
        // what retention at a cut removes: messages that began before it, whole
        expect(await tl.lastGidBefore(1_500)).toBe(gidOf(1, 3));
        expect(await tl.lastGidBefore(2_500)).toBe(gidOf(2, 2));
        expect(await tl.lastGidBefore(1_000)).toBeUndefined();
      } finally {
        await tl.close();
      }
    });

    it('moves the events stored before migration 0004 over as they were', async () => {
      const name = `tl${++dbn}`;
      const options =
        dialect === 'postgres'
          ? { url: await pgi.createDatabase(name) }
          : { path: join(dir, `${name}.db`) };
      const old = await openClusterTimeline({ ...options, migrateTo: '0003_saved_timelines' });
      const epoch = newEpoch();
      const m = eventsMessage('c', 'n', epoch, 1, 3, Date.UTC(2026, 5, 1));
      const events = globalEvents(7, m);
      try {
        // cluster_events as 0001 made it, written as the writer wrote it then (one row per event)
        const db = old.db as unknown as Kysely<{ cluster_events: ClusterEventsTable }>;
        if (dialect === 'postgres')
          await sql`CREATE TABLE cluster_events_day_20605 PARTITION OF cluster_events
                    FOR VALUES FROM (1780272000000) TO (1780358400000)`.execute(db);
        await db
          .insertInto('cluster_events')
          .values(
            events.map((g) => ({
              gid: g.gid,
              t: g.event.t,
              node: g.node,
              epoch: g.epoch,
              node_seq: g.nodeSeq,
              stream_seq: g.streamSeq,
              kind: g.event.kind,
              type: 'ContainerStarted',
              entity: 'x',
              body: JSON.stringify(g.event),
            })),
          )
          .execute();
      } finally {
        await old.close();
      }
      const tl = await openClusterTimeline(options);
      try {
        expect(await tl.count()).toBe(3);
        expect(await tl.eventsAfter(0, 10)).toEqual(expected(7, m));
        expect(await tl.countBetween(gidOf(7, 0), gidOf(7, 2))).toBe(2);
        expect(await tl.latestGid()).toBe(gidOf(7, 2));
        // the agent's next message follows them; a moved event republished is not stored twice
        const next = eventsMessage('c', 'n', epoch, 4, 1, Date.UTC(2026, 5, 1));
        expect(await tl.insert([sm(8, next)])).toBe(1);
        expect(seqs3(await tl.eventsAfter(gidOf(7, 1), 10))).toEqual([gidOf(7, 2), gidOf(8, 0)]);
        if (dialect === 'postgres')
          expect(await tl.listPartitions()).toEqual(['cluster_messages_day_20605']);
      } finally {
        await tl.close();
      }
    });

    it.runIf(dialect === 'postgres')(
      'compresses message bodies with lz4 from migration 0005 on, partitions made before and after',
      async () => {
        const url = await pgi.createDatabase(`tl${++dbn}`);
        const epoch = newEpoch();
        // Bodies large enough to be compressed (PostgreSQL compresses a row past ~2 KB).
        const big = (seq: number, t: number) =>
          sm(seq, eventsMessage('c', 'n', epoch, seq, 400, t));
        const old = await openClusterTimeline({ url, migrateTo: '0004_cluster_messages' });
        try {
          expect(await old.insert([big(1, Date.UTC(2026, 5, 1))])).toBe(400);
        } finally {
          await old.close();
        }
        const tl = await openClusterTimeline({ url });
        try {
          expect(await tl.insert([big(401, Date.UTC(2026, 5, 2))])).toBe(400);
          const attrs = await sql<{ rel: string; method: string }>`
            SELECT attrelid::regclass::text AS rel, attcompression AS method FROM pg_attribute
            WHERE attname = 'body' AND attrelid::regclass::text LIKE 'cluster_messages%'
            ORDER BY 1`.execute(tl.db);
          expect(attrs.rows).toEqual([
            { rel: 'cluster_messages', method: 'l' },
            { rel: 'cluster_messages_day_20605', method: 'l' },
            { rel: 'cluster_messages_day_20606', method: 'l' },
          ]);
          const rows = await sql<{ node_seq: number; method: string | null }>`
            SELECT node_seq, pg_column_compression(body) AS method FROM cluster_messages
            ORDER BY node_seq`.execute(tl.db);
          // The row stored before keeps pglz; both read back whole.
          expect(rows.rows).toEqual([
            { node_seq: 1, method: 'pglz' },
            { node_seq: 401, method: 'lz4' },
          ]);
          expect(await tl.eventsAfter(0, 1_000)).toHaveLength(800);
        } finally {
          await tl.close();
        }
        // Migrated back down: pglz again, the table and its partitions.
        const down = await openClusterTimeline({ url, migrateTo: '0004_cluster_messages' });
        try {
          const methods = await sql<{ method: string }>`
            SELECT DISTINCT attcompression AS method FROM pg_attribute
            WHERE attname = 'body' AND attrelid::regclass::text LIKE 'cluster_messages%'`.execute(
            down.db,
          );
          expect(methods.rows).toEqual([{ method: 'p' }]);
        } finally {
          await down.close();
        }
      },
    );

    it('names a stored message that does not decode instead of skipping it', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        await tl.insert([
          sm(1, eventsMessage('c', 'n', epoch, 1, 2)),
          sm(2, eventsMessage('c', 'n', epoch, 3, 1)),
        ]);
        await tl.db
          .updateTable('cluster_messages')
          .set({ body: '{"v":2,"wire":' })
          .where('gid', '=', gidOf(2, 0))
          .execute();
        expect(await tl.eventsAfter(0, 2)).toHaveLength(2);
        await expect(tl.eventsAfter(0, 10)).rejects.toThrow(
          /message at gid 2048 \(stream seq 2\) does not decode/,
        );
      } finally {
        await tl.close();
      }
    });

    it('retention removes what is older than the maximum age', async () => {
      const tl = await open[dialect]();
      try {
        const now = Date.UTC(2026, 11, 10, 12);
        const epoch = newEpoch();
        for (let d = 0; d < 4; d++)
          await tl.insert([
            sm(d + 1, eventsMessage('c', 'n', epoch, d * 10 + 1, 10, now - d * DAY)),
          ]);
        if (dialect === 'postgres') expect(await tl.listPartitions()).toHaveLength(4);
        const res = await tl.retention({ maxAgeMs: 1.5 * DAY }, now);
        if (dialect === 'postgres') {
          // days ending before now − 1.5 d are dropped whole: the ones of now − 2 d and now − 3 d
          expect(res.droppedPartitions).toHaveLength(2);
          expect(await tl.listPartitions()).toHaveLength(2);
          expect(await tl.count()).toBe(20);
        } else {
          // two messages of ten events each
          expect(res.deletedRows).toBe(2);
          expect(await tl.count()).toBe(20);
        }
      } finally {
        await tl.close();
      }
    });
  },
);

const seqs3 = (es: { seq: number }[]) => es.map((e) => e.seq);

describe('PostgreSQL specifics', () => {
  it('partitions by day with a BRIN index on t', async () => {
    const tl = await open.postgres();
    try {
      await tl.insert([sm(1, eventsMessage('c', 'n', newEpoch(), 1, 1, Date.UTC(2026, 0, 2, 3)))]);
      const parts = await tl.listPartitions();
      expect(parts).toEqual([`cluster_messages_day_${Math.floor(Date.UTC(2026, 0, 2) / DAY)}`]);
      const { rows } = await (
        await import('kysely')
      ).sql<{ indexdef: string }>`
        SELECT indexdef FROM pg_indexes WHERE tablename = ${parts[0]}`.execute(tl.db);
      expect(rows.some((r) => /USING brin \(t\)/.test(r.indexdef))).toBe(true);
    } finally {
      await tl.close();
    }
  });

  it('refuses a non-postgres URL with a clear error', async () => {
    await expect(openClusterTimeline({ url: 'mysql://x@y/z' })).rejects.toThrow(
      /only postgres:\/\//,
    );
  });
});
