/** Saved timeline ids: 128 random bits in base64url that can be pasted after a command. */
import { describe, expect, it } from 'vitest';
import { newTimelineId } from './saved';

describe('newTimelineId', () => {
  it('is 22 base64url characters and never begins with "-" (it would read as an option)', () => {
    // One random id in 64 began with "-" before; 5,000 draws miss that with p ≈ 1e-34.
    const ids = Array.from({ length: 5000 }, newTimelineId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
