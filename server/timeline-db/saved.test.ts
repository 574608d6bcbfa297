import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, reduce, type TimelineEvent } from '@/lib/timeline';
import { PodscopeStoreError } from './errors';
import { openStore, type TimelineStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { ManualClock, tempDir } from './testing/testkit';
import { LIMITS } from './saved';

const START = 50_000_000;
const STEP = 1_000;
let tmp: ReturnType<typeof tempDir>;
let clock: ManualClock;
let store: TimelineStore;
let events: TimelineEvent[];

beforeEach(() => {
  tmp = tempDir();
  clock = new ManualClock(START + 1e6);
  store = openStore({ path: tmp.dir, clock, checkpointEvery: 400 });
  const workload = new SyntheticWorkload({
    seed: 17,
    nodes: 2,
    podsPerNode: 4,
    startT: START,
    stepMs: STEP,
  });
  events = [];
  for (const b of workload.batches(3_000)) events.push(...store.append(b));
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

function thrown(fn: () => unknown): PodscopeStoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PodscopeStoreError) return err;
    throw err;
  }
  throw new Error('expected a PodscopeStoreError');
}

describe('saveTimeline / getTimeline', () => {
  it('copies the state at `from` and the events after it up to `to`', () => {
    const from = START + 3 * STEP + 500;
    const to = START + 9 * STEP;
    const summary = store.saveTimeline({
      title: 'Crash loop on node-000',
      notes: 'after the deploy',
      from,
      to,
    });
    const saved = store.getTimeline(summary.id);
    const initial = events.filter((e) => e.t <= from).reduce(reduce, emptyState());
    expect(saved.initialState).toEqual(initial);
    expect(saved.events).toEqual(events.filter((e) => e.t > from && e.t <= to));
    expect(saved).toMatchObject({
      title: 'Crash loop on node-000',
      notes: 'after the deploy',
      from,
      to,
      fromSeq: initial.seq,
      toSeq: saved.events[saved.events.length - 1]?.seq,
      eventCount: saved.events.length,
      createdAt: START + 1e6,
      annotationCount: 0,
    });
    // Replaying the saved timeline ends where the live timeline was at `to`.
    expect(saved.events.reduce(reduce, saved.initialState)).toEqual(store.stateAt(to));
  });

  it('ids are URL-safe and unguessable (22 base64url chars, all distinct)', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++)
      ids.add(store.saveTimeline({ title: `t${i}`, from: START, to: START }).id);
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('a period with no events saves just the initial state', () => {
    const t = START + 1e9;
    const saved = store.getTimeline(store.saveTimeline({ title: 'quiet', from: t, to: t + 10 }).id);
    expect(saved.events).toEqual([]);
    expect(saved.initialState.seq).toBe(events.length);
  });

  it('stores strings exactly as given', () => {
    const title = '<script>alert("x")</script> & 事故';
    const summary = store.saveTimeline({
      title,
      notes: 'a\nb\u0000c',
      from: START,
      to: START + STEP,
    });
    expect(store.getTimeline(summary.id)).toMatchObject({ title, notes: 'a\nb\u0000c' });
  });

  it('validates input with clear errors and writes nothing', () => {
    expect(thrown(() => store.saveTimeline({ title: ' ', from: START, to: START })).code).toBe(
      'INVALID',
    );
    expect(
      thrown(() => store.saveTimeline({ title: 'x', from: START + 5, to: START })).message,
    ).toContain('is before "from"');
    expect(thrown(() => store.saveTimeline({ title: 'x', from: Number.NaN, to: START })).code).toBe(
      'INVALID',
    );
    expect(
      thrown(() =>
        store.saveTimeline({ title: 'x'.repeat(LIMITS.titleChars + 1), from: START, to: START }),
      ).code,
    ).toBe('TOO_LARGE');
    expect(
      thrown(() =>
        store.saveTimeline({
          title: 'x',
          notes: 'n'.repeat(LIMITS.notesBytes + 1),
          from: START,
          to: START,
        }),
      ).code,
    ).toBe('TOO_LARGE');
    expect(
      thrown(() =>
        store.saveTimeline({
          title: 'x',
          from: START,
          to: START + 10,
          annotations: [{ t: START + 11, text: 'late' }],
        }),
      ).code,
    ).toBe('INVALID');
    expect(store.listTimelines()).toEqual([]);
  });

  it('refuses a period that retention already removed', async () => {
    clock.set(START + 20 * STEP);
    await store.retention({ maxAgeMs: 5 * STEP });
    const err = thrown(() =>
      store.saveTimeline({ title: 'too old', from: START, to: START + 30 * STEP }),
    );
    expect(err.code).toBe('NOT_RETAINED');
    expect(store.listTimelines()).toEqual([]);
  });

  it('getTimeline of an unknown id is NOT_FOUND', () => {
    const err = thrown(() => store.getTimeline('nope'));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toContain('no saved timeline with id "nope"');
  });
});

