import { describe, expect, it } from 'vitest';
import { decode, encode, formatTime, fromJsonValue, toJsonValue } from './codec';

describe('codec', () => {
  it('writes times as kubectl does and reads them back as Dates', () => {
    const value = { state: { running: { startedAt: new Date('2026-11-29T09:08:20Z') } }, t: 5 };
    const text = encode(value);
    expect(text).toContain('"startedAt":"2026-11-29T09:08:20Z"');
    const back = decode<typeof value>(text);
    expect(back.state.running.startedAt).toBeInstanceOf(Date);
    expect(back).toEqual(value);
  });

  it('keeps milliseconds when present', () => {
    expect(formatTime(new Date(1234))).toBe('1970-01-01T00:00:01.234Z');
  });

  it('revives only RFC 3339 strings under time keys', () => {
    const back = decode<Record<string, unknown>>('{"startedAt":"yesterday","name":"2026-11-29T09:08:20Z"}');
    expect(back.startedAt).toBe('yesterday');
    expect(back.name).toBe('2026-11-29T09:08:20Z');
  });

  it('round-trips through the transformer form', () => {
    const v = { lastTransitionTime: new Date(0), n: [1, 2] };
    expect(fromJsonValue(toJsonValue(v))).toEqual(v);
  });

  it('writes an invalid Date as null', () => {
    expect(encode({ startedAt: new Date(Number.NaN) })).toBe('{"startedAt":null}');
  });
});
