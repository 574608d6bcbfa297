import { describe, expect, it } from 'vitest';
import type { RuntimeContainer } from '@/lib/kubelet/runtime';
import { ClockOffset, describeOffset, shiftContainerTimes, shiftPodTimes } from './clock-offset';

const T = Date.UTC(2026, 0, 1);

describe('ClockOffset', () => {
  it('stays 0 while observations are within what a relist delay explains', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T + 1_000, [T + 200, T + 900])).toBe(false);
    expect(o.observe(T + 5_000, [T + 2_500])).toBe(false);
    expect(o.ms).toBe(0);
  });

  it('takes the tightest bound: a node an hour ahead, observed with varying delays', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    // Node times are an hour ahead; observations come 300–900 ms after the fact.
    expect(o.observe(T + 10_900, [T + 3_600_000 + 10_000])).toBe(true);
    expect(o.ms).toBe(-3_600_000 + 900);
    // A tighter observation moves it by less than the tolerance: kept (no churn).
    expect(o.observe(T + 20_300, [T + 3_600_000 + 20_000])).toBe(false);
    expect(o.ms).toBe(-3_600_000 + 900);
  });

  it('a node behind the server', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T, [T - 7_200_000 - 500])).toBe(true);
    expect(o.ms).toBe(7_200_500);
  });

  it('forgets old observations: a node whose clock was fixed goes back to 0', () => {
    const o = new ClockOffset({ toleranceMs: 3_000, windowMs: 60_000 });
    o.observe(T, [T + 3_600_000]);
    expect(o.ms).toBe(-3_600_000);
    expect(o.observe(T + 120_000, [T + 119_500])).toBe(true);
    expect(o.ms).toBe(0);
  });

  it('ignores times that are no times (0, negative, NaN)', () => {
    const o = new ClockOffset({ toleranceMs: 3_000 });
    expect(o.observe(T, [0, -5, Number.NaN, Infinity])).toBe(false);
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
    expect(shiftPodTimes(pod, 0)).toBe(pod);
  });
});

describe('describeOffset', () => {
  it('says which way', () => {
    expect(describeOffset(-3_600_000)).toBe('1 h 0 min 0 s ahead of');
    expect(describeOffset(90_500)).toBe('1 min 31 s behind');
  });
});
