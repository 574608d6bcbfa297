/**
 * Who is this request? The one place that answers it: an identity, or a refusal with the status
 * and words to send. The request proxy (proxy.ts) asks it for every request and hands the answer
 * to the routes (server/security/identity.ts).
 *
 * Two ways of signing in (PODSCOPE_AUTH):
 * - `token` (default). Without a configured token (loopback binds only, server/config.ts)
 *   everyone who can reach the server is `anonymous`. With one, a request presents either the
 *   token (`Authorization: Bearer`, or `?token=` once, which is then traded for a session
 *   cookie) or a session cookie issued earlier (server/security/session.ts).
 * - `kubernetes`. A user is who the cluster says: a bearer token the API server accepts
 *   (TokenReview), the user a trusted OAuth2 proxy forwards (only from its address:
 *   kube/proxy-identity.ts; the peer is stamped by our own server, peer.ts), or a session cookie
 *   issued at sign-in (kube/session.ts — it names the user, never holds the token). What they may
 *   see and do is asked per request by SubjectAccessReview (server/security/viewer.ts).
 * Failed attempts are rate limited (rate-limit.ts).
 */
import type { Identity } from './identity';
import type { BlockList } from 'node:net';
import { identityFromProxy, isTrustedPeer } from './kube/proxy-identity';
import { isKubeReviewUnavailable } from './kube/reviewer';
import type { KubeAuth } from './kube/service';
import { verifyUserSession } from './kube/session';
import { peerOf } from './peer';
import type { FailureLimiter } from './rate-limit';
import { SESSION_COOKIE, issueSession, verifySession } from './session';
import { presentedToken, tokenMatches } from './token';

export type { Identity };

export interface Refusal {
  status: 401 | 429 | 503;
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
  /** Sign-in with the cluster's identities (PODSCOPE_AUTH=kubernetes); `token` is then unused. */
  kube?: KubeAuth;
  limiter: FailureLimiter;
  now?: number;
}

const UNAUTHORIZED =
  'Podscope: this server requires an access token. Open the console with ?token=<token> once, or send "Authorization: Bearer <token>".\n';

const SIGN_IN =
  'Podscope: sign in with a Kubernetes token: open the console in a browser, or send "Authorization: Bearer <token>".\n';

/**
 * Who a failed sign-in is counted against: the TCP peer this server stamped on the request
 * (peer.ts). X-Forwarded-For is written by the client, so keying on it gave every guess a fresh
 * bucket; it is believed only from a proxy the configuration trusts (kubernetes mode's
 * PODSCOPE_AUTH_TRUSTED_PROXIES), and then only its last entry — the address that proxy saw.
 * A request this server did not stamp (no peer) shares one bucket.
 */
export function clientAddress(
  headers: { get(name: string): string | null },
  trusted?: BlockList,
): string {
  const peer = peerOf(headers);
  if (peer === undefined) return 'unknown';
  if (trusted && isTrustedPeer(peer, trusted)) {
    const seen = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (seen) return seen;
  }
  return peer;
}

const tooMany = (wait: number): AuthResult => ({
  ok: false,
  refusal: {
    status: 429,
    message: `Podscope: too many failed sign-in attempts; try again in ${wait} s.\n`,
    retryAfterS: wait,
  },
});

export async function authenticate(req: AuthRequest, options: AuthOptions): Promise<AuthResult> {
  if (options.kube) return authenticateUser(req, options.kube, options);
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
  if (wait > 0) return tooMany(wait);
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

/** PODSCOPE_AUTH=kubernetes: a trusted proxy's user, a reviewed bearer token, or a session. */
async function authenticateUser(
  req: AuthRequest,
  kube: KubeAuth,
  { limiter, now: at }: AuthOptions,
): Promise<AuthResult> {
  const now = at ?? Date.now();
  const proxied = identityFromProxy(req.headers, peerOf(req.headers), kube.trusted);
  if (proxied) return { ok: true, identity: { kind: 'user', user: proxied, via: 'proxy' } };
  const auth = req.headers.get('authorization');
  const bearer = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
  if (bearer === undefined) {
    const user = verifyUserSession(req.sessionCookie, kube.secret, now);
    if (user) return { ok: true, identity: { kind: 'user', user, via: 'session' } };
    // No credentials at all is not a guess; a cookie that does not verify is.
    if (req.sessionCookie === undefined)
      return { ok: false, refusal: { status: 401, message: SIGN_IN } };
  }
  const client = clientAddress(req.headers, kube.trusted);
  const wait = limiter.blockedFor(client, now);
  if (wait > 0) return tooMany(wait);
  if (bearer) {
    try {
      const user = await kube.reviewer.reviewToken(bearer);
      if (user) return { ok: true, identity: { kind: 'user', user, via: 'bearer' } };
    } catch (err) {
      if (!isKubeReviewUnavailable(err)) throw err;
      return { ok: false, refusal: { status: 503, message: signInUnavailable(err) } };
    }
  }
  limiter.fail(client, now);
  return { ok: false, refusal: { status: 401, message: SIGN_IN } };
}

/** The refusal's words while the API server cannot check a token (never a sign-in). */
export function signInUnavailable(err: Error): string {
  return `Podscope: cannot check who you are right now — ${err.message}. Try again shortly.\n`;
}

export { SESSION_COOKIE };
