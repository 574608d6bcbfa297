/**
 * `encode(a) === encode(b)` (lib/timeline/codec) without building the two strings.
 *
 * pod-events.ts asks this for every container status, condition and explanation of every pod a
 * relist touches; encoding both sides was the largest single cost of a relist with changes.
 * The walk follows JSON.stringify's rules as the codec applies them: Dates compare by their
 * encoded text (null when invalid), toJSON is honoured, boxed primitives unbox, non-finite
 * numbers are null and -0 is 0, undefined / functions / symbols vanish from objects and are
 * null in arrays, and key order matters (the encoded strings would differ).
 */
import { formatTime, unwrapJsonObject } from '@/lib/timeline/codec';

/**
 * The value JSON.stringify would write for `v` under `key`, as a comparable value — except that a
 * Date stays a Date (see dateText), so two Dates compare by time value without formatting.
 */
function normal(v: unknown, key: string): unknown {
  // Primitives first (most values compared are strings and numbers): none is a Date, a boxed
  // primitive or has a toJSON that JSON.stringify would call.
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return v;
    case 'number':
      return Number.isFinite(v) ? v + 0 : null;
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
  }
  if (v === null || v instanceof Date) return v;
  const x = unwrapJsonObject(v, key);
  switch (typeof x) {
    case 'number':
      return Number.isFinite(x) ? x + 0 : null;
    case 'function':
    case 'symbol':
      return undefined;
    case 'string':
    case 'boolean':
    case 'bigint':
    case 'object':
    case 'undefined':
      return x;
  }
}

/** What the codec writes for a Date. */
const dateText = (d: Date): string | null => (Number.isNaN(d.getTime()) ? null : formatTime(d));

function equalNormal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Two Dates write the same text exactly when their time values are equal (or both invalid).
  if (a instanceof Date) {
    if (!(b instanceof Date)) return equalNormal(dateText(a), b);
    const x = a.getTime();
    const y = b.getTime();
    return x === y || (Number.isNaN(x) && Number.isNaN(y));
  }
  if (b instanceof Date) return equalNormal(a, dateText(b));
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const key = String(i);
      const p = normal(x[i], key);
      const q = normal(y[i], key);
      // In arrays, what objects would drop is written as null.
      if (!equalNormal(p === undefined ? null : p, q === undefined ? null : q)) return false;
    }
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  let i = 0;
  let j = 0;
  for (;;) {
    // Skip keys whose values JSON leaves out, on both sides, then compare key and value in order.
    let p: unknown;
    while (i < kx.length && (p = normal(x[kx[i] as string], kx[i] as string)) === undefined) i++;
    let q: unknown;
    while (j < ky.length && (q = normal(y[ky[j] as string], ky[j] as string)) === undefined) j++;
    if (i === kx.length || j === ky.length) return i === kx.length && j === ky.length;
    if (kx[i] !== ky[j] || !equalNormal(p, q)) return false;
    i++;
    j++;
  }
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || equalNormal(normal(a, ''), normal(b, ''));
}
