/**
 * A bound on failed sign-ins: token buckets of failures, one per client address (the TCP peer
 * the server stamped: auth.ts clientAddress) and one for the whole server, which bounds an
 * attacker who has many addresses. Only failures take from a bucket;
 * while one is empty, token presentations are refused with 429 without being checked, so a
 * guess made then tells nothing. Sessions already issued keep working (server/security/auth.ts).
 */
export interface BucketRule {
  /** Failures allowed at once. */
  burst: number;
  /** Failures regained per second. */
  perSecond: number;
}

export const FAILURE_RULES = {
  client: { burst: 10, perSecond: 10 / 60 },
  server: { burst: 30, perSecond: 1 },
} as const satisfies Record<string, BucketRule>;

/** At most this many client buckets are kept; the stalest go first. */
const MAX_CLIENTS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export class FailureLimiter {
  private readonly clients = new Map<string, Bucket>();
  private readonly server: Bucket;

  constructor(
    private readonly rules: { client: BucketRule; server: BucketRule } = FAILURE_RULES,
    now = Date.now(),
  ) {
    this.server = { tokens: rules.server.burst, at: now };
  }

  /** Seconds until `client` may try again; 0 when it may now. */
  blockedFor(client: string, now = Date.now()): number {
    const c = this.clients.get(client);
    const wait = (b: Bucket | undefined, rule: BucketRule) => {
      if (!b) return 0;
      refill(b, rule, now);
      return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / rule.perSecond);
    };
    return Math.max(wait(c, this.rules.client), wait(this.server, this.rules.server));
  }

  /** Records one failed attempt by `client`. */
  fail(client: string, now = Date.now()): void {
    let c = this.clients.get(client);
    if (c) this.clients.delete(client);
    else {
      c = { tokens: this.rules.client.burst, at: now };
      if (this.clients.size >= MAX_CLIENTS) {
        const oldest = this.clients.keys().next().value;
        if (oldest !== undefined) this.clients.delete(oldest);
      }
    }
    refill(c, this.rules.client, now);
    c.tokens = Math.max(0, c.tokens - 1);
    this.clients.set(client, c); // re-inserted: the map's order is least recently failed first
    refill(this.server, this.rules.server, now);
    this.server.tokens = Math.max(0, this.server.tokens - 1);
  }
}

function refill(b: Bucket, rule: BucketRule, now: number): void {
  const elapsed = Math.max(0, now - b.at) / 1000;
  b.tokens = Math.min(rule.burst, b.tokens + elapsed * rule.perSecond);
  b.at = now;
}

const SHARED = Symbol.for('podscope.signInLimiter');

/** The process's one limiter: the request proxy and the sign-in route count the same failures. */
export function sharedLimiter(): FailureLimiter {
  const g = globalThis as { [SHARED]?: FailureLimiter };
  return (g[SHARED] ??= new FailureLimiter());
}
