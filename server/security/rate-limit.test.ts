import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './rate-limit';

describe('FailureLimiter', () => {
  it('blocks a client after its burst and frees it as the bucket refills', () => {
    const l = new FailureLimiter(
      { client: { burst: 3, perSecond: 1 }, server: { burst: 100, perSecond: 10 } },
      0,
    );
    for (let i = 0; i < 3; i++) l.fail('a', 0);
    expect(l.blockedFor('a', 0)).toBe(1);
    expect(l.blockedFor('b', 0)).toBe(0);
    expect(l.blockedFor('a', 1000)).toBe(0);
  });

  it('bounds the number of clients it remembers', () => {
    const l = new FailureLimiter(undefined, 0);
    for (let i = 0; i < 20_000; i++) l.fail(`c${i}`, i * 10_000); // slow enough for the server bucket
    expect((l as unknown as { clients: Map<string, unknown> }).clients.size).toBeLessThanOrEqual(
      10_000,
    );
  });
});
