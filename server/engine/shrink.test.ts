import { describe, expect, it } from 'vitest';
import { shrinkEvent } from './shrink';

describe('shrinkEvent', () => {
  const at = new Date(Date.UTC(2026, 0, 1));
  const event = {
    seq: 7,
    kind: 'container',
    status: {
      name: 'app',
      state: { terminated: { message: 'x'.repeat(10_000), finishedAt: at, exitCode: 128 } },
    },
    list: Array.from({ length: 1_000 }, (_, i) => i),
  };

  it('cuts long strings with a marker and shortens long lists, keeping numbers and Dates', () => {
    const out = shrinkEvent(event, { maxChars: 100, maxItems: 10 });
    expect(out.seq).toBe(7);
    expect(out.status.state.terminated.message).toBe(
      `${'x'.repeat(100)}… [9900 more characters cut by Podscope]`,
    );
    expect(out.status.state.terminated.finishedAt).toBe(at);
    expect(out.status.state.terminated.exitCode).toBe(128);
    expect(out.list).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The original is untouched.
    expect(event.status.state.terminated.message).toHaveLength(10_000);
  });

  it('leaves an event within the limits equal to what it was', () => {
    const small = { seq: 1, kind: 'pod', why: { id: 'x', params: { a: 'b' } }, t: 5 };
    expect(shrinkEvent(small, { maxChars: 100, maxItems: 10 })).toEqual(small);
  });
});
