import { describe, expect, it } from 'vitest';
import { TimeSlice } from './time-slice';

/** A backlog delivered as already-settled promises: only microtasks, as a full iterator queue. */
async function* backlog(n: number) {
  for (let i = 0; i < n; i++) yield await Promise.resolve(i);
}

describe('TimeSlice', () => {
  it('lets a timer in while a microtask-fed loop works through a backlog', async () => {
    let clock = 0;
    const slice = new TimeSlice(5, () => clock);
    let timerRanAt: number | undefined;
    let i = 0;
    setTimeout(() => (timerRanAt = i), 0);
    for await (i of backlog(100)) {
      clock += 1; // each step "takes" 1 ms
      await slice.turn();
    }
    // Without turns the timer would run only after all 100; with 5 ms slices it runs early.
    expect(timerRanAt).toBeDefined();
    expect(timerRanAt).toBeLessThan(20);
  });

  it('without turns, the same loop starves the timer (what the slice is for)', async () => {
    let timerRanAt: number | undefined;
    let i = 0;
    setTimeout(() => (timerRanAt = i), 0);
    for await (i of backlog(100)) void 0;
    expect(timerRanAt).toBeUndefined();
    await new Promise((r) => setTimeout(r, 5));
    expect(timerRanAt).toBe(99);
  });

  it('costs no turn inside the slice', () => {
    let clock = 0;
    const slice = new TimeSlice(5, () => clock);
    clock = 4;
    expect(slice.turn()).toBeUndefined();
    clock = 5;
    expect(slice.turn()).toBeInstanceOf(Promise);
  });
});
