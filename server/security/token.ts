/**
 * The access token, as a request presents it. Loopback needs none; any other bind address
 * requires one (server/config.ts, the one place it is read from — environment, token file or
 * PODSCOPE_CONFIG). Compared in constant time: both sides are hashed to fixed-length digests
 * first, so neither the comparison nor an early length mismatch leaks how much of a guess was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function tokenMatches(presented: string | undefined | null, expected: string): boolean {
  if (!presented) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The token a request presents: `Authorization: Bearer …`, else `?token=` (a first visit). */
export function presentedToken(req: { headers: Headers; url: string }): {
  token?: string;
  fromQuery: boolean;
} {
  const auth = req.headers.get('authorization');
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), fromQuery: false };
  const q = new URL(req.url).searchParams.get('token');
  if (q) return { token: q, fromQuery: true };
  return { fromQuery: false };
}
