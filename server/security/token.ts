/**
 * The access token. Loopback needs none; any other bind address requires one (server/config.ts).
 * Compared in constant time: both sides are hashed to fixed-length digests first, so neither the
 * comparison nor an early length mismatch leaks how much of a guess was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const TOKEN_COOKIE = 'podscope_token';

export function configuredToken(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  if (env.PODSCOPE_TOKEN) return env.PODSCOPE_TOKEN;
  if (env.PODSCOPE_TOKEN_FILE) {
    try {
      return readFileSync(env.PODSCOPE_TOKEN_FILE, 'utf8').trim() || undefined;
    } catch {
      // An unreadable token file must not open the door: a token nobody can present.
      return `unreadable:${Math.random()}`;
    }
  }
  return undefined;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function tokenMatches(presented: string | undefined | null, expected: string): boolean {
  if (!presented) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The token a request presents: `Authorization: Bearer …`, the cookie, or `?token=` (first visit). */
export function presentedToken(
  req: { headers: Headers; url: string },
  cookie: string | undefined,
): { token?: string; fromQuery: boolean } {
  const auth = req.headers.get('authorization');
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), fromQuery: false };
  const q = new URL(req.url).searchParams.get('token');
  if (q) return { token: q, fromQuery: true };
  return cookie ? { token: cookie, fromQuery: false } : { fromQuery: false };
}
