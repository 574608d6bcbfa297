import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { createDemoSource } from './demo-source';
import { createMemorySource } from './memory-source';
import { createDemoTimeline } from './fixtures/demo';
import type { SourceStatus } from './source';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);

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
  it('sends a snapshot, then new events as its clock moves, in seq order', async () => {
    let now = T0;
    const m = manualTimers();
    const src = createDemoSource({ now: () => now, historyMs: 60_000, timers: m.timers });
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
    expect(Object.keys(snapshot?.nodes ?? {})).toHaveLength(3);
    now += 5 * 60_000;
    m.fire();
    const sent = batches.flat();
    expect(sent.length).toBeGreaterThan(10);
    expect(sent[0]?.seq).toBe((snapshot?.seq ?? 0) + 1);
    // Folding the snapshot with what followed is the source's own state now.
    expect(reduceAll(snapshot as ClusterState, sent)).toEqual(await src.stateAt(now));
    stop();
    expect(m.count()).toBe(0);
  });

  it('answers history: range and stateAt agree with each other', async () => {
    const now = T0;
    const src = createDemoSource({
      now: () => now,
      historyMs: 120_000,
      timers: manualTimers().timers,
    });
    const from = T0 - 120_000;
    const events = await src.range({ from, to: now });
    expect(reduceAll(await src.stateAt(from), events)).toEqual(await src.stateAt(now));
    expect(src.live).toBe(true);
  });
});

describe('memory source', () => {
  it('replays a recorded timeline: snapshot, all events, then offline; history by time', async () => {
    const tl = createDemoTimeline({ start: T0, durationMs: 90_000 });
    const src = createMemorySource(tl.initial, tl.events);
    expect(src.live).toBe(false);
    const got: string[] = [];
    src.watch({
      onSnapshot: (s) => got.push(`snapshot:${s.seq}`),
      onEvents: (e) => got.push(`events:${e.length}`),
      onStatus: (s) => got.push(s),
    });
    await flush();
    expect(got).toEqual(['snapshot:0', `events:${tl.events.length}`, 'offline']);
    const mid = T0 + 45_000;
    const tail = await src.range({ from: mid + 1, to: tl.end });
    expect(reduceAll(await src.stateAt(mid), tail)).toEqual(await src.stateAt(tl.end));
  });

  it('delivers nothing once unsubscribed', async () => {
    const tl = createDemoTimeline({ start: T0, durationMs: 10_000 });
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
    const now = T0;
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

  it('replays the same events for the same anchor', async () => {
    const start = T0 - 300_000;
    const a = createDemoSource({ start, now: () => T0, timers: manualTimers().timers });
    const b = createDemoSource({ start, now: () => T0 + 5_000, timers: manualTimers().timers });
    const ea = await a.range({ from: start, to: T0 });
    const eb = await b.range({ from: start, to: T0 });
    expect(JSON.stringify(eb)).toBe(JSON.stringify(ea));
  });
});
