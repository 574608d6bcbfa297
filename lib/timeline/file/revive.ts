/**
 * Turns the RFC 3339 strings of a validated document back into Dates, exactly where the timeline
 * codec's `decode` would (the codec is asked, key by key, so the two cannot drift apart). One
 * walk over the already-parsed value, instead of parsing the text a second time with a reviver.
 */
import { decode } from '../codec';

const PROBE_TIME = '2000-01-01T00:00:00Z';
const keyRevives = new Map<string, boolean>();

function reviveOne(key: string, value: string): unknown {
  return decode<Record<string, unknown>>(JSON.stringify({ [key]: value }))[key];
}

function revivesKey(key: string): boolean {
  let known = keyRevives.get(key);
  if (known === undefined) {
    known = reviveOne(key, PROBE_TIME) instanceof Date;
    // Keys come from files: remember only the few the codec revives, and a bounded set of others.
    if (known || keyRevives.size < 10_000) keyRevives.set(key, known);
  }
  return known;
}

/** Replaces, in place, every string the codec would revive with its Date. */
export function reviveTimes(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'string') {
        if (revivesKey(String(i))) value[i] = reviveOne(String(i), v);
      } else if (v !== null && typeof v === 'object') reviveTimes(v);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v === 'string') {
      if (revivesKey(key)) record[key] = reviveOne(key, v);
    } else if (v !== null && typeof v === 'object') reviveTimes(v);
  }
}
