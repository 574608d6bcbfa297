/**
 * Moving a manual clock under a driver: timers fire one instant at a time and the driver's async
 * work (its syncs on the fake runtime) settles before the clock moves on, so whatever a sync
 * schedules is in place before its time comes.
 */
import type { ManualClock } from '../clock';
import type { Driver } from '../driver';

export async function advance(clock: ManualClock, driver: Driver, ms: number): Promise<void> {
  const target = clock.now() + ms;
  await driver.settle();
  for (;;) {
    const next = clock.nextAt();
    if (next === undefined || next > target) break;
    clock.advanceTo(next);
    await driver.settle();
  }
  clock.advanceTo(target);
  await driver.settle();
}

/** Advances in steps until `predicate` holds (checked after each instant), or throws after `maxMs`. */
export async function advanceUntil(
  clock: ManualClock,
  driver: Driver,
  predicate: () => boolean,
  maxMs: number,
  what = 'condition',
): Promise<number> {
  const start = clock.now();
  await driver.settle();
  while (!predicate()) {
    const next = clock.nextAt();
    if (next === undefined || next - start > maxMs) {
      throw new Error(
        `${what} did not hold within ${maxMs} ms (clock moved ${clock.now() - start} ms)`,
      );
    }
    clock.advanceTo(next);
    await driver.settle();
  }
  return clock.now() - start;
}
