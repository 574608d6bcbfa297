import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresInstance } from '@/test/cluster/harness';
import { newEpoch } from '../envelope';
import { globalEvents, gidOf } from '../global';
import { eventsMessage } from '../testing';
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

describe.each(['postgres', 'sqlite'] as const)(
  'cluster timeline on %s (one kysely schema)',
  (dialect) => {
    it('writes events idempotently by (node, epoch, seq) and reads them back by global id', async () => {
      const tl = await open[dialect]();
      try {
        expect(tl.dialect).toBe(dialect);
        const epoch = newEpoch();
        const m1 = eventsMessage('c', 'a.b', epoch, 1, 3);
        const m2 = eventsMessage('c', 'a.b', epoch, 4, 2);
        expect(await tl.insert(globalEvents(10, m1))).toBe(3);
        // the same events again: redelivered (same stream seq) or republished (a later one)
        expect(await tl.insert(globalEvents(10, m1))).toBe(0);
        expect(await tl.insert([...globalEvents(11, m1), ...globalEvents(12, m2)])).toBe(2);
        expect(await tl.count()).toBe(5);
        expect(await tl.latestGid()).toBe(gidOf(12, 1));
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

    it('keeps each body as sent, counts an event repeated within a batch once, files a batch across days', async () => {
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
        const batch = [
          ...globalEvents(1, added),
          ...globalEvents(2, next),
          ...globalEvents(3, next),
        ];
        expect(await tl.insert(batch)).toBe(3);
        const back = await tl.eventsAfter(0, 10);
        expect(back).toEqual(batch.slice(0, 3).map((g) => g.event));
        expect(back[0]).toMatchObject({ endpoint });
        // Byte for byte: what range and the watchers' backfill send is the text the writer made.
        const raw = await tl.db
          .selectFrom('cluster_events')
          .select('body')
          .orderBy('gid')
          .execute();
        expect(raw.map((r) => r.body)).toEqual(
          batch.slice(0, 3).map((g) => JSON.stringify(g.event)),
        );
        if (dialect === 'postgres') expect(await tl.listPartitions()).toHaveLength(2);
      } finally {
        await tl.close();
      }
    });

    it('a prepared batch inserts as insert() does, and again as nothing (retried)', async () => {
      const tl = await open[dialect]();
      try {
        const epoch = newEpoch();
        const events = [
          ...globalEvents(20, eventsMessage('c', 'n', epoch, 1, 3, 1_000)),
          ...globalEvents(21, eventsMessage('c', 'n', epoch, 4, 2, 1_000 + DAY)),
        ];
        const batch = tl.prepareInsert(events);
        expect(batch.count).toBe(5);
        expect([...batch.days]).toEqual([0, 1]);
        // PostgreSQL's batch is the rows' text alone: the events are not kept alive by it.
        expect(batch.events === undefined).toBe(dialect === 'postgres');
        expect(await tl.insertPrepared(batch)).toBe(5);
        expect(await tl.insertPrepared(batch)).toBe(0);
        expect(await tl.insertPrepared(tl.prepareInsert([]))).toBe(0);
        const back = await tl.eventsAfter(0, 10);
        expect(back.map((e) => e.seq)).toEqual(events.map((g) => g.gid));
        expect(back).toEqual(events.map((g) => JSON.parse(JSON.stringify(g.event)) as unknown));
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
          await tl.insert(
            globalEvents(d + 1, eventsMessage('c', 'n', epoch, d * 10 + 1, 10, now - d * DAY)),
          );
        if (dialect === 'postgres') expect(await tl.listPartitions()).toHaveLength(4);
        const res = await tl.retention({ maxAgeMs: 1.5 * DAY }, now);
        if (dialect === 'postgres') {
          // days ending before now − 1.5 d are dropped whole: the ones of now − 2 d and now − 3 d
          expect(res.droppedPartitions).toHaveLength(2);
          expect(await tl.listPartitions()).toHaveLength(2);
          expect(await tl.count()).toBe(20);
        } else {
          expect(res.deletedRows).toBe(20);
          expect(await tl.count()).toBe(20);
        }
      } finally {
        await tl.close();
      }
    });
  },
);

describe('PostgreSQL specifics', () => {
  it('partitions by day with a BRIN index on t', async () => {
    const tl = await open.postgres();
    try {
      await tl.insert(
        globalEvents(1, eventsMessage('c', 'n', newEpoch(), 1, 1, Date.UTC(2026, 0, 2, 3))),
      );
      const parts = await tl.listPartitions();
      expect(parts).toEqual([`cluster_events_day_${Math.floor(Date.UTC(2026, 0, 2) / DAY)}`]);
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