describe('annotations', () => {
  it('are saved with the timeline and added later, ordered by time', () => {
    const from = START;
    const to = START + 10 * STEP;
    const { id } = store.saveTimeline({
      title: 'incident',
      from,
      to,
      annotations: [{ t: from + 5 * STEP, entity: 'node-000', text: 'node lost its runtime' }],
    });
    clock.advance(60_000);
    const added = store.addAnnotation(id, { t: from + STEP, text: 'first symptom' });
    expect(added).toMatchObject({
      timelineId: id,
      t: from + STEP,
      text: 'first symptom',
      createdAt: START + 1e6 + 60_000,
    });
    expect(added.entity).toBeUndefined();
    const saved = store.getTimeline(id);
    expect(saved.annotations.map((a) => a.text)).toEqual([
      'first symptom',
      'node lost its runtime',
    ]);
    expect(saved.annotations[1]?.entity).toBe('node-000');
    expect(store.listTimelines()[0]?.annotationCount).toBe(2);
  });

  it('are checked: inside the period, with text, on an existing timeline', () => {
    const { id } = store.saveTimeline({ title: 'x', from: START, to: START + STEP });
    expect(thrown(() => store.addAnnotation(id, { t: START + 2 * STEP, text: 'x' })).code).toBe(
      'INVALID',
    );
    expect(thrown(() => store.addAnnotation(id, { t: START, text: '' })).code).toBe('INVALID');
    expect(
      thrown(() =>
        store.addAnnotation(id, { t: START, text: 'x'.repeat(LIMITS.annotationBytes + 1) }),
      ).code,
    ).toBe('TOO_LARGE');
    expect(thrown(() => store.addAnnotation('missing', { t: START, text: 'x' })).code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('listTimelines / deleteTimeline', () => {
  it('lists newest first and deletes with events and annotations', () => {
    const a = store.saveTimeline({ title: 'a', from: START, to: START + 2 * STEP });
    clock.advance(1_000);
    const b = store.saveTimeline({
      title: 'b',
      from: START,
      to: START + 4 * STEP,
      annotations: [{ t: START, text: 'note' }],
    });
    expect(store.listTimelines().map((s) => s.id)).toEqual([b.id, a.id]);
    expect(store.deleteTimeline(b.id)).toBe(true);
    expect(store.deleteTimeline(b.id)).toBe(false);
    expect(store.listTimelines().map((s) => s.id)).toEqual([a.id]);
    expect(thrown(() => store.getTimeline(b.id)).code).toBe('NOT_FOUND');
    expect(store.stats().timelines).toBe(1);
    // Nothing of b is left behind; a is untouched.
    const db = new Database(store.path, { readonly: true });
    const count = (table: string, id: string): unknown =>
      db.prepare(`SELECT count(*) FROM ${table} WHERE timeline_id = ?`).pluck().get(id);
    expect([count('saved_timeline_events', b.id), count('saved_annotations', b.id)]).toEqual([
      0, 0,
    ]);
    expect(count('saved_timeline_events', a.id)).toBe(a.eventCount);
    db.close();
    expect(a.eventCount).toBeGreaterThan(0);
  });
});

describe('quotas and retention of saved timelines (issue 17 item 5)', () => {
  function quotaStore(saved: { maxCount: number; maxBytes: number; maxAgeMs?: number }) {
    store.close();
    store = openStore({ path: tmp.dir, clock, checkpointEvery: 400, saved });
    return store;
  }
  const period = (i: number) => ({
    title: `save ${i}`,
    from: START + i * STEP,
    to: START + (i + 200) * STEP,
  });

  it('refuses a save past the count quota, with a clear error, and stores nothing', () => {
    const s = quotaStore({ maxCount: 3, maxBytes: 1e12 });
    for (let i = 0; i < 3; i++) s.saveTimeline(period(i));
    const err = thrown(() => s.saveTimeline(period(9)));
    expect(err.code).toBe('QUOTA');
    expect(err.publicMessage).toBe(
      'the saved timelines are at their quota of 3 (PODSCOPE_SAVED_MAX_COUNT); delete one to keep another',
    );
    expect(s.listTimelines()).toHaveLength(3);
    // Deleting one makes room again.
    s.deleteTimeline(s.listTimelines()[0]?.id ?? '');
    expect(s.saveTimeline(period(9)).title).toBe('save 9');
  });

  it('refuses a save past the byte quota, saying how much is free', () => {
    const s = quotaStore({ maxCount: 1000, maxBytes: 1e12 });
    const first = s.saveTimeline(period(0));
    const db = new Database(s.path, { readonly: true });
    const size =
      db
        .prepare<[string], number>('SELECT bytes FROM saved_timelines WHERE id = ?')
        .pluck()
        .get(first.id) ?? 0;
    db.close();
    expect(size).toBeGreaterThan(10_000);
    const q = quotaStore({ maxCount: 1000, maxBytes: Math.floor(size * 2.5) });
    q.saveTimeline(period(0));
    const err = thrown(() => q.saveTimeline(period(0)));
    expect(err.code).toBe('QUOTA');
    expect(err.publicMessage).toMatch(/PODSCOPE_SAVED_MAX_BYTES/);
    expect(err.publicMessage).toMatch(/are free/);
    expect(q.listTimelines()).toHaveLength(2);
  });

  it('twenty saves in a row cannot grow the database past the quota', () => {
    const s = quotaStore({ maxCount: 5, maxBytes: 1e12 });
    let refused = 0;
    for (let i = 0; i < 20; i++) {
      try {
        s.saveTimeline(period(i));
      } catch (err) {
        if (err instanceof PodscopeStoreError && err.code === 'QUOTA') refused++;
        else throw err;
      }
    }
    expect(refused).toBe(15);
    expect(s.listTimelines()).toHaveLength(5);
  });

  it('retention deletes saved timelines older than their maximum age', () => {
    const s = quotaStore({ maxCount: 100, maxBytes: 1e12, maxAgeMs: 10_000 });
    const old = s.saveTimeline(period(0));
    clock.advance(6_000);
    const young = s.saveTimeline(period(1));
    clock.advance(6_000);
    expect(s.expireSavedTimelines()).toBe(1);
    expect(s.listTimelines().map((t) => t.id)).toEqual([young.id]);
    expect(thrown(() => s.getTimeline(old.id)).code).toBe('NOT_FOUND');
  });
});
