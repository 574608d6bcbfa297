/**
 * Bounded exponential back-off with jitter for reconnecting to the API server, shaped like
 * client-go's reflector back-off (k8s.io/client-go/tools/cache/reflector.go: 800 ms initial,
 * doubling, 30 s cap, jittered) so a fleet of watchers does not reconnect in lock-step.
 * `random` is injected so tests can pin the jitter.
 */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Each delay is stretched by up to this fraction (0.5 → up to +50 %), never beyond maxMs. */
  jitter: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 0.5,
};

export class Backoff {
  private attempt = 0;
  private readonly options: BackoffOptions;

  constructor(
    options?: Partial<BackoffOptions>,
    private readonly random: () => number = Math.random,
  ) {
    this.options = { ...DEFAULT_BACKOFF, ...options };
  }

  /** The delay before the next attempt; each call without a reset() grows it, up to maxMs. */
  next(): number {
    const { initialMs, maxMs, factor, jitter } = this.options;
    const base = Math.min(maxMs, initialMs * factor ** this.attempt);
    this.attempt++;
    return Math.min(maxMs, Math.round(base * (1 + jitter * this.random())));
  }

  reset(): void {
    this.attempt = 0;
  }

  get failures(): number {
    return this.attempt;
  }
}

/** Resolves after `ms`, or at once when the signal aborts (so stop() never waits out a back-off). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
