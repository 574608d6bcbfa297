/**
 * Checkpoints of the cluster timeline on PostgreSQL and SQLite: a seek from a checkpoint is the
 * fold from the start, its cost bounded; checkpoints go no further than the writers' floor; and
 * retention through the keeper leaves every state after its cut as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { startPostgres, type PostgresInstance } from '@/test/cluster/harness';
import { newEpoch } from '../envelope';
import { eventsMessage } from '../testing';
import { CheckpointKeeper, ClusterCheckpoints, foldTimeline, stateAt } from './checkpoints';
import { keeperLock, type KeeperLock } from './keeper-lock';
import { KeeperThread, startKeeper } from './keeper-thread';
import type { OpenOptions } from '@/server/timeline-db/open';
import { storedMessage } from './rows';
import { openClusterTimeline, type ClusterTimeline } from './timeline';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20);
const EVERY = 400;

let pgi: PostgresInstance;
let dir: string;
let dbn = 0;

beforeAll(async () => {
  pgi = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'podscope-cp-'));
});
afterAll(async () => {
  await pgi?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** A new database of each dialect, as a replica is told where it is. */
const where: Record<'postgres' | 'sqlite', () => Promise<OpenOptions>> = {
  postgres: async () => ({ url: await pgi.createDatabase(`cp${++dbn}`) }),
  sqlite: () => Promise.resolve({ path: join(dir, `cp${++dbn}.db`) }),
};
const open = {
  postgres: async () => openClusterTimeline(await where.postgres()),
  sqlite: async () => openClusterTimeline(await where.sqlite()),
};

/**
 * `batches` relists of a synthetic workload on four nodes, one bus message per node and batch,
 * `stepMs` apart; node-001's agent restarts halfway (a new epoch: its state is rebuilt).
 * Returns the times of the batches.
 */
async function fill(tl: ClusterTimeline, batches: number, stepMs: number): Promise<number[]> {
  const work = new SyntheticWorkload({ seed: 7, nodes: 4, podsPerNode: 6, startT: T0, stepMs });
  const epochs = new Map<string, string>();
  const seqs = new Map<string, number>();
  let streamSeq = 0;
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const batch = b === 0 ? work.startAll() : work.nextBatch();
    const byNode = new Map<string, TimelineEvent[]>();
    if (b === Math.floor(batches / 2)) {
      // The restarted agent's first event says the node is there, as a real one does.
      epochs.set('node-001', newEpoch());
      const t = batch[0]?.t ?? T0;
      batch.unshift({
        kind: 'node',
        type: 'NodeAdded',
        t,
        node: 'node-001',
        endpoint: 'unix:///run/node-001.sock',
        health: { connected: true },
      });
    }
    for (const e of batch) {
      const seq = (seqs.get(e.node) ?? 0) + 1;
      seqs.set(e.node, seq);
      const list = byNode.get(e.node) ?? [];
      list.push({ ...e, seq });
      byNode.set(e.node, list);
    }
    const rows = [...byNode].flatMap(([node, events]) => {
      if (!epochs.has(node)) epochs.set(node, newEpoch());
      const msg = eventsMessage(
        'c',
        node,
        epochs.get(node) ?? '',
        events[0]?.seq ?? 1,
        events.length,
        events[0]?.t ?? T0,
        events,
      );
      return storedMessage(++streamSeq, msg);
    });
    await tl.insert(rows);
    times.push(batch[0]?.t ?? T0);
  }
  return times;
}

/**
 * States as the wire carries them (lib/timeline/codec): a checkpoint revives its times as Dates,
 * event rows are plain JSON with times as strings; the console's transformer sends both alike.
 */
const wire = (s: ClusterState | undefined): unknown => (s ? decode(encode(s)) : s);

/** The reference: the whole timeline folded from its first event. */
const fromScratch = async (tl: ClusterTimeline, t: number) =>
  wire((await foldTimeline(tl, undefined, { tMax: t })).state);
const seekAt = async (tl: ClusterTimeline, cps: ClusterCheckpoints, t: number) =>
  wire(await stateAt(tl, cps, t));

