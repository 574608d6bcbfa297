import type { IncomingMessage } from 'node:http';
import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { authenticate, clientAddress, type AuthRequest } from './auth';
import { PEER_HEADER, stamp } from './peer';
import { FailureLimiter } from './rate-limit';
import { issueSession, SESSION_MAX_AGE_S, verifySession } from './session';

const TOKEN = 'a-long-enough-s3cret-token';
const T0 = Date.UTC(2026, 0, 1);

/** The peer header this server's own HTTP stamping sets for a socket from `ip`. */
function stamped(ip: string): string {
  const msg = { headers: {}, rawHeaders: [], socket: { remoteAddress: ip } };
  stamp(msg as unknown as IncomingMessage);
  return String((msg.headers as Record<string, string>)[PEER_HEADER]);
}

const req = (over: Partial<AuthRequest> & { auth?: string; ip?: string } = {}): AuthRequest => ({
  url: over.url ?? 'http://127.0.0.1:3000/en',
  headers: new Headers({
    ...(over.auth ? { authorization: over.auth } : {}),
    [PEER_HEADER]: stamped(over.ip ?? '10.0.0.1'),
  }),
  ...(over.sessionCookie !== undefined ? { sessionCookie: over.sessionCookie } : {}),
});

describe('sessions', () => {
  it('a session id is derived from the token, differs per sign-in, and never contains it', () => {
    const a = issueSession(TOKEN, T0);
    const b = issueSession(TOKEN, T0);
    expect(a).not.toBe(b);
    expect(a).not.toContain(TOKEN);
    expect(verifySession(a, TOKEN, T0 + 1000)).toBe(true);
    expect(verifySession(a, `${TOKEN}x`, T0)).toBe(false); // a new token ends every session
    expect(verifySession(TOKEN, TOKEN, T0)).toBe(false); // the raw token is not a session
    expect(verifySession(`${a.slice(0, -2)}AA`, TOKEN, T0)).toBe(false);
    expect(verifySession(a, TOKEN, T0 + (SESSION_MAX_AGE_S + 1) * 1000)).toBe(false);
  });
});

describe('authenticate', () => {
  it('without a configured token everyone is anonymous', async () => {
    const r = await authenticate(req(), { limiter: new FailureLimiter() });
    expect(r).toEqual({ ok: true, identity: { kind: 'anonymous' } });
  });

  it('the token as bearer, once as ?token= (then a session), or a session', async () => {
    const limiter = new FailureLimiter();
    const o = { token: TOKEN, limiter, now: T0 };
    expect(await authenticate(req({ auth: `Bearer ${TOKEN}` }), o)).toMatchObject({
      ok: true,
      identity: { kind: 'token', via: 'bearer' },
    });
    const q = await authenticate(req({ url: `http://127.0.0.1:3000/en?token=${TOKEN}` }), o);
    expect(q).toMatchObject({ ok: true, identity: { via: 'query' } });
    const session = q.ok ? q.newSession : undefined;
    expect(session).toBeDefined();
    expect(await authenticate(req({ sessionCookie: session ?? '' }), o)).toMatchObject({
      ok: true,
      identity: { via: 'session' },
    });
    expect(await authenticate(req({ sessionCookie: TOKEN }), o)).toMatchObject({
      ok: false,
      refusal: { status: 401 },
    });
    expect(await authenticate(req(), o)).toMatchObject({ ok: false, refusal: { status: 401 } });
  });

  it('guessing is rate limited — even the right token is then refused — while sessions keep working', async () => {
    const limiter = new FailureLimiter();
    const session = issueSession(TOKEN, T0);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await authenticate(req({ auth: `Bearer guess-${i}` }), {
        token: TOKEN,
        limiter,
        now: T0,
      });
      statuses.push(r.ok ? 200 : r.refusal.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await authenticate(req({ auth: `Bearer ${TOKEN}` }), {
      token: TOKEN,
      limiter,
      now: T0,
    });
    expect(right).toMatchObject({ ok: false, refusal: { status: 429 } });
    expect(right.ok ? 0 : (right.refusal.retryAfterS ?? 0)).toBeGreaterThan(0);
    expect(
      (await authenticate(req({ sessionCookie: session }), { token: TOKEN, limiter, now: T0 })).ok,
    ).toBe(true);
    // Another client is not blocked by the first one's failures…
    expect(
      (
        await authenticate(req({ auth: `Bearer ${TOKEN}`, ip: '10.0.0.2' }), {
          token: TOKEN,
          limiter,
          now: T0,
        })
      ).ok,
    ).toBe(true);
    // …and the first may try again once its bucket refills.
    expect(
      (
        await authenticate(req({ auth: `Bearer ${TOKEN}` }), {
          token: TOKEN,
          limiter,
          now: T0 + 60_000,
        })
      ).ok,
    ).toBe(true);
  });

  it('made-up client addresses still meet the server-wide bound', async () => {
    const limiter = new FailureLimiter();
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      const r = await authenticate(req({ auth: 'Bearer nope', ip: `10.1.${i}.1` }), {
        token: TOKEN,
        limiter,
        now: T0,
      });
      if (!r.ok && r.refusal.status === 429) refused++;
    }
    expect(refused).toBe(70);
  });

  it('a client is its TCP peer: a made-up X-Forwarded-For does not give it a fresh bucket', async () => {
    const limiter = new FailureLimiter();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = req({ auth: 'Bearer nope', ip: '10.0.0.9' });
      r.headers.set('x-forwarded-for', `198.51.100.${i}`);
      const res = await authenticate(r, { token: TOKEN, limiter, now: T0 });
      statuses.push(res.ok ? 200 : res.refusal.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('clientAddress', () => {
  const proxies = new BlockList();
  proxies.addSubnet('10.9.0.0', 16);
  const headers = (peer: string | undefined, xff?: string) =>
    new Headers({
      ...(peer ? { [PEER_HEADER]: stamped(peer) } : {}),
      ...(xff ? { 'x-forwarded-for': xff } : {}),
    });

  it('is the stamped peer, whatever the client says it is', () => {
    expect(clientAddress(headers('10.0.0.1', '192.0.2.7'))).toBe('10.0.0.1');
    expect(clientAddress(headers('10.0.0.1', '192.0.2.7'), proxies)).toBe('10.0.0.1');
  });

  it("behind a trusted proxy: the address that proxy saw (X-Forwarded-For's last entry)", () => {
    expect(clientAddress(headers('10.9.1.1', '192.0.2.7, 203.0.113.5'), proxies)).toBe(
      '203.0.113.5',
    );
    expect(clientAddress(headers('10.9.1.1'), proxies)).toBe('10.9.1.1');
  });

  it('a peer header this server did not stamp is not believed: one shared bucket', () => {
    expect(clientAddress(new Headers({ [PEER_HEADER]: 'forged 10.0.0.1' }))).toBe('unknown');
    expect(clientAddress(headers(undefined, '192.0.2.7'))).toBe('unknown');
  });
});
