/**
 * Time for the driver: every wait (resync ticks, back-off expiry, the preStop race against the
 * grace period, the demo's schedule) goes through a DriverClock, so a test can drive the driver
 * with a manual clock and never sleep on wall time, and the embedded simulator's virtual clock
 * (sped up for demos) is the single source of "now" for the runtime and its kubelet stand-in.
 */
export interface DriverTimer {
  cancel(): void;
}

export interface DriverClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn` once `ms` clock-milliseconds from now (never synchronously). */
  setTimer(ms: number, fn: () => void): DriverTimer;
}

/** Wall-clock time (real containerd in a lab). */
export const systemClock: DriverClock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const handle = setTimeout(fn, Math.max(0, ms));
    // A pending resync must not keep a CLI process alive after everything else stopped.
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

interface PendingTimer {
  at: number;
  order: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when told to. `advance(ms)` fires due timers in time order (ties in
 * creation order), each at its own instant: `now()` inside a callback equals that timer's time.
 */
export class ManualClock implements DriverClock {
  private current: number;
  private order = 0;
  private timers: PendingTimer[] = [];

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fn: () => void): DriverTimer {
    const timer: PendingTimer = {
      at: this.current + Math.max(0, ms),
      order: this.order++,
      fn,
      cancelled: false,
    };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Number of timers still waiting (cancelled ones excluded). */
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Epoch ms of the earliest pending timer, if any. */
  nextAt(): number | undefined {
    let best: number | undefined;
    for (const t of this.timers)
      if (!t.cancelled && (best === undefined || t.at < best)) best = t.at;
    return best;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    this.advanceTo(this.current + Math.max(0, ms));
  }

  advanceTo(target: number): void {
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      const due = this.timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.at);
      due.cancelled = true;
      due.fn();
    }
    this.current = Math.max(this.current, target);
  }
}

/** A clock that schedules callbacks itself, as the simulator's virtual clock (server/sim/clock/clock.ts) does. */
export interface SchedulingClock<Handle> {
  now(): number;
  after(ms: number, fn: () => void): Handle;
  cancel(handle: Handle): void;
}

/**
 * The simulator's virtual clock as a DriverClock, so the embedded runtime and its kubelet
 * stand-in share one "now" (and one speed-up factor). Typed by shape: the driver does not
 * import the simulator.
 */
export function fromSimClock<Handle>(clock: SchedulingClock<Handle>): DriverClock {
  return {
    now: () => clock.now(),
    setTimer(ms, fn) {
      const handle = clock.after(Math.max(0, ms), fn);
      return { cancel: () => clock.cancel(handle) };
    },
  };
}
