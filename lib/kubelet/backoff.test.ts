/**
 * Back-off behaviour, in the spirit of client-go util/flowcontrol/backoff_test.go (TestSlowBackoff,
 * TestBackoffReset, TestBackoffHighWaterMark, TestBackoffGC, TestIsInBackOffSinceUpdate), written
 * for the pure, injected-clock API, plus the kubelet's crash-loop sequence.
 */
import { describe, expect, it } from 'vitest';
import type { BackoffState } from './backoff';
import {
  backoffEntry,
  backoffGC,
  CONTAINER_BACKOFF_INITIAL_MS,
  backoffGet,
  backoffKey,
  backoffNext,
  backoffNextAll,
  backoffReset,
  containerBackoff,
  formatPod,
  isInBackOffSince,
  isInBackOffSinceUpdate,
  newBackoff,
  ownBackoff,
  recordRestart,
  recordRestarts,
  recordRestartsInPlace,
} from './backoff';

/** Restarts a container whose runs last `runMs` each, as doBackOff does; returns the windows (s). */
function crashLoop(s0: ReturnType<typeof containerBackoff>, runs: number[]): number[] {
  let s = s0;
  let t = 0;
  const seen: number[] = [];
  for (const runMs of runs) {
    const finishedAt = t + runMs;
    const window = isInBackOffSince(s, 'k', finishedAt, finishedAt) ? backoffGet(s, 'k') : 0;
    const restartAt = finishedAt + window;
    s = backoffNext(s, 'k', finishedAt, restartAt);
    seen.push(backoffGet(s, 'k') / 1000);
    t = restartAt;
  }
  return seen;
}