/** A keeper writing a checkpoint every EVERY events, with no pause between them. */
const keeperOf = (
  tl: ClusterTimeline,
  checkpoints: ClusterCheckpoints,
  floor: () => Promise<number>,
  now?: () => number,
  lock?: KeeperLock,
) =>
  new CheckpointKeeper({
    timeline: tl,
    checkpoints,
    floor,
    everyEvents: EVERY,
    minIntervalMs: 0,
    ...(now ? { now } : {}),
    ...(lock ? { lock } : {}),
  });

async function until(fn: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function tickUntilQuiet(keeper: { tick(): Promise<unknown> }): Promise<void> {
  for (let i = 0; i < 1_000; i++) if (!(await keeper.tick())) return;
  throw new Error('the keeper never stopped writing checkpoints');
}

describe.each(['postgres', 'sqlite'] as const)('cluster checkpoints on %s', (dialect) => {
  it('a seek from the newest checkpoint before t is the fold from the start, and reads a bounded stretch', async () => {
    const tl = await open[dialect]();
    try {
      const times = await fill(tl, 120, 1_000);
      const checkpoints = new ClusterCheckpoints(tl);
      const keeper = keeperOf(tl, checkpoints, () => tl.latestGid());
      await tickUntilQuiet(keeper);
      const total = await tl.count();
      expect(await checkpoints.count()).toBeGreaterThanOrEqual(Math.floor(total / (2 * EVERY)));
      for (const i of [0, 3, 17, 40, 59, 60, 61, 88, 119]) {
        const t = (times[i] ?? 0) + 500;
        const from = await checkpoints.serving(t);
        const seek = await foldTimeline(tl, from, { tMax: t });
        expect(wire(seek.state), `t = batch ${i}`).toEqual(await fromScratch(tl, t));
        expect(await seekAt(tl, checkpoints, t)).toEqual(wire(seek.state));
        // What a seek folds is what lies after its checkpoint: about one checkpoint's worth.
        expect(seek.events).toBeLessThanOrEqual(3 * EVERY);
      }
      expect(await seekAt(tl, checkpoints, T0 - 1)).toEqual(await fromScratch(tl, T0 - 1));
    } finally {
      await tl.close();
    }
  });

  it('folds nothing past the writers’ floor (a batch above it may still be committing)', async () => {
    const tl = await open[dialect]();
    try {
      await fill(tl, 60, 1_000);
      const floor = Math.floor((await tl.latestGid()) / 2);
      const checkpoints = new ClusterCheckpoints(tl);
      const keeper = keeperOf(tl, checkpoints, () => Promise.resolve(floor));
      await tickUntilQuiet(keeper);
      const latest = await checkpoints.latest();
      expect(latest).toBeDefined();
      expect(latest?.gid ?? Infinity).toBeLessThanOrEqual(floor);
      // No events: no checkpoint, and the floor of an empty stream is not a reason to write one.
      const empty = await open[dialect]();
      try {
        const none = new CheckpointKeeper({
          timeline: empty,
          checkpoints: new ClusterCheckpoints(empty),
          floor: () => Promise.resolve(0),
        });
        expect(await none.tick()).toBeUndefined();
      } finally {
        await empty.close();
      }
    } finally {
      await tl.close();
    }
  });

  it('retention through the keeper: every state after the cut is as before, earlier ones are the base', async () => {
    const tl = await open[dialect]();
    try {
      // 80 batches two hours apart: a little under seven days of events.
      const times = await fill(tl, 80, 2 * HOUR);
      const now = (times.at(-1) ?? T0) + HOUR;
      const policy = { maxAgeMs: 3 * 24 * HOUR };
      const cut = tl.retentionCut(policy, now);
      const checkpoints = new ClusterCheckpoints(tl);
      let floor = 0;
      const keeper = keeperOf(
        tl,
        checkpoints,
        () => Promise.resolve(floor),
        () => now,
      );
      // While the writers have not committed past what retention would remove, it waits.
      const waiting = await keeper.retain(policy);
      expect(waiting.skipped).toMatch(/not yet past/);
      expect(await tl.oldestGid()).toBe((await tl.eventsAfter(0, 1))[0]?.seq);

      floor = await tl.latestGid();
      await tickUntilQuiet(keeper);
      const after = times.filter((t) => t >= cut + 2 * HOUR).map((t) => t + 1);
      expect(after.length).toBeGreaterThan(10);
      const expected: unknown[] = [];
      for (const t of after) expected.push(await fromScratch(tl, t));
      const before = await tl.count();

      const result = await keeper.retain(policy);
      expect(result.skipped).toBeUndefined();
      expect(result.droppedPartitions.length + result.deletedRows).toBeGreaterThan(0);
      expect(await tl.count()).toBeLessThan(before);
      for (const [i, t] of after.entries())
        expect(await seekAt(tl, checkpoints, t), `t = ${new Date(t).toISOString()}`).toEqual(
          expected[i],
        );
      // The events before the cut are gone; the earliest state known is the base checkpoint's.
      const base = await checkpoints.base();
      expect(base).toBeDefined();
      expect(await seekAt(tl, checkpoints, T0 + 1)).toEqual(
        wire((await foldTimeline(tl, base, { tMax: T0 + 1 })).state),
      );
      expect(Object.keys(base?.state.nodes ?? {}).length).toBe(4);
      // Checkpoints older than the base would fold forward from removed events: gone.
      expect(await checkpoints.atOrBelow((base?.gid ?? 0) - 1)).toBeUndefined();
      // A second round removes nothing more and keeps the same answers.
      await keeper.retain(policy);
      expect(await seekAt(tl, checkpoints, after[0] ?? 0)).toEqual(expected[0]);
    } finally {
      await tl.close();
    }
  });
});

describe.each(['postgres', 'sqlite'] as const)('the keeper thread on %s', (dialect) => {
  it('writes, in a worker thread of its own, checkpoints a seek starts from, up to the floor it is sent', async () => {
    const options = await where[dialect]();
    const tl = await openClusterTimeline(options);
    const thread = new KeeperThread({
      open: options,
      floor: async () => Math.floor((await tl.latestGid()) * 0.75),
      everyEvents: EVERY,
      minIntervalMs: 0,
      log: () => {},
    });
    try {
      const times = await fill(tl, 80, 1_000);
      const floor = Math.floor((await tl.latestGid()) * 0.75);
      const written = await thread.tick();
      expect(written?.gid).toBeGreaterThan(0);
      await tickUntilQuiet(thread);
      const checkpoints = new ClusterCheckpoints(tl);
      const latest = await checkpoints.latest();
      expect(latest?.gid).toBeLessThanOrEqual(floor);
      expect(latest?.gid).toBeGreaterThan(floor - 2 * EVERY * 1024);
      expect(await checkpoints.count()).toBeGreaterThan(1);
      for (const i of [10, 40, 79]) {
        const t = (times[i] ?? 0) + 500;
        expect(await seekAt(tl, checkpoints, t), `t = batch ${i}`).toEqual(
          await fromScratch(tl, t),
        );
      }
      // Retention goes through the thread too (nothing is old enough here).
      const kept = await thread.retain({ maxAgeMs: 365 * 24 * HOUR });
      expect(kept.skipped).toBeUndefined();
      expect(kept.droppedPartitions.length + kept.deletedRows).toBe(0);
    } finally {
      await thread.stop();
      await tl.close();
    }
    await expect(thread.tick()).rejects.toThrow(/stopped/);
  });
});

describe('startKeeper', () => {
  it('runs the keeper thread when its files are there, else the keeper on this thread, saying so', async () => {
    const options = await where.sqlite();
    const tl = await openClusterTimeline(options);
    const logs: string[] = [];
    const base = {
      open: options,
      timeline: tl,
      floor: () => tl.latestGid(),
      everyEvents: EVERY,
      minIntervalMs: 0,
      log: (line: string) => logs.push(line),
    };
    const threaded = startKeeper(base);
    expect(logs).toEqual([]);
    const inline = startKeeper({
      ...base,
      paths: () => {
        throw new Error('cannot find server/engine/workers/boot.mjs');
      },
    });
    try {
      expect(threaded).toBeInstanceOf(KeeperThread);
      expect(inline).not.toBeInstanceOf(KeeperThread);
      expect(logs).toEqual([expect.stringMatching(/event loop.*cannot find/) as unknown]);
      await fill(tl, 40, 1_000);
      await tickUntilQuiet(inline);
      expect(await new ClusterCheckpoints(tl).count()).toBeGreaterThan(0);
    } finally {
      await inline.stop();
      await threaded.stop();
      await tl.close();
    }
  });
});

describe('the keeper thread when its database is not there', () => {
  it('says why, ends, and the next look starts a thread that finds it', async () => {
    const name = `cp${++dbn}`;
    let floor = 0;
    const thread = new KeeperThread({
      open: { url: pgi.url(name) },
      floor: () => Promise.resolve(floor),
      everyEvents: EVERY,
      minIntervalMs: 0,
      log: () => {},
    });
    try {
      await expect(thread.tick()).rejects.toThrow(/does not exist/);
      const tl = await openClusterTimeline({ url: await pgi.createDatabase(name) });
      try {
        await fill(tl, 40, 1_000);
        floor = await tl.latestGid();
        // The first thread has ended (its database was missing); this look starts another.
        await until(async () => (await thread.tick().catch(() => undefined)) !== undefined);
        expect(await new ClusterCheckpoints(tl).count()).toBeGreaterThan(0);
      } finally {
        await tl.close();
      }
    } finally {
      await thread.stop();
    }
  });
});

describe('one checkpoint keeper among replicas (PostgreSQL advisory lock)', () => {
  it('two replicas: one writes the checkpoints; when its session dies the other takes over', async () => {
    const options = await where.postgres();
    const a = await openClusterTimeline(options);
    const b = await openClusterTimeline(options);
    const lockA = keeperLock(options);
    const lockB = keeperLock(options);
    try {
      await fill(a, 80, 1_000);
      const newest = await a.latestGid();
      // The writers have committed half of it when A dies, all of it afterwards.
      let committed = Math.floor(newest / 2);
      const floor = () => Promise.resolve(committed);
      const checkpoints = new ClusterCheckpoints(a);
      const keeperA = keeperOf(a, checkpoints, floor, undefined, lockA);
      const keeperB = keeperOf(b, new ClusterCheckpoints(b), floor, undefined, lockB);
      expect(await lockA.held()).toBe(true);
      // B looks first and often: A holds the lock, so B writes nothing and runs no retention.
      expect(await keeperB.tick()).toBeUndefined();
      expect(await checkpoints.count()).toBe(0);
      expect(await keeperB.retain({ maxAgeMs: 0 })).toMatchObject({
        skipped: expect.stringMatching(/another replica/) as unknown,
        elsewhere: true,
        deletedRows: 0,
      });
      expect(await a.count()).toBeGreaterThan(0);
      await tickUntilQuiet(keeperA);
      const byA = await checkpoints.count();
      expect(byA).toBeGreaterThan(0);

      // A dies: its lock's session ends (as when its process is killed).
      await sql`SELECT pg_terminate_backend(pid) FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(
        b.db,
      );
      committed = newest;
      await until(async () => (await lockB.held()) === true);
      expect(await keeperB.tick()).toBeDefined();
      await tickUntilQuiet(keeperB);
      expect(await checkpoints.count()).toBeGreaterThan(byA);
      expect((await checkpoints.latest())?.gid).toBeGreaterThan(newest - 2 * EVERY * 1024);
      // A, alive again, finds the lock taken and leaves the checkpoints to B.
      expect(await lockA.held()).toBe(false);
      expect(await keeperA.tick()).toBeUndefined();
      expect(await lockB.held()).toBe(true);
    } finally {
      await lockA.close();
      await lockB.close();
      await a.close();
      await b.close();
    }
  });

  it('SQLite: one replica per file, the lock is always held', async () => {
    const lock = keeperLock(await where.sqlite());
    expect(await lock.held()).toBe(true);
    await lock.close();
  });
});
