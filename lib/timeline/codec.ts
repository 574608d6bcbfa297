/**
 * JSON encoding for Podscope state and events.
 *
 * The Kubernetes API types carry times as `Date`. On the wire and on disk they are RFC 3339
 * strings, as `kubectl get -o json` prints them (milliseconds only when not zero), and they come
 * back as `Date` for the keys the API uses for times. Only strings in RFC 3339 form under those
 * keys are revived, so user-supplied strings elsewhere stay strings.
 */
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

function replacer(this: unknown, key: string, value: unknown): unknown {
  // JSON.stringify calls Date.prototype.toJSON before the replacer sees the value, so look at
  // the holder to find the original Date.
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : formatTime(raw);
  return value;
}

function reviver(key: string, value: unknown): unknown {
  if (typeof value === 'string' && TIME_KEYS.has(key) && RFC3339.test(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d;
  }
  return value;
}

export function encode(value: unknown): string {
  return JSON.stringify(value, replacer);
}

export function decode<T = unknown>(text: string): T {
  return JSON.parse(text, reviver) as T;
}

/** Turns Dates into strings throughout (for transports that JSON-encode themselves). */
export function toJsonValue(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(encode(value));
}

/** The inverse of toJsonValue. */
export function fromJsonValue<T = unknown>(value: unknown): T {
  return value === undefined ? (value as T) : decode<T>(JSON.stringify(value));
}

/** A tRPC data transformer built on this codec (no per-value type metadata on the wire). */
export const transformer = {
  serialize: (value: unknown): unknown => toJsonValue(value),
  deserialize: <T>(value: unknown): T => fromJsonValue<T>(value),
};
