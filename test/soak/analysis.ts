/**
 * The soak's arithmetic, kept pure so it can be tested: reading Prometheus text, judging heap
 * growth, and spotting error lines in a log.
 */

/** Metric name → value, summed over every label set (counters and gauges alike). */
export function sumByName(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!m?.[1] || m[3] === undefined) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    out.set(m[1], (out.get(m[1]) ?? 0) + value);
  }
  return out;
}

export interface HeapSample {
  /** ms since the start of the run. */
  t: number;
  heapBytes: number;
}

export interface HeapGrowth {
  /** Samples after warm-up that the judgement used. */
  samples: number;
  /** The heap floor (lowest sample: what survives garbage collection) of the first and last windows. */
  baselineBytes: number;
  finalBytes: number;
  growthPct: number;
  /** Least-squares slope of the window floors, MiB per hour. */
  slopeMibPerHour: number;
  windows: { fromMs: number; toMs: number; floorBytes: number }[];
}

/**
 * Heap growth after warm-up. The heap in use saws up and down with garbage collection, so each of
 * `windows` equal spans of the post-warm-up period is represented by its floor (lowest sample);
 * growth compares the last floor with the first.
 */
export function heapGrowth(
  all: readonly HeapSample[],
  warmupMs: number,
  maxWindows = 6,
): HeapGrowth | undefined {
  const samples = all.filter((s) => s.t >= warmupMs);
  // Two samples per window at least; a short run gets fewer, wider windows.
  const windows = Math.min(maxWindows, Math.floor(samples.length / 2));
  if (windows < 2) return undefined;
  const from = samples[0]?.t ?? 0;
  const to = samples[samples.length - 1]?.t ?? 0;
  const span = (to - from) / windows;
  const floors: HeapGrowth['windows'] = [];
  for (let w = 0; w < windows; w++) {
    const lo = from + w * span;
    const hi = w === windows - 1 ? to + 1 : lo + span;
    const inside = samples.filter((s) => s.t >= lo && s.t < hi);
    if (inside.length === 0) continue;
    floors.push({ fromMs: lo, toMs: hi, floorBytes: Math.min(...inside.map((s) => s.heapBytes)) });
  }
  const first = floors[0];
  const last = floors[floors.length - 1];
  if (!first || !last) return undefined;
  const xs = floors.map((f) => (f.fromMs + f.toMs) / 2 / 3_600_000);
  const ys = floors.map((f) => f.floorBytes / 1_048_576);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] ?? 0) - my);
    den += (x - mx) ** 2;
  });
  return {
    samples: samples.length,
    baselineBytes: first.floorBytes,
    finalBytes: last.floorBytes,
    growthPct: ((last.floorBytes - first.floorBytes) / first.floorBytes) * 100,
    slopeMibPerHour: den === 0 ? 0 : num / den,
    windows: floors,
  };
}

/** Lines a healthy run never prints: errors, failures, exceptions (case-insensitive words). */
export function isErrorLine(line: string): boolean {
  return /\b(error|errors|failed|failure|fail|exception|unhandled|uncaught|fatal|panic|ECONNRESET|EPIPE)\b/i.test(
    line,
  );
}
