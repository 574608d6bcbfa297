/**
 * The driver's settle(): a count of runtime calls started and finished, and a wait until it stops
 * moving for a few event-loop turns — the moment a driver on a manual clock and an in-memory
 * runtime can make no more progress without time passing.
 */
import type { DriverRuntime } from './runtime';

export class ActivityMeter {
  /** Bumped whenever a runtime call starts or ends. */
  private activity = 0;

  /** The runtime, with every call's start and end counted. */
  track(runtime: DriverRuntime): DriverRuntime {
    const tick = () => this.activity++;
    return new Proxy(runtime, {
      get(target, prop, receiver): unknown {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          tick();
          const result: unknown = Reflect.apply(value, target, args);
          if (result instanceof Promise) result.then(tick, tick);
          return result;
        };
      },
    });
  }

  /** Resolves once no call started or finished during three event-loop turns in a row. */
  async quiet(): Promise<void> {
    let quietTurns = 0;
    let last = this.activity;
    while (quietTurns < 3) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.activity === last) quietTurns++;
      else {
        quietTurns = 0;
        last = this.activity;
      }
    }
  }
}
