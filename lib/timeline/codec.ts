/**
 * JSON encoding for Podscope state and events.
 *
 * The Kubernetes API types carry times as `Date`. On the wire and on disk they are RFC 3339
 * strings, as `kubectl get -o json` prints them (milliseconds only when not zero), and they come
 * back as `Date` for the keys the API uses for times. Only strings in RFC 3339 form under those
 * keys are revived, so user-supplied strings elsewhere stay strings.
 */
import { setOwn } from './state';

const TIME_KEYS = new Set([
  'startedAt',
  'finishedAt',
  'lastTransitionTime',
  'lastProbeTime',
  'lastHeartbeatTime',
  'startTime',
  'creationTimestamp',
  'deletionTimestamp',
  'renewTime',
  'acquireTime',
  'eventTime',
  'firstTimestamp',
  'lastTimestamp',
]);

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** RFC 3339 in UTC; whole seconds print without a fraction, like metav1.Time. */
export function formatTime(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

function reviver(key: string, value: unknown): unknown {
  if (typeof value === 'string' && TIME_KEYS.has(key) && RFC3339.test(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d;
  }
  return value;
}

/**
 * JSON text with Dates written by formatTime (invalid ones as null): JSON.stringify with a
 * replacer. Stringify has already called a Date's own toJSON (toISOString, or null when
 * invalid) before the replacer sees the value, and formatTime differs from that only by
 * leaving out a zero fraction, so only a string ending in ".000Z" needs a look at the holder's
 * raw value. Nothing global is touched: the browser and the server may encode at any time.
 */
export function encode(value: unknown): string {
  return JSON.stringify(value, timeReplacer);
}

function timeReplacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.endsWith('.000Z')) {
    const raw = (this as Record<string, unknown>)[key];
    if (raw instanceof Date) return `${value.slice(0, -5)}Z`;
  }
  return value;
}

export function decode<T = unknown>(text: string): T {
  return JSON.parse(text, reviver) as T;
}

/**
 * Turns Dates into strings throughout (for transports that JSON-encode themselves): exactly
 * `JSON.parse(encode(value))`, built by one walk instead of a stringify and a parse (the tRPC
 * transformer runs this on every message; a 10,000-pod snapshot is tens of megabytes).
 */
export function toJsonValue(value: unknown): unknown {
  return value === undefined ? undefined : jsonValue(value, '');
}

/** The inverse of toJsonValue. */
export function fromJsonValue<T = unknown>(value: unknown): T {
  return value === undefined ? (value as T) : decode<T>(JSON.stringify(value));
}

/**
 * Revives time strings in a value freshly parsed from JSON, in place: the same result as
 * `fromJsonValue`, without a second stringify and parse. Only for values nobody else holds.
 */
export function reviveInPlace<T = unknown>(value: unknown): T {
  revive(value);
  return value as T;
}

function revive(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) revive(item);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v === 'string') {
      if (TIME_KEYS.has(key)) {
        const revived = reviver(key, v);
        if (revived !== v) record[key] = revived;
      }
    } else if (typeof v === 'object' && v !== null) revive(v);
  }
}

/**
 * What JSON.stringify makes of an object before writing it (SerializeJSONProperty): its
 * `toJSON(key)` when it has one, then a boxed primitive unboxed. `key` may be an array index as a
 * number: it is made a string only for a toJSON call. Shared with server/engine/pods/json-equal.ts.
 */
export function unwrapJsonObject(v: object, key: string | number): unknown {
  let x: unknown = v;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function')
    x = (v as { toJSON: (key: string) => unknown }).toJSON(String(key));
  if (x instanceof Number || x instanceof String || x instanceof Boolean) x = x.valueOf();
  return x;
}

/**
 * One step of JSON.stringify's algorithm (SerializeJSONProperty), producing values, not text.
 * `key` is an array index as a number (made a string only for a toJSON call).
 */
function jsonValue(value: unknown, key: string | number): unknown {
  // Primitives first (most values are strings and numbers): none is a Date, a boxed primitive or
  // has a toJSON that JSON.stringify would call.
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
    case 'object':
      break;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : formatTime(value);
  const v = typeof value === 'object' && value !== null ? unwrapJsonObject(value, key) : value;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      // JSON writes -0 as 0 and non-finite numbers as null.
      return Number.isFinite(v) ? v + 0 : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const out: unknown[] = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const item = jsonValue(v[i], i);
          out[i] = item === undefined ? null : item;
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      const record = v as Record<string, unknown>;
      for (const k of Object.keys(record)) {
        const item = jsonValue(record[k], k);
        if (item === undefined) continue;
        // "__proto__" from untrusted input is an own property, as JSON.parse makes it.
        setOwn(out, k, item);
      }
      return out;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
      // Left out of objects (null inside arrays, see above).
      return undefined;
  }
}

/**
 * A tRPC data transformer built on this codec (no per-value type metadata on the wire). The
 * value tRPC hands to `deserialize` was just parsed from the response and is revived in place.
 */
export const transformer = {
  serialize: (value: unknown): unknown => toJsonValue(value),
  deserialize: <T>(value: unknown): T => reviveInPlace<T>(value),
};
