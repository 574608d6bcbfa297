import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPEEDS } from './cursor';
import { parseTime, parseView, viewFromSearchParams, writeView, type ViewState } from './url-state';

describe('view in the URL', () => {
  it('reads a shared link', () => {
    const v = parseView(
      new URLSearchParams(
        'sel=abc-123%2Fapi&at=2026-11-29T09%3A41%3A12.345Z&speed=4&node=demo-node-1&kind=container&reason=CrashLoopBackOff&bk=1',
      ),
    );
    expect(v).toEqual({
      sel: 'abc-123/api',
      at: Date.UTC(2026, 10, 29, 9, 41, 12, 345),
      speed: 4,
      source: 'live',
      filter: {
        followSelection: true,
        node: 'demo-node-1',
        kind: 'container',
        reason: 'CrashLoopBackOff',
        bookkeeping: true,
      },
    });
  });

  it('accepts epoch milliseconds and RFC 3339 offsets; rejects anything else', () => {
    expect(parseTime('1795943461000')).toBe(1795943461000);
    expect(parseTime('2026-11-29T10:41:12+01:00')).toBe(Date.UTC(2026, 10, 29, 9, 41, 12));
    expect(parseTime('yesterday')).toBeUndefined();
    expect(parseTime('12')).toBeUndefined();
    expect(parseTime('2026-13-45T99:00:00Z')).toBeUndefined();
  });

  it('falls back to defaults on nonsense', () => {
    const v = parseView(new URLSearchParams('speed=-3&kind=weird&at=soon&source=elsewhere'));
    expect(v).toEqual({ speed: 1, source: 'live', filter: { followSelection: true } });
  });

  it('keeps unrelated parameters and leaves defaults out', () => {
    const base = new URLSearchParams('utm=x&speed=8');
    const p = writeView({ speed: 1, source: 'live', filter: { followSelection: true } }, base);
    expect(p.toString()).toBe('utm=x');
  });

  it('round-trips every view', () => {
    const view = fc.record(
      {
        sel: fc.stringMatching(/^[a-z0-9-]{1,20}(\/[a-z-]{1,10})?$/),
        at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
        speed: fc.constantFrom(...SPEEDS),
        filter: fc.record(
          {
            followSelection: fc.boolean(),
            node: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
            pod: fc.uuid(),
            kind: fc.constantFrom(
              'container' as const,
              'pod' as const,
              'node' as const,
              'cri' as const,
              'k8s' as const,
            ),
            reason: fc.stringMatching(/^[A-Za-z]{1,20}$/),
            // Off is the default and is left out of the link.
            bookkeeping: fc.constant(true),
          },
          { requiredKeys: ['followSelection'] },
        ),
        source: fc.constantFrom('live' as const, 'demo' as const, 'scale' as const),
        demoStart: fc.integer({ min: 1_000_000_000_000, max: 4_102_444_800_000 }),
      },
      { requiredKeys: ['speed', 'filter', 'source'] },
    );
    fc.assert(
      fc.property(view, (v: ViewState) => {
        // The demo's start only means something for the demo.
        const expected = { ...v };
        if (expected.source === 'live') delete expected.demoStart;
        expect(parseView(new URLSearchParams(writeView(v).toString()))).toEqual(expected);
      }),
    );
  });
});

describe('viewFromSearchParams', () => {
  it("reads a page's searchParams like the URL, the first of repeated values", () => {
    expect(
      viewFromSearchParams({ sel: ['node-a', 'node-b'], speed: '4', none: undefined }),
    ).toEqual(parseView(new URLSearchParams('sel=node-a&speed=4')));
  });
});
