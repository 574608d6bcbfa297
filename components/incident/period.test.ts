import { describe, expect, it } from 'vitest';
import { emptyState, reduceAll } from '@/lib/timeline';
import { sampleEvents } from '@/lib/timeline/file/testing';
import { clampToPeriod, DEFAULT_PERIOD_MS, entityLabel, periodToSave, shareUrl } from './period';

const edge = { from: 1_000_000, to: 2_000_000 };

describe('periodToSave', () => {
  it('is the marked period when both marks are set, in order', () => {
    expect(periodToSave({ start: 1_500_000, end: 1_600_000 }, 1_900_000, edge)).toEqual({
      from: 1_500_000,
      to: 1_600_000,
    });
    expect(periodToSave({ start: 1_600_000, end: 1_500_000 }, 1_900_000, edge)).toEqual({
      from: 1_500_000,
      to: 1_600_000,
    });
  });
  it('runs from the start mark to the cursor', () => {
    expect(periodToSave({ start: 1_500_000 }, 1_700_000, edge)).toEqual({
      from: 1_500_000,
      to: 1_700_000,
    });
  });
  it('covers five minutes before the end mark or the cursor, not before the earliest moment', () => {
    expect(periodToSave({ end: 1_800_000 }, 1_900_000, edge)).toEqual({
      from: 1_800_000 - DEFAULT_PERIOD_MS,
      to: 1_800_000,
    });
    expect(periodToSave({}, 1_100_000, edge)).toEqual({ from: 1_000_000, to: 1_100_000 });
  });
  it('rounds outward to whole milliseconds', () => {
    expect(periodToSave({ start: 1_500_000.7, end: 1_600_000.2 }, 0, edge)).toEqual({
      from: 1_500_000,
      to: 1_600_001,
    });
  });
});

describe('clampToPeriod', () => {
  it('keeps an annotation inside the saved period', () => {
    expect(clampToPeriod(5, { from: 10, to: 20 })).toBe(10);
    expect(clampToPeriod(25, { from: 10, to: 20 })).toBe(20);
    expect(clampToPeriod(14.6, { from: 10, to: 20 })).toBe(15);
  });
});

describe('shareUrl', () => {
  it('links the locale, the id, the moment and the selection', () => {
    expect(
      shareUrl({
        origin: 'http://127.0.0.1:3000',
        locale: 'zh-CN',
        id: 'abc_-1',
        at: Date.UTC(2024, 4, 1, 12),
        sel: 'uid/app',
      }),
    ).toBe('http://127.0.0.1:3000/zh-CN/t/abc_-1?at=2024-05-01T12%3A00%3A00.000Z&sel=uid%2Fapp');
    expect(shareUrl({ origin: 'http://h', locale: 'en', id: 'x' })).toBe('http://h/en/t/x');
  });
});

describe('entityLabel', () => {
  const state = reduceAll(emptyState(), sampleEvents(1));
  it('names nodes, pods and containers as the console does', () => {
    expect(entityLabel(state, 'node-a')).toBe('node-a');
    expect(entityLabel(state, 'uid-web')).toBe('shop/web-1');
    expect(entityLabel(state, 'uid-web/app')).toBe('shop/web-1 › app');
  });
  it('falls back to the id for entities not in the state', () => {
    expect(entityLabel(state, 'gone/x')).toBe('gone/x');
  });
});
