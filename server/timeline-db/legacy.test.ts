/**
 * A data directory written by Podscope before the one timeline schema reads the same after the
 * migration: fixtures/v3.db was written by that code (server/store at commit 5d6ceae, its
 * fixtures/make-v3.ts), and v3.expected.json holds what reading it gave then.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encode } from '@/lib/timeline/codec';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { MIGRATIONS } from './schema';
import { openStore } from './store';
import { tempDir } from './testing/testkit';

const FIXTURES = join(import.meta.dirname, 'fixtures');

interface Expected {
  bounds: Record<string, number>;
  count: number;
  stats: { events: number; checkpoints: number; timelines: number };
  eventsHash: string;
  afterFloor: number[];
  statesAtSeq: Record<string, string>;
  statesAt: Record<string, string>;
  list: { id: string }[];
  timelines: Record<string, { initialState: string; events: string; annotations: unknown[] }>;
}

const expected = JSON.parse(readFileSync(join(FIXTURES, 'v3.expected.json'), 'utf8')) as Expected;
const hash = (value: unknown): string => createHash('sha256').update(encode(value)).digest('hex');

let tmp: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  tmp = tempDir();
  file = join(tmp.dir, 'timeline.db');
  copyFileSync(join(FIXTURES, 'v3.db'), file);
});
afterEach(() => tmp.cleanup());

describe('a data directory of schema v3', () => {
  it('reads its events, states, checkpoints and saved timelines back after the migration', () => {
    const store = openStore({ path: tmp.dir });
    try {
      expect(store.bounds()).toEqual(expected.bounds);
      expect(store.count()).toBe(expected.count);
      const stats = store.stats();
      expect({
        events: stats.events,
        checkpoints: stats.checkpoints,
        timelines: stats.timelines,
      }).toEqual(expected.stats);
      expect(hash(store.range({ limit: Number.POSITIVE_INFINITY }))).toBe(expected.eventsHash);
      expect(store.eventsAfter(expected.bounds.floorSeq ?? 0, 5).map((e) => e.seq)).toEqual(
        expected.afterFloor,
      );
      for (const [seq, h] of Object.entries(expected.statesAtSeq))
        expect(hash(store.stateAtSeq(Number(seq))), `state at seq ${seq}`).toBe(h);
      for (const [t, h] of Object.entries(expected.statesAt))
        expect(hash(store.stateAt(Number(t))), `state at t=${t}`).toBe(h);
      // Below the retention floor nothing is made up.
      expect(() => store.stateAtSeq((expected.bounds.floorSeq ?? 0) - 1)).toThrow(
        /older than the retained timeline/,
      );
      expect(store.listTimelines()).toEqual(expected.list);
      for (const [id, want] of Object.entries(expected.timelines)) {
        const got = store.getTimeline(id);
        expect(hash(got.initialState)).toBe(want.initialState);
        expect(hash(got.events)).toBe(want.events);
        expect(got.annotations).toEqual(want.annotations);
      }
      // It goes on: the next seq follows the old ones, and a new save sits beside the old.
      const next = store.append(new SyntheticWorkload({ seed: 31 }).nextBatch());
      expect(next[0]?.seq).toBe((expected.bounds.latestSeq ?? 0) + 1);
      const id = expected.list[0]?.id ?? '';
      const { from } = store.getTimeline(id);
      const added = store.addAnnotation(id, { t: from, text: 'after the migration' });
      expect(store.getTimeline(id).annotations.map((a) => a.id)).toContain(added.id);
    } finally {
      store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all()).toEqual(
        MIGRATIONS.map((m) => m.name),
      );
      const tables = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .pluck()
        .all();
      expect(tables).not.toContain('timelines');
      expect(tables).not.toContain('timeline_events');
      expect(tables).not.toContain('annotations');
      expect(db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(4);
      // The checkpoint at the retention floor is the log's base in the one checkpoints table.
      expect(db.prepare('SELECT seq FROM checkpoints WHERE base = 1').pluck().all()).toEqual([
        expected.bounds.floorSeq,
      ]);
    } finally {
      db.close();
    }
  });

  it('opens again without migrating twice', () => {
    openStore({ path: tmp.dir }).close();
    const store = openStore({ path: tmp.dir });
    try {
      expect(store.bounds()).toEqual(expected.bounds);
      expect(store.listTimelines().map((t) => t.id)).toEqual(expected.list.map((t) => t.id));
    } finally {
      store.close();
    }
  });
});
