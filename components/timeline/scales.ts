/**
 * The timeline's time axis: a d3 linear scale over epoch milliseconds and ticks placed at round
 * offsets from the reference moment (now, or the end of a recording), labelled relatively
 * ("−2 min") in the reader's language.
 */
import { scaleLinear, type ScaleLinear } from 'd3';

export type TimeScale = ScaleLinear<number, number>;

export function timeScale(from: number, to: number, x0: number, x1: number): TimeScale {
  // A zero-length domain (nothing recorded yet) still needs a usable scale.
  const end = to > from ? to : from + 1000;
  return scaleLinear().domain([from, end]).range([x0, x1]).clamp(true);
}

/** Tick spacings, in seconds, from which the axis picks the first that leaves enough room. */
export const STEPS_S = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
] as const;

export interface Tick {
  t: number;
  x: number;
  /** Offset from the reference, in seconds (≤ 0). */
  seconds: number;
}

export function relativeTicks(scale: TimeScale, reference: number, minGapPx = 80): Tick[] {
  const [from, to] = scale.domain() as [number, number];
  const [x0, x1] = scale.range() as [number, number];
  const pxPerMs = (x1 - x0) / Math.max(1, to - from);
  const step: number = STEPS_S.find((s) => s * 1000 * pxPerMs >= minGapPx) ?? 86400;
  const ticks: Tick[] = [];
  const stepMs = step * 1000;
  // Ticks sit at reference − n·step, from the reference back to the start of the domain.
  for (let n = Math.max(0, Math.floor((reference - to) / stepMs)); ; n++) {
    const t = reference - n * stepMs;
    if (t < from) break;
    if (t <= to) ticks.push({ t, x: scale(t), seconds: n === 0 ? 0 : -n * step });
    if (ticks.length > 500) break;
  }
  return ticks.reverse();
}

/** "−30 s", "−2 min", "−1 h" in the locale's own units. */
export function formatOffset(seconds: number, locale: string): string {
  const abs = Math.abs(seconds);
  const [value, unit] =
    abs >= 3600 && abs % 3600 === 0
      ? [seconds / 3600, 'hour']
      : abs >= 60 && abs % 60 === 0
        ? [seconds / 60, 'minute']
        : [seconds, 'second'];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    signDisplay: 'exceptZero',
  }).format(value);
}
