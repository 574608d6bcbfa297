/**
 * Runtime clients for a recording on a manual clock: each one counts its calls in flight, so the
 * recorder knows when the driver and the engine have nothing left to do before it moves virtual
 * time on, and can be re-dialled (a fresh channel) when the simulated runtime's socket changes.
 *
 * Why not "no call started or finished for a few event-loop turns" (Driver.settle): over a real
 * socket a call whose answer is still on its way looks exactly like that, and moving the clock
 * then makes the recording depend on the machine's speed. Counting calls in flight does not —
 * except for the calls the simulator answers only when its clock moves (StopContainer waiting for
 * the process to exit, ExecSync running a preStop `sleep`, a slow PullImage): those are let
 * through once they have been in flight a little while.
 */

/** RPCs the simulator may hold until virtual time passes (server/sim/runtime/model.ts). */
export const CLOCK_BOUND_CALLS: ReadonlySet<string> = new Set([
  'stopContainer',
  'execSync',
  'pullImage',
]);

/** How long (real ms) a clock-bound call must have been waiting before it counts as blocked. */
export const CLOCK_BOUND_GRACE_MS = 20;

interface InFlight {
  name: string;
  since: number;
}

/** Calls in flight across several clients, and every start or end as one activity counter. */
export class CallLedger {
  private readonly open = new Set<InFlight>();
  private activityCount = 0;

  constructor(private readonly realNow: () => number = () => performance.now()) {}

  get activity(): number {
    return this.activityCount;
  }

  get size(): number {
    return this.open.size;
  }

  /** Marks a call (or any other awaited step, e.g. a socket swap) as running until `p` settles. */
  track<T>(name: string, p: Promise<T>): Promise<T> {
    const entry: InFlight = { name, since: this.realNow() };
    this.open.add(entry);
    this.activityCount++;
    const done = () => {
      this.open.delete(entry);
      this.activityCount++;
    };
    p.then(done, done);
    return p;
  }

  /**
   * True while a call is in flight that will finish without virtual time passing: anything but
   * a clock-bound call, or a clock-bound one that has not yet had the grace period to answer.
   */
  busy(): boolean {
    const now = this.realNow();
    for (const c of this.open) {
      if (!CLOCK_BOUND_CALLS.has(c.name) || now - c.since < CLOCK_BOUND_GRACE_MS) return true;
    }
    return false;
  }
}

/**
 * A client whose every method call is tracked in the ledger and forwarded to the current inner
 * client; `redial()` replaces the inner client (closing the old one), so callers holding the
 * proxy never notice.
 */
export class Redialable<T extends object> {
  private current: T;
  readonly client: T;

  constructor(
    private readonly dial: () => T,
    private readonly closeClient: (client: T) => void,
    ledger: CallLedger,
  ) {
    this.current = dial();
    const current = () => this.current;
    this.client = new Proxy({} as T, {
      get(_target, prop): unknown {
        const inner = current();
        const value: unknown = Reflect.get(inner, prop, inner);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          const result: unknown = Reflect.apply(value, inner, args);
          return result instanceof Promise ? ledger.track(String(prop), result) : result;
        };
      },
    });
  }

  redial(): void {
    const old = this.current;
    this.current = this.dial();
    this.closeClient(old);
  }

  close(): void {
    this.closeClient(this.current);
  }
}
