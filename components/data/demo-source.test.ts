import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineFile } from '@/lib/timeline/file';
import { createDemoSource } from './demo-source';
import { createMemorySource } from './memory-source';
import { demoTimeline } from './testing/demo';
import type { SourceStatus } from './source';

const WALL = Date.UTC(2026, 10, 29, 9, 0, 0);
const rec = demoTimeline();
const T0 = rec.start;
/** The recording as the server sends it (a timeline file). */
const file: TimelineFile = {
  format: 'podscope.timeline',
  version: 1,
  title: 'Podscope demo',
  notes: '',
  createdAt: rec.start,
  from: rec.start,
  to: rec.end,
  source: { podscope: 'test', nodes: rec.nodes.map((name) => ({ name })) },
  annotations: [],
  initialState: rec.initial,
  events: rec.events,
};
const load = () => Promise.resolve(file);

function manualTimers() {
  const fns = new Map<number, () => void>();
  let id = 0;
  return {
    timers: {
      setInterval: (fn: () => void) => {
        fns.set(++id, fn);
        return id;
      },
      clearInterval: (h: unknown) => fns.delete(h as number),
    },
    fire: () => fns.forEach((fn) => fn()),
    count: () => fns.size,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('demo source', () => {
  it('plays the recording on the wall clock: the history so far, then new events as they fall due', async () => {
    let wall = WALL;
    const m = manualTimers();
    const src = createDemoSource({ load, now: () => wall, historyMs: 60_000, timers: m.timers });
    const statuses: SourceStatus[] = [];
    let snapshot: ClusterState | undefined;
    const batches: TimelineEvent[][] = [];
    const stop = src.watch({
      onSnapshot: (s) => (snapshot = s),
      onEvents: (e) => batches.push(e),
      onStatus: (s) => statuses.push(s),
    });
    await flush();
    expect(statuses).toEqual(['live']);
    // A minute in: the recording's clock, and the state it had then.
    expect(src.now?.()).toBe(T0 + 60_000);
    expect(snapshot).toEqual(await src.stateAt(T0 + 60_000));
    expect(Object.keys(snapshot?.nodes ?? {})).toEqual(rec.nodes);
    wall += 3 * 60_000;
    m.fire();
    const sent = batches.flat();
    expect(sent.length).toBeGreaterThan(10);
    expect(sent[0]?.seq).toBe((rec.events.filter((e) => e.t <= T0 + 60_000).at(-1)?.seq ?? 0) + 1);
    expect(sent.every((e) => e.t > T0 + 60_000 && e.t <= T0 + 4 * 60_000)).toBe(true);
    // Folding the snapshot with what followed is the source's own state now.
    expect(reduceAll(snapshot as ClusterState, sent)).toEqual(await src.stateAt(T0 + 4 * 60_000));
    stop();
    expect(m.count()).toBe(0);
  });

  it('stays at the end once the recording is over, and tells nothing of the future', async () => {
    const wall = WALL + 24 * 3_600_000;
    const src = createDemoSource({
      load,
      start: WALL,
      now: () => wall,
      timers: manualTimers().timers,
    });
    expect(await src.range({ from: T0, to: rec.end })).toHaveLength(rec.events.length);
    await src.stateAt(T0);
    expect(src.now?.()).toBe(rec.end);
    const early = createDemoSource({
      load,
      start: WALL,
      now: () => WALL + 30_000,
      timers: manualTimers().timers,
    });
    const played = await early.range({ from: T0, to: rec.end });
    expect(played.length).toBeLessThan(rec.events.length);
    expect(played.every((e) => e.t <= T0 + 30_000)).toBe(true);
    expect(await early.stateAt(rec.end)).toEqual(await early.stateAt(T0 + 30_000));
  });

  it('answers history: range and stateAt agree with each other', async () => {
    const src = createDemoSource({
      load,
      now: () => WALL,
      historyMs: 120_000,
      timers: manualTimers().timers,
    });
    const events = await src.range({ from: T0, to: T0 + 120_000 });
    expect(reduceAll(await src.stateAt(T0), events)).toEqual(await src.stateAt(T0 + 120_000));
    expect(src.live).toBe(true);
  });

  it('says why when there is no recording', async () => {
    const src = createDemoSource({
      load: () => Promise.reject(new Error('This server has no demo recording.')),
      timers: manualTimers().timers,
    });
    const statuses: string[] = [];
    src.watch({
      onSnapshot: () => statuses.push('snapshot'),
      onEvents: () => statuses.push('events'),
      onStatus: (s, detail) => statuses.push(`${s}: ${detail}`),
    });
    await flush();
    expect(statuses).toEqual(['offline: This server has no demo recording.']);
  });
});

describe('memory source', () => {
  it('replays a recorded timeline: snapshot, all events, then offline; history by time', async () => {
    const tl = demoTimeline(90_000);
    const src = createMemorySource(tl.initial, tl.events);
    expect(src.live).toBe(false);
    const got: string[] = [];
    src.watch({
      onSnapshot: (s) => got.push(`snapshot:${s.seq}`),
      onEvents: (e) => got.push(`events:${e.length}`),
      onStatus: (s) => got.push(s),
    });
    await flush();
    expect(got).toEqual([`snapshot:${tl.initial.seq}`, `events:${tl.events.length}`, 'offline']);
    const mid = T0 + 45_000;
    const tail = await src.range({ from: mid + 1, to: tl.end });
    expect(reduceAll(await src.stateAt(mid), tail)).toEqual(await src.stateAt(tl.end));
  });

  it('delivers nothing once unsubscribed', async () => {
    const tl = demoTimeline(10_000);
    const src = createMemorySource(tl.initial, tl.events);
    let calls = 0;
    const stop = src.watch({
      onSnapshot: () => calls++,
      onEvents: () => calls++,
      onStatus: () => calls++,
    });
    stop();
    await flush();
    expect(calls).toBe(0);
  });
});

describe('demo links', () => {
  it('anchor a fresh demo, keep a recent anchor, renew a stale one, leave live alone', async () => {
    const { anchorDemo, DEMO_HISTORY_MS } = await import('./demo-source');
    const now = WALL;
    expect(anchorDemo({ source: 'demo' }, now)).toEqual({
      source: 'demo',
      demoStart: now - DEMO_HISTORY_MS,
    });
    expect(anchorDemo({ source: 'demo', demoStart: now - 3_600_000 }, now).demoStart).toBe(
      now - 3_600_000,
    );
    expect(anchorDemo({ source: 'demo', demoStart: now - 7 * 3_600_000 }, now).demoStart).toBe(
      now - DEMO_HISTORY_MS,
    );
    expect(anchorDemo({ source: 'demo', demoStart: now + 1 }, now).demoStart).toBe(
      now - DEMO_HISTORY_MS,
    );
    expect(anchorDemo({ source: 'live' }, now)).toEqual({ source: 'live' });
  });

  it('replays the same moments for the same anchor', async () => {
    const start = WALL - 300_000;
    const a = createDemoSource({ load, start, now: () => WALL, timers: manualTimers().timers });
    const b = createDemoSource({
      load,
      start,
      now: () => WALL + 5_000,
      timers: manualTimers().timers,
    });
    const ea = await a.range({ from: T0, to: T0 + 300_000 });
    const eb = await b.range({ from: T0, to: T0 + 300_000 });
    expect(ea.length).toBeGreaterThan(0);
    expect(JSON.stringify(eb)).toBe(JSON.stringify(ea));
    expect(a.now?.()).toBe(T0 + 300_000);
  });
});
