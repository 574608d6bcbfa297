/**
 * Who is this request? The one place that answers it: an identity, or a refusal with the status
 * and words to send. The request proxy (proxy.ts) asks it for every request; another way of
 * signing in (a cluster's TokenReview, say) is one more branch here, giving one more kind of
 * identity.
 *
 * Without a configured token (loopback binds only, server/config.ts) everyone who can reach the
 * server is `anonymous`. With one, a request presents either the token (`Authorization: Bearer`,
 * or `?token=` once, which is then traded for a session cookie) or a session cookie issued
 * earlier (server/security/session.ts). Failed attempts are rate limited (rate-limit.ts).
 */
import type { FailureLimiter } from './rate-limit';
import { SESSION_COOKIE, issueSession, verifySession } from './session';
import { presentedToken, tokenMatches } from './token';

export type Identity =
  /** No token is configured: the loopback bind is the boundary. */
  | { kind: 'anonymous' }
  /** Holds the configured token, presented now (bearer, query) or earlier (session). */
  | { kind: 'token'; via: 'bearer' | 'query' | 'session' };

export interface Refusal {
  status: 401 | 429;
  message: string;
  /** For 429: seconds before trying again. */
  retryAfterS?: number;
}

export type AuthResult =
  | {
      ok: true;
      identity: Identity;
      /** A session id to set as the cookie (after `?token=`), with the URL to return to. */
      newSession?: string;
    }
  | { ok: false; refusal: Refusal };

export interface AuthRequest {
  url: string;
  headers: Headers;
  /** The session cookie's value, if any. */
  sessionCookie?: string;
}

export interface AuthOptions {
  /** The configured token; undefined: no sign-in (loopback only). */
  token?: string;
  limiter: FailureLimiter;
  now?: number;
}

const UNAUTHORIZED =
  'Podscope: this server requires an access token. Open the console with ?token=<token> once, or send "Authorization: Bearer <token>".\n';

/** The client address for rate limiting (the first X-Forwarded-For entry Next.js fills in). */
export function clientAddress(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

export function authenticate(req: AuthRequest, options: AuthOptions): AuthResult {
  const { token, limiter } = options;
  if (!token) return { ok: true, identity: { kind: 'anonymous' } };
  const now = options.now ?? Date.now();
  const client = clientAddress(req.headers);
  const presented = presentedToken(req);

  // A valid session is not a guess (it needs the key): it passes even while guessing is blocked.
  if (presented.token === undefined && verifySession(req.sessionCookie, token, now))
    return { ok: true, identity: { kind: 'token', via: 'session' } };
  if (presented.token === undefined && req.sessionCookie === undefined)
    return { ok: false, refusal: { status: 401, message: UNAUTHORIZED } };

  const wait = limiter.blockedFor(client, now);
  if (wait > 0) {
    return {
      ok: false,
      refusal: {
        status: 429,
        message: `Podscope: too many failed sign-in attempts; try again in ${wait} s.\n`,
        retryAfterS: wait,
      },
    };
  }
  if (presented.token !== undefined && tokenMatches(presented.token, token)) {
    if (presented.fromQuery)
      return {
        ok: true,
        identity: { kind: 'token', via: 'query' },
        newSession: issueSession(token, now),
      };
    return { ok: true, identity: { kind: 'token', via: 'bearer' } };
  }
  limiter.fail(client, now);
  return { ok: false, refusal: { status: 401, message: UNAUTHORIZED } };
}

export { SESSION_COOKIE };
