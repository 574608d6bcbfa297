import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encode } from '@/lib/timeline/codec';
import {
  DEFAULT_LIMITS,
  TimelineFileError,
  parseTimelineText,
  serializeTimelineFile,
  stateAtTime,
  timelineTimes,
  type TimelineFile,
} from '@/lib/timeline/file';
import { sampleEvents, sampleFile } from '@/lib/timeline/file/testing';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { openStore, SAVED_TIMELINE_LIMITS, type TimelineStore } from '@/server/timeline-db';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { ManualClock, tempDir } from '@/server/timeline-db/testing/testkit';
import { fileStem, TimelinesService } from './service';
import { savedInStore } from './storage';

const START = Date.UTC(2025, 0, 1);
let dirs: ReturnType<typeof tempDir>[];
let stores: TimelineStore[];

function newStore(): TimelineStore {
  const tmp = tempDir('podscope-timelines-');
  dirs.push(tmp);
  const store = openStore({
    path: tmp.dir,
    clock: new ManualClock(START + 3_600_000),
    checkpointEvery: 300,
  });
  stores.push(store);
  return store;
}

beforeEach(() => {
  dirs = [];
  stores = [];
});
afterEach(() => {
  for (const s of stores) s.close();
  for (const d of dirs) d.cleanup();
});

/** A store recording a synthetic workload: 2,000 events over about 30 s of timeline time. */
function recordedStore(): TimelineStore {
  const store = newStore();
  const workload = new SyntheticWorkload({
    seed: 7,
    nodes: 2,
    podsPerNode: 5,
    startT: START,
    stepMs: 250,
    batchMin: 5,
    batchMax: 30,
  });
  for (const batch of workload.batches(2_000)) store.append(batch);
  return store;
}

async function thrown<E extends Error>(
  type: new (...a: never[]) => E,
  fn: () => Promise<unknown>,
): Promise<E> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error('expected a throw');
}

