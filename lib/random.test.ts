import { describe, expect, it } from 'vitest';
import { createRandom, noise } from './random';

describe('seeded randomness', () => {
  it('repeats for a seed and differs across seeds and forks', () => {
    const seq = (seed: string) => {
      const r = createRandom(seed);
      return Array.from({ length: 5 }, () => r.hex(8));
    };
    expect(seq('a')).toEqual(seq('a'));
    expect(seq('a')).not.toEqual(seq('b'));
    const r = createRandom('a');
    expect(r.fork('x').hex(8)).toBe(createRandom('a').fork('x').hex(8));
    expect(r.fork('x').hex(8)).not.toBe(r.fork('y').hex(8));
  });
  it('stays in range', () => {
    const r = createRandom(1);
    for (let i = 0; i < 1000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = r.int(3, 5);
      expect([3, 4, 5]).toContain(n);
    }
    expect(r.hex(32)).toMatch(/^[0-9a-f]{64}$/);
  });
  it('noise is a pure function of key and bucket', () => {
    expect(noise('c1', 7)).toBe(noise('c1', 7));
    expect(noise('c1', 7)).not.toBe(noise('c1', 8));
  });
});
