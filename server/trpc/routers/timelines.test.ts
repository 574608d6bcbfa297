/** The timelines router through createCaller (no HTTP), over a real store in a temporary folder. */
import { gzipSync } from 'node:zlib';
import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serializeTimelineFile } from '@/lib/timeline/file';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { ManualClock, tempDir } from '@/server/timeline-db/testing/testkit';
import { TimelinesService, savedInStore } from '@/server/timelines';
import { createCaller } from '../root';
import { testContext } from '../testing/context';

const START = Date.UTC(2025, 0, 1);
let tmp: ReturnType<typeof tempDir>;
let store: TimelineStore;
let caller: ReturnType<typeof createCaller>;

beforeEach(() => {
  tmp = tempDir('podscope-trpc-timelines-');
  store = openStore({ path: tmp.dir, clock: new ManualClock(START + 3_600_000) });
  const workload = new SyntheticWorkload({
    seed: 3,
    nodes: 1,
    podsPerNode: 3,
    startT: START,
    stepMs: 500,
    batchMin: 3,
    batchMax: 10,
  });
  for (const b of workload.batches(300)) store.append(b);
  caller = createCaller(testContext({ timelines: new TimelinesService(savedInStore(store)) }));
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

async function rejection(p: Promise<unknown>): Promise<TRPCError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
  throw new Error('expected a TRPCError');
}

describe('timelines router', () => {
  it('saves, lists, gets, annotates and deletes', async () => {
    const saved = await caller.timelines.save({
      title: 'OOM on node-1',
      notes: 'memory limit too low',
      from: START + 2_000,
      to: START + 10_000,
      annotations: [{ t: START + 3_000, entity: 'node-1', text: 'first kill' }],
    });
    expect(saved).toMatchObject({ title: 'OOM on node-1', annotationCount: 1 });
    expect((await caller.timelines.list()).map((s) => s.id)).toEqual([saved.id]);
    const note = await caller.timelines.annotate({
      id: saved.id,
      t: START + 4_000,
      text: 'second',
    });
    expect(note).toMatchObject({ timelineId: saved.id, text: 'second' });
    const full = await caller.timelines.get({ id: saved.id });
    expect(full.annotations.map((a) => a.text)).toEqual(['first kill', 'second']);
    expect(full.events.length).toBe(saved.eventCount);
    expect(full.initialState.seq).toBe(saved.fromSeq);
    expect(await caller.timelines.delete({ id: saved.id })).toEqual({ ok: true });
    expect((await rejection(caller.timelines.get({ id: saved.id }))).code).toBe('NOT_FOUND');
    expect((await rejection(caller.timelines.delete({ id: saved.id }))).code).toBe('NOT_FOUND');
  });

  it('validates every input with the limits', async () => {
    const bad = [
      caller.timelines.save({ title: ' ', from: START, to: START + 1 }),
      caller.timelines.save({ title: 'x'.repeat(201), from: START, to: START + 1 }),
      caller.timelines.save({ title: 't', from: START + 2, to: START + 1 }),
      caller.timelines.save({
        title: 't',
        from: START,
        to: START + 1,
        annotations: [{ t: START + 5, text: 'late' }],
      }),
      caller.timelines.save({ title: 't', notes: 'n'.repeat(70_000), from: START, to: START + 1 }),
      caller.timelines.get({ id: '../etc/passwd' }),
      caller.timelines.annotate({ id: 'abc', t: Number.NaN, text: 'x' }),
      caller.timelines.import({ file: '' }),
    ];
    for (const p of bad) expect((await rejection(p)).code).toBe('BAD_REQUEST');
  });

  it('reports store refusals without the server’s file path', async () => {
    const saved = await caller.timelines.save({
      title: 't',
      from: START + 1_000,
      to: START + 2_000,
    });
    const err = await rejection(
      caller.timelines.annotate({ id: saved.id, t: START + 9_000, text: 'outside' }),
    );
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/^annotation at t=\d+ is outside the saved period/);
    expect(err.message).not.toContain(tmp.dir);
  });

  it('imports a file and returns located errors for a bad one, storing nothing', async () => {
    const saved = await caller.timelines.save({
      title: 'to share',
      from: START + 1_000,
      to: START + 8_000,
    });
    const json = serializeTimelineFile(
      await new TimelinesService(savedInStore(store)).exportFile(saved.id),
    );
    const ok = await caller.timelines.import({ file: gzipSync(json).toString('base64') });
    expect(ok.ok).toBe(true);
    if (ok.ok)
      expect((await caller.timelines.get({ id: ok.id })).events.length).toBe(saved.eventCount);
    const before = (await caller.timelines.list()).length;
    const broken = json.replace('"version":1', '"version":7');
    const refused = await caller.timelines.import({ file: broken });
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'UNSUPPORTED_VERSION',
        issues: [expect.objectContaining({ path: 'version' })],
      }),
    });
    const malformed = await caller.timelines.import({ file: json.slice(0, 300) });
    expect(malformed.ok).toBe(false);
    if (!malformed.ok) expect(malformed.error.issues[0]).toMatchObject({ path: '(root)', line: 1 });
    expect((await caller.timelines.list()).length).toBe(before);
  });
});