describe('TimelinesService', () => {
  it('keeps the file limits equal to the store limits for saved timelines', () => {
    expect(DEFAULT_LIMITS.titleChars).toBe(SAVED_TIMELINE_LIMITS.titleChars);
    expect(DEFAULT_LIMITS.notesBytes).toBe(SAVED_TIMELINE_LIMITS.notesBytes);
    expect(DEFAULT_LIMITS.annotationBytes).toBe(SAVED_TIMELINE_LIMITS.annotationBytes);
    expect(DEFAULT_LIMITS.entityChars).toBe(SAVED_TIMELINE_LIMITS.entityChars);
    expect(DEFAULT_LIMITS.annotations).toBe(SAVED_TIMELINE_LIMITS.annotationsPerSave);
  });

  it('exports a saved period as a file the schema accepts, and it replays like the store', async () => {
    const store = recordedStore();
    const service = new TimelinesService(savedInStore(store), { version: '9.9.9' });
    const bounds = store.bounds();
    const from = START + 8_000;
    const to = START + 20_000;
    const saved = await service.save({
      title: 'a period',
      notes: 'n',
      from,
      to,
      annotations: [{ t: from + 10, entity: 'node-1', text: 'look' }],
    });
    const file = parseTimelineText(serializeTimelineFile(await service.exportFile(saved.id)));
    expect(file.source).toMatchObject({ podscope: '9.9.9', kind: 'saved' });
    expect(file.annotations).toEqual([{ t: from + 10, entity: 'node-1', text: 'look' }]);
    expect(file.events.length).toBe(saved.eventCount);
    expect(file.events.length).toBeGreaterThan(100);
    expect(file.initialState.seq).toBe(saved.fromSeq);
    expect(bounds.latestT).toBeGreaterThan(to);
    for (let i = 0; i <= 10; i++) {
      const t = from + ((to - from) * i) / 10;
      expect(encode(stateAtTime(file, t))).toBe(encode(store.stateAt(t)));
    }
  });

  it('imports into a fresh store with the file’s own seqs, state for state', async () => {
    const source = recordedStore();
    const exporter = new TimelinesService(savedInStore(source));
    const from = START + 5_000;
    const to = START + 25_000;
    const { id } = await exporter.save({ title: 'crash', from, to });
    const { body } = await exporter.exportBytes(id, { gzip: true });

    // The target has its own live timeline whose seqs overlap the file's.
    const target = newStore();
    target.append(
      sampleEvents(1)
        .filter((e) => e.kind !== 'k8s')
        .map(({ seq: _s, ...e }) => e as UnsequencedEvent),
    );
    const importer = new TimelinesService(savedInStore(target));
    const summary = await importer.importBytes(body);
    const original = await exporter.get(id);
    const copy = await importer.get(summary.id);
    expect(summary).toMatchObject({
      title: 'crash',
      from,
      to,
      fromSeq: original.fromSeq,
      toSeq: original.toSeq,
      eventCount: original.eventCount,
    });
    expect(copy.events.map((e) => e.seq)).toEqual(original.events.map((e) => e.seq));
    expect(copy.initialState).toEqual(original.initialState);
    expect(copy.events).toEqual(original.events);
    const times = timelineTimes(copy);
    for (let i = 0; i < 10; i++) {
      const t = times[Math.floor((times.length * i) / 10)] ?? to;
      expect(encode(stateAtTime(copy, t))).toBe(encode(source.stateAt(t)));
    }
    // Re-exporting gives the same document, header aside.
    const again = serializeTimelineFile(await importer.exportFile(summary.id));
    expect(again).toBe(serializeTimelineFile(await exporter.exportFile(id)));
  });

  it('imports JSON text and base64 text', async () => {
    const store = recordedStore();
    const service = new TimelinesService(savedInStore(store));
    const { id } = await service.save({ title: 't', from: START + 1_000, to: START + 3_000 });
    const json = serializeTimelineFile(await service.exportFile(id));
    const a = await service.importText(json);
    const b = await service.importText(gzipSync(json).toString('base64'));
    const c = await service.importText(Buffer.from(json).toString('base64'));
    const original = await service.get(id);
    expect((await service.get(a.id)).events).toEqual(original.events);
    expect((await service.get(b.id)).events).toEqual(original.events);
    expect((await service.get(c.id)).initialState).toEqual(original.initialState);
  });

  it('refuses bad files with located errors and stores nothing', async () => {
    const store = recordedStore();
    const service = new TimelinesService(savedInStore(store));
    const { id } = await service.save({ title: 't', from: START + 1_000, to: START + 3_000 });
    const json = serializeTimelineFile(await service.exportFile(id));
    const before = store.stats().timelines;
    const doc = JSON.parse(json) as { events: { status?: unknown }[]; version: number };
    const withStatus = doc.events.findIndex((e) => e.status !== undefined);
    (doc.events[withStatus] as { status: unknown }).status = 'broken';
    const located = await thrown(TimelineFileError, () => service.importText(JSON.stringify(doc)));
    expect(located.code).toBe('INVALID');
    expect(located.issues[0]?.path).toBe(`events[${withStatus}].status`);
    expect(
      (await thrown(TimelineFileError, () => service.importText(json.slice(0, 500)))).code,
    ).toBe('MALFORMED_JSON');
    expect(
      (await thrown(TimelineFileError, () => service.importBytes(gzipSync(json).subarray(0, 100))))
        .code,
    ).toBe('BAD_GZIP');
    expect(
      (await thrown(TimelineFileError, () => service.importText('not json'))).issues[0],
    ).toMatchObject({ line: 1, column: 1 });
    expect(store.stats().timelines).toBe(before);
  });

  it('refuses a gzip bomb with zlib, stopping at the limit', async () => {
    const store = newStore();
    const service = new TimelinesService(savedInStore(store));
    const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(400 * 1024);
    const started = performance.now();
    const err = await thrown(TimelineFileError, () => service.importBytes(bomb));
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toMatch(/decompresses to more than 52428800 bytes/);
    // Stopping at 50 MiB, not inflating all 200: well under a second here.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(store.stats().timelines).toBe(0);
  });

  it('never stores a file it refuses, whatever is done to it', async () => {
    const store = recordedStore();
    const service = new TimelinesService(savedInStore(store));
    const { id } = await service.save({ title: 't', from: START + 2_000, to: START + 4_000 });
    const json = serializeTimelineFile(await service.exportFile(id));
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: json.length - 1 }),
        fc.constantFrom('', '"', '}', '0', '\u0000', '{"x":1}'),
        async (at, insert) => {
          const before = store.stats().timelines;
          const mutated = json.slice(0, at) + insert + json.slice(at + 1);
          let stored = false;
          try {
            const summary = await service.importText(mutated);
            stored = true;
            const copy = await service.get(summary.id);
            expect(encode(stateAtTime(copy, copy.to))).toBe(
              encode(stateAtTime(parseTimelineText(mutated), copy.to)),
            );
          } catch (err) {
            expect(err).toBeInstanceOf(TimelineFileError);
          }
          expect(store.stats().timelines).toBe(before + (stored ? 1 : 0));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("imports into an in-memory store too (through the store's own connection)", async () => {
    const memory = openStore({ path: ':memory:' });
    stores.push(memory);
    const file: TimelineFile = sampleFile();
    const saved = await new TimelinesService(savedInStore(memory)).importFile(file);
    expect(memory.getTimeline(saved.id).events).toEqual(file.events);
  });

  it('names export files after the title, safely', () => {
    expect(fileStem('web-1 crash loop 12:00')).toBe('web-1-crash-loop-12-00');
    expect(fileStem('../../etc/passwd')).toBe('etc-passwd');
    expect(fileStem('<script>')).toBe('script');
    expect(fileStem('节点 NotReady')).toBe('节点-NotReady');
    expect(fileStem('///')).toBe('timeline');
  });
});
