/**
 * The simulator's clock: virtual epoch milliseconds plus one priority queue of timed tasks.
 *
 * - manual: time moves only when a test calls advance(ms) / advanceTo(t); due tasks run in time
 *   order, each seeing now() equal to its own due time. Nothing touches a real timer.
 * - real: virtual time = start + elapsed wall time × speed; a single real setTimeout (unref'd)
 *   is armed for the earliest task, however many nodes and containers share the clock.
 *
 * Every simulated node and container schedules on its clock's queue instead of owning timers,
 * which is what lets one process hold hundreds of nodes.
 */
import { TaskHeap } from './heap';
import type { HeapTask } from './heap';

export type ClockConfig =
  { mode: 'manual'; start?: number } | { mode: 'real'; speed?: number; start?: number };

export interface TimerHandle {
  readonly at: number;
}

export interface SimClock {
  readonly mode: 'manual' | 'real';
  /** Virtual ms per real ms (1 for manual, where it is meaningless). */
  readonly speed: number;
  /** Virtual epoch milliseconds. */
  now(): number;
  /** Runs `fn` at virtual time `at` (or at once on the next advance if `at` is past). */
  at(at: number, fn: () => void): TimerHandle;
  /** Runs `fn` after `ms` virtual milliseconds. */
  after(ms: number, fn: () => void): TimerHandle;
  cancel(handle: TimerHandle): void;
  /** Resolves after `ms` virtual milliseconds. */
  sleep(ms: number): Promise<void>;
  /** Pending task count (for tests and diagnostics). */
  pending(): number;
  /** Manual clocks: moves time forward, running every task due on the way. */
  advance(ms: number): void;
  advanceTo(t: number): void;
  /** Stops the real timer; pending tasks never run. */
  close(): void;
}

/** 2026-01-01T00:00:00Z: manual clocks start here unless told otherwise, for stable tests. */
export const DEFAULT_MANUAL_START = Date.UTC(2026, 0, 1);

export class ClockError extends Error {
  override name = 'ClockError';
}

abstract class BaseClock implements SimClock {
  abstract readonly mode: 'manual' | 'real';
  abstract readonly speed: number;
  protected readonly heap = new TaskHeap();
  private seq = 0;
  protected closed = false;

  abstract now(): number;
  protected abstract rearm(): void;

  at(at: number, fn: () => void): TimerHandle {
    const task: HeapTask = { at, seq: this.seq++, run: fn, cancelled: false };
    if (this.closed) {
      task.cancelled = true;
      return task;
    }
    const head = this.heap.peek();
    this.heap.push(task);
    if (!head || task.at < head.at) this.rearm();
    return task;
  }

  after(ms: number, fn: () => void): TimerHandle {
    return this.at(this.now() + Math.max(0, ms), fn);
  }

  cancel(handle: TimerHandle): void {
    this.heap.cancel(handle as HeapTask);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  pending(): number {
    return this.heap.size;
  }

  advance(_ms: number): void {
    throw new ClockError('advance() needs a manual clock');
  }

  advanceTo(_t: number): void {
    throw new ClockError('advanceTo() needs a manual clock');
  }

  /** Runs due tasks in order; a task may schedule more, which run too if due. */
  protected runDue(limit: number, setNow: (t: number) => void): void {
    for (;;) {
      const next = this.heap.peek();
      if (!next || next.at > limit) return;
      this.heap.pop();
      setNow(next.at);
      next.run();
    }
  }

  close(): void {
    this.closed = true;
  }
}

class ManualClock extends BaseClock {
  readonly mode = 'manual' as const;
  readonly speed = 1;
  private t: number;

  constructor(start: number) {
    super();
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  protected rearm(): void {
    // Nothing to arm: time only moves in advance().
  }

  override advance(ms: number): void {
    if (!(ms >= 0)) throw new ClockError(`advance(${ms}): needs a non-negative duration`);
    this.advanceTo(this.t + ms);
  }

  override advanceTo(t: number): void {
    if (t < this.t) throw new ClockError(`advanceTo(${t}): time cannot go back from ${this.t}`);
    this.runDue(t, (at) => {
      this.t = Math.max(this.t, at);
    });
    this.t = t;
  }
}

class RealClock extends BaseClock {
  readonly mode = 'real' as const;
  readonly speed: number;
  private readonly startVirtual: number;
  private readonly startReal: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Infinity;

  constructor(speed: number, start: number) {
    super();
    if (!(speed > 0) || !Number.isFinite(speed)) {
      throw new ClockError(`real clock speed must be a positive number, got ${speed}`);
    }
    this.speed = speed;
    this.startVirtual = start;
    this.startReal = performance.now();
  }

  now(): number {
    return this.startVirtual + (performance.now() - this.startReal) * this.speed;
  }

  protected rearm(): void {
    if (this.closed) return;
    const next = this.heap.peek();
    if (!next) {
      this.clearTimer();
      return;
    }
    if (this.timer !== undefined && next.at >= this.armedFor) return;
    this.clearTimer();
    const delay = Math.max(0, (next.at - this.now()) / this.speed);
    this.armedFor = next.at;
    // setTimeout clamps at 2^31-1 ms; longer waits simply re-arm when that fires.
    this.timer = setTimeout(() => this.fire(), Math.min(delay, 2_147_483_647));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = this.now();
    this.runDue(now, () => undefined);
    this.rearm();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  override close(): void {
    super.close();
    this.clearTimer();
  }
}

export function createClock(config: ClockConfig = { mode: 'manual' }): SimClock {
  if (config.mode === 'manual') return new ManualClock(config.start ?? DEFAULT_MANUAL_START);
  return new RealClock(config.speed ?? 1, config.start ?? Date.now());
}