describe('the kubelet container back-off (kubelet.go @ 000d9543: HasExpiredFunc 600 s, KubeletCrashLoopBackOffMax)', () => {
  it('defaults: 10 s doubling to 300 s, reset 600 s after the last restart', () => {
    expect(containerBackoff()).toEqual({
      initialMs: 10_000,
      maxMs: 300_000,
      resetMs: 600_000,
      entries: {},
    });
    expect(crashLoop(containerBackoff(), [1000, 1000, 1000, 1000, 1000, 1000, 1000])).toEqual([
      10, 20, 40, 80, 160, 300, 300,
    ]);
  });

  it('maxContainerRestartPeriod 60 s: capped at 60 s, and still reset only 600 s after the last restart — not at 2 × max', () => {
    const s = containerBackoff(60_000);
    expect(s).toMatchObject({ initialMs: 10_000, maxMs: 60_000, resetMs: 600_000 });
    // a 121 s run is past 2 × max (client-go's default rule) but within 600 s: the window keeps growing
    expect(crashLoop(s, [1000, 1000, 1000, 121_000, 1000])).toEqual([10, 20, 40, 60, 60]);
    // a run that ends more than 600 s after the last restart starts again from 10 s
    expect(crashLoop(s, [1000, 1000, 600_001])).toEqual([10, 20, 10]);
    expect(crashLoop(s, [1000, 1000, 600_000])).toEqual([10, 20, 40]);
  });

  it('a maximum under 10 s is also the first window (newCrashLoopBackOff): a constant interval', () => {
    expect(containerBackoff(2000)).toMatchObject({ initialMs: 2000, maxMs: 2000 });
    expect(crashLoop(containerBackoff(2000), [100, 100, 100])).toEqual([2, 2, 2]);
    expect(containerBackoff(1000)).toMatchObject({ initialMs: 1000, maxMs: 1000 });
  });

  it('a maximum outside 1 s–300 s is refused, as the kubelet validates its configuration', () => {
    for (const bad of [999, 300_001, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => containerBackoff(bad)).toThrow(/between 1s and 300s/);
    }
  });

  it('GC drops an entry 600 s after its last update whatever the maximum', () => {
    const s = backoffNext(containerBackoff(30_000), 'k', 0, 1000);
    expect(Object.keys(backoffGC(s, 1000 + 600_000).entries)).toEqual(['k']);
    expect(Object.keys(backoffGC(s, 1000 + 600_001).entries)).toEqual([]);
  });

  it('scale multiplies every period, the reset included', () => {
    expect(containerBackoff(300_000, 0.1)).toMatchObject({
      initialMs: 1000,
      maxMs: 30_000,
      resetMs: 60_000,
    });
  });
});

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

  it('several Next calls at once reach the state of the calls one by one, and leave the input alone', () => {
    const start = backoffNext(newBackoff(10, 80), 'b', 0, 0);
    const steps = [
      { id: 'a', eventTimeMs: 0, nowMs: 5 },
      { id: 'b', eventTimeMs: 5, nowMs: 10 },
      { id: 'a', eventTimeMs: 10, nowMs: 20 },
      { id: '__proto__', eventTimeMs: 10, nowMs: 20 },
      { id: 'b', eventTimeMs: 500, nowMs: 600 }, // past 2 × max: from the start again
    ];
    let oneByOne = start;
    for (const st of steps) oneByOne = backoffNext(oneByOne, st.id, st.eventTimeMs, st.nowMs);
    const together = backoffNextAll(start, steps);
    expect(together).toEqual(oneByOne);
    expect(Object.keys(together.entries)).toEqual(Object.keys(oneByOne.entries));
    expect(backoffGet(together, 'a')).toBe(20);
    expect(backoffGet(together, 'b')).toBe(10);
    expect(backoffGet(together, '__proto__')).toBe(10);
    expect(Object.getPrototypeOf(together.entries)).toBe(Object.prototype);
    expect(Object.keys(start.entries)).toEqual(['b']);

    const ref = { podUid: 'u1', container: 'app' };
    const restarts = [
      { ref, previousExitAt: 0, restartAt: 10 },
      { ref, previousExitAt: 20, restartAt: 40 },
    ];
    expect(recordRestarts(start, restarts)).toEqual(
      recordRestart(recordRestart(start, ref, 0, 10), ref, 20, 40),
    );
  });

  it('recordRestartsInPlace writes into an owned table what recordRestarts returns', () => {
    const ref = (container: string) => ({ podUid: 'u1', container });
    const start = recordRestarts(containerBackoff(), [
      { ref: ref('b'), previousExitAt: 0, restartAt: 5 },
    ]);
    const batches = [
      [{ ref: ref('a'), previousExitAt: 0, restartAt: 10 }],
      [
        { ref: ref('b'), previousExitAt: 20, restartAt: 40 },
        { ref: ref('__proto__'), previousExitAt: 20, restartAt: 40 },
        { ref: ref('a'), previousExitAt: 30, restartAt: 50 },
      ],
      [{ ref: ref('b'), previousExitAt: 2_000_000, restartAt: 2_000_010 }], // past the reset
    ];
    const startText = JSON.stringify(start);
    const owned = ownBackoff(start);
    let copied = start;
    for (const restarts of batches) {
      const entries = owned.entries;
      recordRestartsInPlace(owned, restarts);
      copied = recordRestarts(copied, restarts);
      expect(owned).toStrictEqual(copied);
      expect(JSON.stringify(owned)).toBe(JSON.stringify(copied));
      expect(owned.entries).toBe(entries);
    }
    expect(Object.getPrototypeOf(owned.entries)).toBe(Object.prototype);
    // The state it was made from is left as it was.
    expect(JSON.stringify(start)).toBe(startText);
    // A malformed state is owned as normalize reads it.
    const loose = ownBackoff({ initialMs: Number.NaN, entries: 7 } as unknown as BackoffState);
    expect(loose).toStrictEqual(recordRestarts(loose, []));
    expect(loose.initialMs).toBe(CONTAINER_BACKOFF_INITIAL_MS);
  });

  it('backoffEntry reads malformed states as the normalized state would (a copy, clamped)', () => {
    type Loose = Parameters<typeof backoffEntry>[0];
    const loose = (v: unknown) => v as Loose;
    expect(backoffEntry(undefined, 'k')).toBeUndefined();
    expect(backoffEntry(loose('nonsense'), 'k')).toBeUndefined();
    expect(backoffEntry(loose({ entries: [{ backoffMs: 1 }] }), '0')).toBeUndefined();
    expect(backoffEntry(loose({ entries: { k: 'x' } }), 'k')).toBeUndefined();
    expect(backoffEntry(loose({ entries: {} }), 'constructor')).toBeUndefined();
    const entries = { k: { backoffMs: -5, lastUpdateMs: Number.NaN } };
    const state = loose({ initialMs: 'bad', entries });
    const got = backoffEntry(state, 'k');
    expect(got).toEqual({ backoffMs: 0, lastUpdateMs: 0 });
    expect(got).not.toBe(entries.k);
    entries.k.backoffMs = 20;
    expect(backoffEntry(state, 'k')).toEqual({ backoffMs: 20, lastUpdateMs: 0 });
    expect(backoffGet(state, 'k')).toBe(20);
    expect(backoffGet(loose(7), 'k')).toBe(0);
  });
});
