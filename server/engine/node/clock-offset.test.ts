import { describe, expect, it } from 'vitest';
import type { RuntimeContainer } from '@/lib/kubelet/runtime';
import { ClockOffset, describeOffset, shiftContainerTimes, shiftPodTimes } from './clock-offset';

const T = Date.UTC(2026, 0, 1);

describe('ClockOffset', () => {
  const HOUR = 3_600_000;
  it('stays 0 while observations are within what a relist delay explains', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T + 1_000, [T + 200, T + 900, T + 950])).toBe(false);
    expect(o.observe(T + 5_000, [T + 2_500])).toBe(false);
    expect(o.ms).toBe(0);
  });

  it('takes the tightest bound three observations agree on: a node an hour ahead', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    // Node times an hour ahead, observed 300–900 ms after the fact. Two are not enough.
    expect(o.observe(T + 10_900, [T + HOUR + 10_000, T + HOUR + 10_100])).toBe(false);
    expect(o.ms).toBe(0);
    expect(o.observe(T + 12_500, [T + HOUR + 12_000])).toBe(true);
    expect(o.ms).toBe(-HOUR + 500);
    // A tighter observation moves it by less than the tolerance: kept (no churn).
    expect(o.observe(T + 20_300, [T + HOUR + 20_000])).toBe(false);
    expect(o.ms).toBe(-HOUR + 500);
  });

  it('a node behind the server', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T, [T - 2 * HOUR - 500, T - 2 * HOUR - 400, T - 2 * HOUR - 900])).toBe(true);
    expect(o.ms).toBe(2 * HOUR + 400);
  });

  it('one absurd timestamp cannot move it, however far off', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T + 1_000, [T + 500, T + 100 * 365 * 24 * HOUR, T + 800, T + 900])).toBe(
      false,
    );
    expect(o.observe(T + 2_000, [9.2e12])).toBe(false);
    expect(o.ms).toBe(0);
    // …nor undo an offset that many observations agree on.
    const skewed = new ClockOffset({ toleranceMs: 3_000 });
    skewed.observe(T, [T + HOUR, T + HOUR - 100, T + HOUR - 200]);
    expect(skewed.observe(T + 1_000, [T - 5 * HOUR])).toBe(false);
    expect(skewed.ms).toBe(-HOUR);
  });

  it('forgets old observations: a node whose clock was fixed goes back to 0', () => {
    const o = new ClockOffset({ toleranceMs: 3_000, windowMs: 60_000 });
    o.observe(T, [T + HOUR, T + HOUR, T + HOUR]);
    expect(o.ms).toBe(-HOUR);
    expect(o.observe(T + 120_000, [T + 119_500, T + 119_000, T + 119_900])).toBe(true);
    expect(o.ms).toBe(0);
  });

  it('ignores times that are no times (0, negative, NaN)', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T, [0, -5, Number.NaN, Infinity, 0, 0])).toBe(false);
    expect(o.ms).toBe(0);
  });
});

describe('shifting runtime times', () => {
  const c: RuntimeContainer = {
    id: 'c',
    sandboxId: 's',
    name: 'app',
    attempt: 0,
    state: 'exited',
    createdAt: 1_000,
    startedAt: 2_000,
    finishedAt: 3_000,
    image: '',
    imageRef: '',
    restartCount: 0,
    labels: {},
    annotations: {},
    inspected: true,
  };
  it('moves created, started and finished; leaves unset and zero times alone', () => {
    expect(shiftContainerTimes(c, 500)).toMatchObject({
      createdAt: 1_500,
      startedAt: 2_500,
      finishedAt: 3_500,
    });
    const { startedAt: _s, finishedAt: _f, ...created } = c;
    const shifted = shiftContainerTimes({ ...created, createdAt: 0 }, 500);
    expect(shifted.createdAt).toBe(0);
    expect('startedAt' in shifted).toBe(false);
  });
  it('returns the very same pod when there is nothing to shift', () => {
    const pod = { uid: 'u', name: 'p', namespace: 'n', sandboxes: [], containers: [] };
    expect(shiftPodTimes(pod, 0, T)).toBe(pod);
  });
  it('keeps corrected times between the epoch and the moment of derivation', () => {
    expect(shiftContainerTimes(c, 10_000, 5_000)).toMatchObject({
      createdAt: 5_000,
      startedAt: 5_000,
      finishedAt: 5_000,
    });
    expect(shiftContainerTimes(c, -1_000_000, 5_000)).toMatchObject({
      createdAt: 1,
      startedAt: 1,
      finishedAt: 1,
    });
  });
});

describe('describeOffset', () => {
  it('says which way', () => {
    expect(describeOffset(-3_600_000)).toBe('1 h 0 min 0 s ahead of');
    expect(describeOffset(90_500)).toBe('1 min 31 s behind');
  });
});
