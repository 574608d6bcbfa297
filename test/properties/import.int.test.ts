/**
 * The timeline importer and damaged files, at the byte level and through the server: a valid file
 * — plain or gzip — with bytes flipped, cut, inserted or repeated is either read (and then replays
 * like any file) or refused with a TimelineFileError carrying located issues; nothing else comes
 * out, and through the tRPC import a refused file stores nothing. (Structural and textual JSON
 * mutations: lib/timeline/file/property.test.ts; refused imports through the service:
 * server/timelines/service.test.ts.)
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isTimelineFileError,
  readTimelineFile,
  serializeTimelineFile,
  stateAtTime,
} from '@/lib/timeline/file';
import { sampleFile } from '@/lib/timeline/file/testing';
import { Engine } from '@/server/engine/engine';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { engineStore } from '@/server/engine/store-adapter';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { TimelinesService } from '@/server/timelines/service';
import { savedInStore } from '@/server/timelines/storage';
import { createCaller } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

const text = serializeTimelineFile(sampleFile({ cycles: 2 }));
const plain = new TextEncoder().encode(text);
const gzipped = new Uint8Array(gzipSync(plain));

const mutation = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(7) }),
    fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
    fc.record({
      op: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    }),
    fc.record({
      op: fc.constant('repeat' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 200 }),
    }),
  ),
  { minLength: 1, maxLength: 3 },
);
type Mutation = typeof mutation extends fc.Arbitrary<(infer M)[]> ? M : never;

function mutate(bytes: Uint8Array, ms: readonly Mutation[]): Uint8Array {
  let b = Buffer.from(bytes);
  for (const m of ms) {
    if (b.length === 0) break;
    const at = m.at % b.length;
    if (m.op === 'flip') b[at] = (b[at] ?? 0) ^ (1 << m.bit);
    else if (m.op === 'cut') b = b.subarray(0, at);
    else if (m.op === 'insert')
      b = Buffer.concat([b.subarray(0, at), Buffer.from(m.bytes), b.subarray(at)]);
    else
      b = Buffer.concat([
        b.subarray(0, at + m.length),
        b.subarray(at, at + m.length),
        b.subarray(at + m.length),
      ]);
  }
  return new Uint8Array(b);
}

/** Read, or refused with located issues; anything else (a crash, a non-file error) fails. */
async function readOrRefuse(bytes: Uint8Array): Promise<'read' | 'refused'> {
  try {
    const file = await readTimelineFile(bytes);
    stateAtTime(file, file.to);
    return 'read';
  } catch (err) {
    expect(isTimelineFileError(err)).toBe(true);
    if (isTimelineFileError(err)) {
      expect(err.issues.length).toBeGreaterThan(0);
      for (const issue of err.issues) expect(issue.message.length).toBeGreaterThan(0);
    }
    return 'refused';
  }
}

describe('damaged timeline files', () => {
  it('plain JSON bytes: read or refused with located issues', async () => {
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(mutation, async (ms) => {
        outcomes.add(await readOrRefuse(mutate(plain, ms)));
      }),
      { numRuns: 400 },
    );
    // Both happen: a flipped bit inside a string is still a file; most damage is not.
    expect([...outcomes].sort()).toEqual(['read', 'refused']);
  });

  it('gzip bytes: read or refused with located issues (damaged streams, bad checksums, truncation)', async () => {
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(mutation, async (ms) => {
        outcomes.add(await readOrRefuse(mutate(gzipped, ms)));
      }),
      { numRuns: 400 },
    );
    expect(outcomes.has('refused')).toBe(true);
  });
});

describe('timelines.import through tRPC', () => {
  let dir: string;
  let store: TimelineStore;
  let engine: Engine;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'podscope-import-'));
    store = openStore({ path: dir });
    engine = new Engine({
      store: engineStore(store),
      timings: DEFAULT_ENGINE_TIMINGS,
      dial: () => ({}) as RuntimeClient,
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await engine.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a refused file stores nothing; an accepted one is stored once', async () => {
    const caller = createCaller(
      testContext({ engine, timelines: new TimelinesService(savedInStore(store)) }),
    );
    const seen = new Set<boolean>();
    await fc.assert(
      fc.asyncProperty(mutation, fc.boolean(), async (ms, zipped) => {
        const before = store.listTimelines().length;
        const bytes = mutate(zipped ? gzipped : plain, ms);
        // JSON as text (what the import page sends), gzip as base64.
        const file = zipped
          ? Buffer.from(bytes).toString('base64')
          : new TextDecoder().decode(bytes);
        if (file.length === 0) return;
        const result = await caller.timelines.import({ file });
        seen.add(result.ok);
        const after = store.listTimelines().length;
        if (result.ok) expect(after).toBe(before + 1);
        else {
          expect(after).toBe(before);
          expect(result.error.issues.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 60 },
    );
    expect(seen.has(false)).toBe(true);
  });
});
