import { describe, expect, it } from 'vitest';
import {
  cursorTime,
  LIVE,
  nearestSpeed,
  pause,
  play,
  rebase,
  seek,
  stepTarget,
  tick,
  type Cursor,
} from './cursor';

const edge = { from: 1_000, to: 10_000 };

describe('cursor', () => {
  it('live sits at the edge; paused stays put and is clamped', () => {
    expect(cursorTime(LIVE, 1, 0, edge)).toBe(10_000);
    expect(cursorTime({ mode: 'paused', t: 4_000 }, 1, 99_999, edge)).toBe(4_000);
    expect(cursorTime({ mode: 'paused', t: 50 }, 1, 0, edge)).toBe(1_000);
  });

  it('plays at the chosen speed from where it was', () => {
    const c = play({ mode: 'paused', t: 2_000 }, 4, 500, edge);
    expect(c).toEqual({ mode: 'playing', t: 2_000, wall: 500 });
    expect(cursorTime(c, 4, 1_500, edge)).toBe(6_000);
    expect(cursorTime(c, 0.25, 1_500, edge)).toBe(2_250);
  });

  it('joins live at the edge of a live source, stops at the end of a recording', () => {
    const c: Cursor = { mode: 'playing', t: 9_000, wall: 0 };
    expect(tick(c, 2, 400, edge, true)).toBe(c);
    expect(tick(c, 2, 600, edge, true)).toEqual(LIVE);
    expect(tick(c, 2, 600, edge, false)).toEqual({ mode: 'paused', t: 10_000 });
  });

  it('starts a finished recording over', () => {
    expect(play({ mode: 'paused', t: 10_000 }, 1, 7, edge)).toEqual({
      mode: 'playing',
      t: 1_000,
      wall: 7,
    });
  });

  it('pause freezes the moment shown; seek keeps playing; a speed change does not jump', () => {
    const c: Cursor = { mode: 'playing', t: 2_000, wall: 0 };
    expect(pause(c, 2, 1_000, edge)).toEqual({ mode: 'paused', t: 4_000 });
    expect(pause(LIVE, 1, 0, edge)).toEqual({ mode: 'paused', t: 10_000 });
    expect(seek(c, 3_000, 50, edge)).toEqual({ mode: 'playing', t: 3_000, wall: 50 });
    expect(seek({ mode: 'paused', t: 0 }, 99_000, 50, edge)).toEqual({ mode: 'paused', t: 10_000 });
    const r = rebase(c, 2, 1_000, edge);
    expect(cursorTime(r, 16, 1_000, edge)).toBe(cursorTime(c, 2, 1_000, edge));
  });

  it('steps to the neighbouring event moment, skipping same-time events', () => {
    const times = [1_000, 2_000, 2_000, 3_000];
    expect(stepTarget(times, 2_000, 1)).toBe(3_000);
    expect(stepTarget(times, 2_000, -1)).toBe(1_000);
    expect(stepTarget(times, 1_500, 1)).toBe(2_000);
    expect(stepTarget(times, 1_500, -1)).toBe(1_000);
    expect(stepTarget(times, 3_000, 1)).toBeUndefined();
    expect(stepTarget(times, 1_000, -1)).toBeUndefined();
    expect(stepTarget([], 5, 1)).toBeUndefined();
  });

  it('snaps a speed from a link to the nearest offered one', () => {
    expect(nearestSpeed(4)).toBe(4);
    expect(nearestSpeed(3)).toBe(4);
    expect(nearestSpeed(0.3)).toBe(0.25);
    expect(nearestSpeed(100)).toBe(16);
  });
});
