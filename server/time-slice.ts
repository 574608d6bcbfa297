/**
 * Cooperative time slices for long loops on the main thread.
 *
 * A loop fed by promises that are already settled — an async iterator over a backlog that one
 * socket read delivered, say — runs on microtasks alone: nothing else on the event loop (timers,
 * I/O completions such as a compressor's, HTTP requests) gets a turn until the backlog is gone.
 * `await slice.turn()` after each step gives the event loop one turn once the slice has run
 * `ms` milliseconds, and costs nothing when it has not.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export class TimeSlice {
  private started: number;

  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** Resolves at once inside the slice; past it, after one event-loop turn (a new slice begins). */
  turn(): Promise<void> | undefined {
    if (this.now() - this.started < this.ms) return undefined;
    return nextTurn().then(() => {
      this.started = this.now();
    });
  }
}
