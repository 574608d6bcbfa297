/**
 * OIDC behind an OAuth2 proxy (oauth2-proxy and the like): the proxy signs the user in and
 * forwards who they are in headers. Those headers are believed only when the request's TCP peer
 * is a configured trusted proxy (PODSCOPE_AUTH_TRUSTED_PROXIES, addresses or CIDRs); from anyone
 * else they are ignored, so a client that reaches the console directly cannot claim to be
 * someone. What the user may see is still decided by the API server (SubjectAccessReview).
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { KubeUser } from './reviewer';

/** oauth2-proxy's names (--pass-user-headers / --set-xauthrequest). */
export const USER_HEADERS = [
  'x-forwarded-preferred-username',
  'x-forwarded-user',
  'x-forwarded-email',
];
export const GROUPS_HEADER = 'x-forwarded-groups';

/** Parses "10.0.0.0/8, 192.168.1.5, fd00::/8" into a BlockList; throws naming a bad entry. */
export function trustedProxies(spec: string | readonly string[]): BlockList {
  const list = new BlockList();
  const entries = (typeof spec === 'string' ? spec.split(',') : spec)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [addr = '', bits] = entry.split('/');
    const type = isIPv4(addr) ? 'ipv4' : isIPv6(addr) ? 'ipv6' : undefined;
    const max = type === 'ipv4' ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!type || !Number.isInteger(prefix) || prefix < 0 || prefix > max || bits === '') {
      throw new Error(`trusted proxy "${entry}" is not an IP address or CIDR`);
    }
    list.addSubnet(addr, prefix, type);
  }
  return list;
}

/** An IPv4 peer seen on a dual-stack socket arrives as ::ffff:a.b.c.d. */
function normalise(peer: string): { addr: string; type: 'ipv4' | 'ipv6' } | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer);
  if (mapped?.[1]) return { addr: mapped[1], type: 'ipv4' };
  if (isIPv4(peer)) return { addr: peer, type: 'ipv4' };
  if (isIPv6(peer)) return { addr: peer, type: 'ipv6' };
  return undefined;
}

export function isTrustedPeer(peer: string | undefined, trusted: BlockList): boolean {
  const p = peer ? normalise(peer) : undefined;
  return p !== undefined && trusted.check(p.addr, p.type);
}

/** One name: 1–256 characters, no space, comma or control character. */
function isName(s: string): boolean {
  if (s.length === 0 || s.length > 256) return false;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c <= 0x20 || c === 0x7f || ch === ',') return false;
  }
  return true;
}

/**
 * The forwarded user, when the peer is trusted and the headers name one; undefined otherwise.
 * Header values are checked (one name, no control characters, bounded length).
 */
export function identityFromProxy(
  headers: { get(name: string): string | null },
  peer: string | undefined,
  trusted: BlockList,
): KubeUser | undefined {
  if (!isTrustedPeer(peer, trusted)) return undefined;
  const username = USER_HEADERS.map((h) => headers.get(h)?.trim()).find((v) => v);
  if (!username || !isName(username)) return undefined;
  const groups = (headers.get(GROUPS_HEADER) ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(isName);
  return { username, groups, via: 'proxy' };
}
