/**
 * The last resort for an event the store refuses as too large: a runtime that sent a 300 KB
 * container message (containerd quotes whatever argv[0] it could not exec), a pod with thousands
 * of containers. Held and retried as it is, such an event would stop the whole timeline — no
 * later event could be committed or reach a browser. Its shrunk copy keeps every field and every
 * Date, with long strings cut (and saying so) and long lists and maps shortened.
 */

export interface ShrinkLimits {
  /** Strings longer than this keep their first maxChars characters and a marker. */
  maxChars: number;
  /** Arrays and plain objects keep at most this many items. */
  maxItems: number;
}

/** Gentle first, then harsh: what the engine tries, in order. */
export const SHRINK_STEPS: readonly ShrinkLimits[] = [
  { maxChars: 4_096, maxItems: 256 },
  { maxChars: 256, maxItems: 32 },
];

function shrinkValue(value: unknown, limits: ShrinkLimits): unknown {
  if (typeof value === 'string') {
    if (value.length <= limits.maxChars) return value;
    return `${value.slice(0, limits.maxChars)}… [${value.length - limits.maxChars} more characters cut by Podscope]`;
  }
  if (Array.isArray(value))
    return value.slice(0, limits.maxItems).map((v) => shrinkValue(v, limits));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, limits.maxItems))
    out[k] = shrinkValue(v, limits);
  return out;
}

/** A copy of `event` within `limits` (the same object when nothing needed cutting is not promised). */
export function shrinkEvent<E>(event: E, limits: ShrinkLimits): E {
  return shrinkValue(event, limits) as E;
}
