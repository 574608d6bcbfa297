import { describe, expect, it } from 'vitest';
import { Backoff, sleep } from './backoff';

describe('Backoff', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1_000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 6].map(() => b.next())).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(b.failures).toBe(6);
  });

  it('starts over after reset', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1_000, jitter: 0 });
    b.next();
    b.next();
    b.reset();
    expect(b.next()).toBe(100);
  });

  it('stretches by the jitter fraction, never past the cap', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 250, jitter: 0.5 }, () => 1);
    expect([b.next(), b.next(), b.next()]).toEqual([150, 250, 250]);
  });

  it('defaults to client-go’s reflector shape: 800 ms doubling to 30 s', () => {
    const b = new Backoff(undefined, () => 0);
    const delays = Array.from({ length: 8 }, () => b.next());
    expect(delays).toEqual([800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000]);
  });
});

describe('sleep', () => {
  it('returns at once when aborted', async () => {
    const ac = new AbortController();
    const started = performance.now();
    const p = sleep(60_000, ac.signal);
    ac.abort();
    await p;
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
