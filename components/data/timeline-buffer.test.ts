import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import type { TimelineEvent } from '@/lib/timeline/events';
import { demoTimeline } from './testing/demo';
import { TimelineBuffer } from './timeline-buffer';

const tl = demoTimeline(6 * 60_000);
const START = tl.start;
const truth = (t: number) =>
  reduceAll(
    tl.initial,
    tl.events.filter((e) => e.t <= t),
  );

describe('TimelineBuffer', () => {
  it('gives the reducer’s state at any moment, in any order of questions', () => {
    const buf = new TimelineBuffer(tl.initial, { snapshotEvery: 16 });
    buf.append(tl.events);
    expect(buf.snapshotCount).toBe(Math.floor(tl.events.length / 16) + 1);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: START - 1000, max: tl.end + 1000 }), {
          minLength: 1,
          maxLength: 8,
        }),
        (ts) => {
          for (const t of ts) expect(buf.stateAt(t)).toEqual(truth(t));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('skips re-delivered and old events, like the reducer', () => {
    const buf = new TimelineBuffer(tl.initial);
    const half = Math.floor(tl.events.length / 2);
    expect(buf.append(tl.events.slice(0, half))).toBe(half);
    // A resumed stream overlaps what we have.
    expect(buf.append(tl.events.slice(half - 10))).toBe(tl.events.length - half);
    expect(buf.events).toHaveLength(tl.events.length);
    expect(buf.latest).toEqual(reduceAll(tl.initial, tl.events));
  });

  it('stays bounded and exact for every moment it still covers', () => {
    const buf = new TimelineBuffer(tl.initial, { snapshotEvery: 10, maxEvents: 100 });
    for (let i = 0; i < tl.events.length; i += 7) buf.append(tl.events.slice(i, i + 7));
    expect(buf.events.length).toBeLessThanOrEqual(100);
    expect(buf.events.length).toBeGreaterThanOrEqual(60);
    const first = buf.events[0] as TimelineEvent;
    expect(buf.from).toBeLessThanOrEqual(first.t);
    for (const e of buf.events.filter((_, i) => i % 9 === 0))
      expect(buf.stateAt(e.t)).toEqual(truth(e.t));
    expect(buf.latest).toEqual(reduceAll(tl.initial, tl.events));
  });

  it('takes older history in front without changing later moments', () => {
    const mid = tl.events[Math.floor(tl.events.length / 2)] as TimelineEvent;
    const buf = new TimelineBuffer(truth(mid.t), {}, mid.t);
    buf.append(tl.events.filter((e) => e.seq > truth(mid.t).seq));
    expect(buf.from).toBe(mid.t);
    const before = buf.version;
    buf.prepend(
      tl.initial,
      tl.events.filter((e) => e.t <= mid.t),
      START,
    );
    expect(buf.version).toBeGreaterThan(before);
    expect(buf.from).toBe(START);
    expect(buf.stateAt(START + 30_000)).toEqual(truth(START + 30_000));
    expect(buf.stateAt(tl.end)).toEqual(truth(tl.end));
  });

  it('answers moments before its start with its base and counts events by time', () => {
    const buf = new TimelineBuffer(tl.initial);
    buf.append(tl.events);
    expect(buf.stateAt(START - 60_000)).toBe(tl.initial);
    expect(buf.countUntil(tl.end)).toBe(tl.events.length);
    expect(buf.countUntil(START - 1)).toBe(0);
  });
});
