import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClockError, createClock, DEFAULT_MANUAL_START } from './clock';
import { TaskHeap } from './heap';
import type { HeapTask } from './heap';

describe('manual clock', () => {
  it('starts at a fixed instant and moves only on advance', () => {
    const clock = createClock({ mode: 'manual' });
    expect(clock.now()).toBe(DEFAULT_MANUAL_START);
    clock.advance(1500);
    expect(clock.now()).toBe(DEFAULT_MANUAL_START + 1500);
  });

  it('runs due tasks in time order, each seeing its own due time', () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    const seen: [string, number][] = [];
    clock.at(300, () => seen.push(['c', clock.now()]));
    clock.at(100, () => seen.push(['a', clock.now()]));
    clock.at(100, () => seen.push(['b', clock.now()]));
    clock.at(900, () => seen.push(['late', clock.now()]));
    clock.advance(500);
    expect(seen).toEqual([
      ['a', 100],
      ['b', 100],
      ['c', 300],
    ]);
    expect(clock.now()).toBe(500);
    expect(clock.pending()).toBe(1);
  });

  it('runs tasks scheduled by tasks when they fall inside the advance', () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    const ticks: number[] = [];
    const tick = () => {
      ticks.push(clock.now());
      clock.after(1000, tick);
    };
    clock.after(1000, tick);
    clock.advance(3500);
    expect(ticks).toEqual([1000, 2000, 3000]);
  });

  it('cancels tasks', () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    let ran = false;
    const h = clock.after(10, () => {
      ran = true;
    });
    clock.cancel(h);
    clock.advance(100);
    expect(ran).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it('cancelling a task that already ran changes nothing', () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    const h = clock.after(10, () => undefined);
    clock.after(20, () => undefined);
    clock.advance(10);
    clock.cancel(h);
    expect(clock.pending()).toBe(1);
  });

  it('resolves sleep() on advance only', async () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    let done = false;
    const p = clock.sleep(50).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(50);
    await p;
    expect(done).toBe(true);
  });

  it('refuses to go back in time or take a negative step', () => {
    const clock = createClock({ mode: 'manual', start: 1000 });
    expect(() => clock.advanceTo(999)).toThrow(ClockError);
    expect(() => clock.advance(-1)).toThrow(ClockError);
  });
});

describe('real clock', () => {
  it('runs virtual time at the given speed', async () => {
    const clock = createClock({ mode: 'real', speed: 200, start: 0 });
    const t0 = performance.now();
    // 2 virtual seconds at speed 200 = 10 ms of wall time.
    await clock.sleep(2000);
    const wall = performance.now() - t0;
    expect(clock.now()).toBeGreaterThanOrEqual(2000);
    expect(wall).toBeGreaterThanOrEqual(9);
    expect(wall).toBeLessThan(1000);
    clock.close();
  });

  it('has no advance()', () => {
    const clock = createClock({ mode: 'real' });
    expect(() => clock.advance(1)).toThrow(ClockError);
    clock.close();
  });

  it('rejects a non-positive speed', () => {
    expect(() => createClock({ mode: 'real', speed: 0 })).toThrow(ClockError);
  });
});

describe('task heap', () => {
  it('pops in (time, insertion) order whatever the pushes and cancels', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 50 }), cancel: fc.boolean() }), {
          maxLength: 200,
        }),
        (ops) => {
          const heap = new TaskHeap();
          const tasks: HeapTask[] = ops.map((o, seq) => ({
            at: o.at,
            seq,
            run: () => undefined,
            cancelled: false,
          }));
          tasks.forEach((t) => heap.push(t));
          tasks.forEach((t, i) => {
            if (ops[i]?.cancel) heap.cancel(t);
          });
          const live = tasks.filter((t) => !t.cancelled);
          expect(heap.size).toBe(live.length);
          const popped: HeapTask[] = [];
          for (let t = heap.pop(); t; t = heap.pop()) popped.push(t);
          const expected = [...live].sort((a, b) => a.at - b.at || a.seq - b.seq);
          expect(popped.map((t) => t.seq)).toEqual(expected.map((t) => t.seq));
        },
      ),
    );
  });
});
