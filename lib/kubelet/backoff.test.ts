/**
 * Back-off behaviour, in the spirit of client-go util/flowcontrol/backoff_test.go (TestSlowBackoff,
 * TestBackoffReset, TestBackoffHighWaterMark, TestBackoffGC, TestIsInBackOffSinceUpdate), written
 * for the pure, injected-clock API, plus the kubelet's crash-loop sequence.
 */
import { describe, expect, it } from 'vitest';
import {
  backoffGC,
  backoffGet,
  backoffKey,
  backoffNext,
  backoffReset,
  formatPod,
  isInBackOffSince,
  isInBackOffSinceUpdate,
  newBackoff,
} from './backoff';

describe('backoff', () => {
  it('slow back-off doubles from the initial value up to the cap (TestSlowBackoff)', () => {
    let s = newBackoff(1000, 120_000);
    let now = 0;
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      s = backoffNext(s, 'id', now, now);
      seen.push(backoffGet(s, 'id'));
      now += 1000;
    }
    expect(seen).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 120_000, 120_000, 120_000,
    ]);
  });

  it('the kubelet crash loop: 10s, 20s, 40s … capped at 5m0s', () => {
    let s = newBackoff();
    const seen: number[] = [];
    let t = 0;
    for (let i = 0; i < 8; i++) {
      s = backoffNext(s, 'k', t, t);
      seen.push(backoffGet(s, 'k') / 1000);
      t += backoffGet(s, 'k') + 1000; // each run lasts 1 s after the window
    }
    expect(seen).toEqual([10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it('reset forgets the entry (TestBackoffReset)', () => {
    let s = backoffNext(backoffNext(newBackoff(1000, 10_000), 'id', 0, 0), 'id', 0, 0);
    expect(backoffGet(s, 'id')).toBe(2000);
    s = backoffReset(s, 'id');
    expect(backoffGet(s, 'id')).toBe(0);
    expect(backoffNext(s, 'id', 0, 0).entries.id?.backoffMs).toBe(1000);
  });

  it('an event later than 2×max after the last update restarts from the initial value (TestBackoffHighWaterMark)', () => {
    let s = newBackoff(1000, 10_000);
    s = backoffNext(s, 'id', 0, 0);
    s = backoffNext(s, 'id', 1000, 1000);
    expect(backoffGet(s, 'id')).toBe(2000);
    // exactly 2×max is not yet expired
    expect(backoffGet(backoffNext(s, 'id', 21_000, 21_000), 'id')).toBe(4000);
    expect(backoffGet(backoffNext(s, 'id', 21_001, 21_001), 'id')).toBe(1000);
  });

  it('GC drops entries not updated for 2×max (TestBackoffGC)', () => {
    let s = newBackoff(1000, 10_000);
    s = backoffNext(s, 'old', 0, 0);
    s = backoffNext(s, 'new', 15_000, 15_000);
    expect(Object.keys(backoffGC(s, 20_000).entries).sort()).toEqual(['new', 'old']);
    expect(Object.keys(backoffGC(s, 20_001).entries)).toEqual(['new']);
  });

  it('IsInBackOffSince compares now − eventTime with the window', () => {
    const s = backoffNext(newBackoff(), 'k', 1000, 2000); // window 10 s, updated at 2 s
    expect(isInBackOffSince(s, 'k', 5000, 14_999)).toBe(true);
    expect(isInBackOffSince(s, 'k', 5000, 15_000)).toBe(false);
    expect(isInBackOffSince(s, 'missing', 5000, 5001)).toBe(false);
    // an exit more than 2×max after the last restart means the back-off has expired
    expect(isInBackOffSince(s, 'k', 2000 + 600_001, 2000 + 600_002)).toBe(false);
  });

  it('IsInBackOffSinceUpdate compares eventTime − lastUpdate with the window (TestIsInBackOffSinceUpdate)', () => {
    const s = backoffNext(newBackoff(1000, 10_000), 'id', 0, 0);
    expect(isInBackOffSinceUpdate(s, 'id', 999)).toBe(true);
    expect(isInBackOffSinceUpdate(s, 'id', 1000)).toBe(false);
    expect(isInBackOffSinceUpdate(s, 'none', 10)).toBe(false);
  });

  it('is pure: earlier states are not modified', () => {
    const a = newBackoff();
    const b = backoffNext(a, 'k', 0, 0);
    expect(a.entries).toEqual({});
    expect(b).not.toBe(a);
  });

  it('tolerates garbage state', () => {
    const bad = {
      initialMs: NaN,
      maxMs: 'x',
      entries: { k: { backoffMs: 'y', lastUpdateMs: null } },
    } as never;
    expect(() => backoffNext(bad, 'k', 0, 0)).not.toThrow();
    expect(backoffGet(undefined, 'k')).toBe(0);
    expect(isInBackOffSince(null as never, 'k', 0, 0)).toBe(false);
  });

  it('keys and pod names follow getStableKey and format.Pod', () => {
    const pod = { name: 'web', namespace: 'default', uid: 'u1' };
    expect(backoffKey(pod, 'app', '3f2a')).toBe('web_default_u1_app_3f2a');
    expect(formatPod(pod)).toBe('web_default(u1)');
  });
});
