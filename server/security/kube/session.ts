/**
 * Sessions of people signed in with the cluster's identities (PODSCOPE_AUTH=kubernetes). The
 * cookie holds who the API server said they are — never the token they signed in with:
 *
 *   k1.<issued-at, seconds, base 36>.<base64url JSON {u, i?, g}>.<HMAC-SHA256(key, "k1.<iat>.<user>")>
 *   key = HMAC-SHA256(secret, "podscope user session v1")
 *
 * `secret` is PODSCOPE_SESSION_SECRET: replicas that share it accept each other's sessions (no
 * server-side session store). What a session may see is asked again of the API server
 * (SubjectAccessReview, cached briefly) on every request, so removing a user's RoleBinding takes
 * effect within the review cache's time; the identity itself is trusted until the session is
 * USER_SESSION_MAX_AGE_S old (a revoked token ends its sessions then, or when the secret changes).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KubeUser } from './reviewer';

/** Twelve hours: a working day, after which the token is reviewed again at sign-in. */
export const USER_SESSION_MAX_AGE_S = 12 * 3600;
/** Browsers keep cookies up to 4,096 bytes; a session that would not fit is refused at sign-in. */
export const USER_SESSION_MAX_CHARS = 3800;

interface Payload {
  u: string;
  i?: string;
  g: string[];
}

const key = (secret: string) =>
  createHmac('sha256', secret).update('podscope user session v1').digest();

const mac = (secret: string, payload: string) =>
  createHmac('sha256', key(secret)).update(payload).digest();

/** A process's own secret when none is configured (its sessions end with it). */
export function randomSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

export class SessionTooLarge extends Error {
  override name = 'SessionTooLarge';
}

/** A signed session for `user`; throws SessionTooLarge when it would not fit in a cookie. */
export function issueUserSession(user: KubeUser, secret: string, nowMs: number): string {
  const body: Payload = { u: user.username, g: user.groups, ...(user.uid ? { i: user.uid } : {}) };
  const payload = `k1.${Math.floor(nowMs / 1000).toString(36)}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
  const value = `${payload}.${mac(secret, payload).toString('base64url')}`;
  if (value.length > USER_SESSION_MAX_CHARS)
    throw new SessionTooLarge(
      `the session for ${user.username} (${user.groups.length} groups) does not fit in a cookie; send the token as "Authorization: Bearer" on each request instead`,
    );
  return value;
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The user a valid, unexpired session names; undefined for anything else. */
export function verifyUserSession(
  value: string | undefined,
  secret: string,
  nowMs: number,
): KubeUser | undefined {
  if (!value || value.length > USER_SESSION_MAX_CHARS) return undefined;
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== 'k1') return undefined;
  const [, iat36 = '', body = '', sig = ''] = parts;
  if (!/^[0-9a-z]{1,11}$/.test(iat36) || !/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  const ageS = nowMs / 1000 - parseInt(iat36, 36);
  if (!(ageS >= -60 && ageS <= USER_SESSION_MAX_AGE_S)) return undefined;
  const expected = mac(secret, `k1.${iat36}.${body}`);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const p = parsed as Partial<Payload>;
  if (!isString(p.u) || !Array.isArray(p.g) || !p.g.every(isString)) return undefined;
  if (p.i !== undefined && !isString(p.i)) return undefined;
  return { username: p.u, groups: p.g, ...(p.i ? { uid: p.i } : {}), via: 'token' };
}
