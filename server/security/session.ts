/**
 * Browser sessions. A visit with the token (`?token=`) is traded for a cookie that holds a
 * session id derived from the token, never the token itself:
 *
 *   v1.<issued-at, seconds, base 36>.<16 random bytes>.<HMAC-SHA256(key, "v1.<iat>.<nonce>")>
 *   key = HMAC-SHA256(token, "podscope session key v1")
 *
 * Nothing is stored on the server: a session verifies while the token is unchanged and until it
 * is SESSION_MAX_AGE_S old; changing the token ends every session. A stolen cookie does not
 * reveal the token (it cannot be used as a bearer token, nor turned back into one).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'podscope_session';
/** Seven days. */
export const SESSION_MAX_AGE_S = 7 * 24 * 3600;

const sessionKey = (token: string) =>
  createHmac('sha256', token).update('podscope session key v1').digest();

const mac = (token: string, payload: string) =>
  createHmac('sha256', sessionKey(token)).update(payload).digest();

/** A new session id for someone who presented `token`. */
export function issueSession(token: string, nowMs: number): string {
  const payload = `v1.${Math.floor(nowMs / 1000).toString(36)}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${mac(token, payload).toString('base64url')}`;
}

/** True when `value` is a session issued under `token` that has not expired. */
export function verifySession(value: string | undefined, token: string, nowMs: number): boolean {
  if (!value || value.length > 200) return false;
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return false;
  const [, iat36 = '', nonce = '', sig = ''] = parts;
  if (!/^[0-9a-z]{1,11}$/.test(iat36) || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return false;
  const issuedS = parseInt(iat36, 36);
  const ageS = nowMs / 1000 - issuedS;
  if (!(ageS >= -60 && ageS <= SESSION_MAX_AGE_S)) return false;
  const expected = mac(token, `v1.${iat36}.${nonce}`);
  const given = Buffer.from(sig, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
