import { describe, expect, it } from 'vitest';
import { TimeSlice } from './time-slice';

/** A backlog delivered as already-settled promises: only microtasks, as a full iterator queue. */
async function* backlog(n: number) {
  for (let i = 0; i < n; i++) yield await Promise.resolve(i);
}

describe('TimeSlice', () => {
  it('lets other callbacks in while a microtask-fed loop works through a backlog', async () => {
    let clock = 0;
    const slice = new TimeSlice(5, () => clock);
    let ranAt: number | undefined;
    let i = 0;
    setImmediate(() => (ranAt = i));
    for await (i of backlog(100)) {
      clock += 1; // each step "takes" 1 ms
      await slice.turn();
    }
    // Without turns it would run only after all 100; with 5 ms slices, at the first turn: after
    // the fifth item (index 4).
    expect(ranAt).toBe(4);
  });

  it('without turns, the same loop starves other callbacks (what the slice is for)', async () => {
    let ranAt: number | undefined;
    let i = 0;
    setImmediate(() => (ranAt = i));
    for await (i of backlog(100)) void 0;
    expect(ranAt).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(ranAt).toBe(99);
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
