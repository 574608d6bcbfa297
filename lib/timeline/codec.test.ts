import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decode,
  encode,
  formatTime,
  fromJsonValue,
  reviveInPlace,
  toJsonValue,
  transformer,
} from './codec';

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
    const back = decode<Record<string, unknown>>(
      '{"startedAt":"yesterday","name":"2026-11-29T09:08:20Z"}',
    );
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

/**
 * The codec's rule as JSON.stringify's replacer states it: a Date (found on the holder, as
 * stringify calls toJSON before a replacer sees the value) is written by formatTime, or null.
 */
function reference(value: unknown): string | undefined {
  return JSON.stringify(value, function (this: unknown, key: string, v: unknown): unknown {
    const raw = (this as Record<string, unknown>)[key];
    if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : formatTime(raw);
    return v;
  });
}

describe('toJsonValue and reviveInPlace (the transformer)', () => {
  const anything = fc.anything({
    withDate: true,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withSparseArray: true,
    withNullPrototype: true,
    withObjectString: true,
    withUnicodeString: true,
    key: fc.oneof(
      fc.string(),
      fc.constantFrom('startedAt', 'lastTransitionTime', '__proto__', 'toJSON', 'finishedAt'),
    ),
  });
  const timeish = fc.oneof(
    fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }),
    fc
      .date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true })
      .map((d) => formatTime(d)),
    fc.constant(new Date(Number.NaN)),
    fc.string(),
  );
  const shaped = fc.record({
    startedAt: timeish,
    nested: fc.array(fc.record({ lastTransitionTime: timeish, x: anything })),
    other: anything,
  });

  it('equals JSON.parse of the replacer-stated rule for any value, and encode writes that text', () => {
    fc.assert(
      fc.property(fc.oneof(anything, shaped), (v) => {
        const text = reference(v);
        expect(encode(v) as string | undefined).toBe(text);
        if (text === undefined) expect(toJsonValue(v)).toBeUndefined();
        else expect(toJsonValue(v)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('revives like decode, in place', () => {
    fc.assert(
      fc.property(fc.oneof(anything, shaped), (v) => {
        const text = encode(v) as string | undefined;
        if (text === undefined) return;
        expect(reviveInPlace(JSON.parse(text))).toStrictEqual(decode(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const parsed = JSON.parse(
      '{"__proto__":{"polluted":true},"labels":{"__proto__":"x"}}',
    ) as object;
    const out = toJsonValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'labels']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is what the transformer sends and receives', () => {
    const v = {
      events: [{ status: { state: { running: { startedAt: new Date(1_700_000_000_000) } } } }],
    };
    const wire = JSON.parse(JSON.stringify(transformer.serialize(v))) as unknown;
    expect(transformer.deserialize(wire)).toEqual(v);
  });

  it('throws on a BigInt as JSON.stringify does', () => {
    expect(() => toJsonValue({ n: 1n })).toThrow(TypeError);
  });

  it('settles primitives, members JSON leaves out and toJSON keys as JSON.stringify does', () => {
    const keys: unknown[] = [];
    const probe = { toJSON: (key: unknown) => (keys.push(key), key) };
    const v = {
      s: 'x',
      n: -0,
      inf: Number.POSITIVE_INFINITY,
      b: false,
      u: undefined,
      f: () => 1,
      sym: Symbol('s'),
      boxed: [new String('s'), new Number(2), new Boolean(true)],
      list: [1, undefined, () => 1, Symbol('t'), Number.NaN, probe, probe],
      probe,
    };
    expect(toJsonValue(v)).toStrictEqual(JSON.parse(JSON.stringify(v)) as unknown);
    expect(keys).toEqual(['5', '6', 'probe', '5', '6', 'probe']);
    expect(toJsonValue('s')).toBe('s');
    expect(toJsonValue(-0)).toBe(0);
    expect(toJsonValue(Symbol('s'))).toBeUndefined();
    expect(() => toJsonValue(1n)).toThrow(TypeError);
  });
});

describe('encode and Date.prototype.toJSON', () => {
  it('leaves Date.prototype.toJSON as it was, also when the value throws or nests an encode', () => {
    const toJSON = () =>
      Object.getOwnPropertyDescriptor(Date.prototype, 'toJSON')?.value as unknown;
    const native = toJSON();
    expect(() => encode({ n: 1n })).toThrow(TypeError);
    expect(toJSON()).toBe(native);
    const inner = {
      toJSON: (): unknown => JSON.parse(encode({ at: new Date(Date.UTC(2026, 0, 2)) })),
    };
    expect(encode({ inner, at: new Date(Date.UTC(2026, 0, 3, 4, 5, 6, 7)) })).toBe(
      '{"inner":{"at":"2026-01-02T00:00:00Z"},"at":"2026-01-03T04:05:06.007Z"}',
    );
    expect(toJSON()).toBe(native);
    expect(JSON.stringify(new Date(Date.UTC(2026, 0, 2)))).toBe('"2026-01-02T00:00:00.000Z"');
  });

  it('never touches Date.prototype.toJSON, not even while it encodes', () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
    const native = Date.prototype.toJSON;
    let seen: unknown;
    const probe = {
      toJSON: () => {
        // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
        seen = Date.prototype.toJSON;
        return 1;
      },
    };
    expect(encode({ probe, at: new Date(Date.UTC(2026, 0, 2)) })).toBe(
      '{"probe":1,"at":"2026-01-02T00:00:00Z"}',
    );
    expect(seen).toBe(native);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
    expect(Date.prototype.toJSON).toBe(native);
  });
});
