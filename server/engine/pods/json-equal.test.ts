import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '@/lib/timeline/codec';
import { jsonEqual } from './json-equal';

const same = (a: unknown, b: unknown) =>
  (encode(a) as string | undefined) === (encode(b) as string | undefined);

describe('jsonEqual', () => {
  it('compares like the encoded text', () => {
    const t = new Date('2026-11-29T09:08:20Z');
    expect(jsonEqual({ a: 1, b: [t] }, { a: 1, b: [new Date(t.getTime())] })).toBe(true);
    expect(jsonEqual({ startedAt: t }, { startedAt: '2026-11-29T09:08:20Z' })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([undefined], [null])).toBe(true);
    expect(jsonEqual({ n: Number.NaN }, { n: null })).toBe(true);
    expect(jsonEqual({ n: -0 }, { n: 0 })).toBe(true);
    expect(jsonEqual({ d: new Date(Number.NaN) }, { d: null })).toBe(true);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(jsonEqual(undefined, undefined)).toBe(true);
    expect(jsonEqual(undefined, null)).toBe(false);
    // Functions and symbols vanish from objects and are null in arrays, as in the encoded text.
    expect(jsonEqual({ f: () => 1, s: Symbol('x'), a: 1 }, { a: 1 })).toBe(true);
    expect(jsonEqual([() => 1, Symbol('y')], [null, null])).toBe(true);
    expect(
      jsonEqual({ n: Object(2) as unknown, s: Object('x') as unknown }, { n: 2, s: 'x' }),
    ).toBe(true);
  });

  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.constantFrom(0, -0, 1, Number.NaN, Infinity, 'a', '', 'x', true, false, null, undefined),
      fc.constantFrom(new Date(0), new Date(1000), new Date(Number.NaN)),
      fc.constantFrom('1970-01-01T00:00:00Z', '1970-01-01T00:00:01Z'),
    ),
    node: fc.oneof(
      { depthSize: 'small' },
      tie('leaf'),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'startedAt', '0', '1'), tie('node'), { maxKeys: 3 }),
    ),
  })).node;

  it('agrees with encode on any pair of values (property)', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(jsonEqual(a, b)).toBe(same(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with encode on a value and its JSON copy (property)', () => {
    fc.assert(
      fc.property(
        fc.anything({ withDate: true, withBoxedValues: true, withSparseArray: true }),
        (a) => {
          const text = encode(a) as string | undefined;
          const copy: unknown = text === undefined ? undefined : JSON.parse(text);
          expect(jsonEqual(a, copy)).toBe(same(a, copy));
        },
      ),
      { numRuns: 500 },
    );
  });
});
