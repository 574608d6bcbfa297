/** Small statistics and timing helpers shared by the suites. */

import { createRandom } from '@/lib/random';

/** The q-quantile by the nearest-rank method (q in [0, 1]); NaN for no samples. */
export function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

/** Rounds to `digits` decimals (for the JSON, where more digits are noise). */
export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** CPU time (user + system) this process has used, in milliseconds. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` returns true, polling every `everyMs`; rejects after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A seeded pause of a uniformly drawn length in [minMs, maxMs) (reproducible phases). */
export function seededSleep(seed: number): (minMs: number, maxMs: number) => Promise<void> {
  const next = createRandom(seed).next;
  return (minMs, maxMs) => sleep(minMs + next() * (maxMs - minMs));
}
