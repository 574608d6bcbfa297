import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimelineFileError } from './errors';
import { DEFAULT_LIMITS } from './limits';
import { parseTimelineBytes, parseTimelineText } from './parse';
import { scanJsonLimits } from './scan';

afterEach(() => vi.restoreAllMocks());

const refusal = (f: () => unknown): TimelineFileError => {
  try {
    f();
  } catch (err) {
    if (err instanceof TimelineFileError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('the bounded pre-scan (issue 17 item 6)', () => {
  it('refuses 10 MB of nested brackets before JSON.parse allocates anything', () => {
    const half = 5 * 1024 * 1024;
    const text = `{"format":"podscope.timeline","version":1,"x":${'['.repeat(half)}${']'.repeat(half)}}`;
    const parse = vi.spyOn(JSON, 'parse');
    const before = process.memoryUsage().heapUsed;
    const err = refusal(() => parseTimelineText(text));
    const grew = process.memoryUsage().heapUsed - before;
    expect(parse).not.toHaveBeenCalled();
    expect(err.code).toBe('TOO_LARGE');
    expect(err.issues[0]?.message).toBe('nested deeper than 32 levels');
    expect(err.issues[0]?.path).toMatch(/^x(\[0\]){31}$/);
    // A few kilobytes at most, not hundreds of megabytes of arrays.
    expect(grew).toBeLessThan(16 * 1024 * 1024);
  });

  it('the same from bytes, and deep objects too', () => {
    const deep = `{"a":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`;
    const parse = vi.spyOn(JSON, 'parse');
    expect(refusal(() => parseTimelineBytes(new TextEncoder().encode(deep))).code).toBe(
      'TOO_LARGE',
    );
    expect(parse).not.toHaveBeenCalled();
  });

  it('counts items and measures strings as the parsed document would have them', () => {
    const limits = { ...DEFAULT_LIMITS, maxArrayLength: 3, maxEvents: 4, maxStringChars: 5 };
    expect(() =>
      scanJsonLimits('{"a":[1,2,3],"events":[1,2,3,4],"s":"12345"}', limits),
    ).not.toThrow();
    expect(refusal(() => scanJsonLimits('{"a":[1,2,[],4]}', limits)).issues[0]).toEqual({
      path: 'a',
      message: '4 items; the limit is 3',
    });
    expect(refusal(() => scanJsonLimits('{"events":[{},{},{},{},{}]}', limits)).issues[0]).toEqual({
      path: 'events',
      message: '5 events; the limit is 4',
    });
    // Escapes count as the character they stand for.
    expect(() => scanJsonLimits('{"s":"\\n\\n\\u0041\\"5"}', limits)).not.toThrow();
    expect(refusal(() => scanJsonLimits('{"s":"123456"}', limits)).issues[0]).toEqual({
      path: 's',
      message: 'string of 6 characters; the limit is 5',
    });
    // Brackets inside strings are text.
    expect(() =>
      scanJsonLimits(`{"s":"${'['.repeat(5)}"}`, { ...limits, maxDepth: 2 }),
    ).not.toThrow();
  });

  it('leaves syntax to JSON.parse: broken text is not refused here', () => {
    for (const broken of ['{"a":', '{"a":"x', '[1,,2]', '{"a" 1}', '"\\'])
      expect(() => scanJsonLimits(broken, DEFAULT_LIMITS), broken).not.toThrow();
  });
});
