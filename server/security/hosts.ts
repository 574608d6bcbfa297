/**
 * Which names this server answers for, and which pages may change things on it.
 *
 * DNS rebinding: a page on attacker.example, whose name is made to resolve to 127.0.0.1, is
 * same-origin with itself and so may read whatever the server at 127.0.0.1 answers — unless the
 * server refuses requests whose Host header is not one of its own names. Accepted:
 * - loopback names and addresses (localhost, *.localhost, 127.0.0.0/8, ::1): browsers never let
 *   a page's own name resolve to them by rebinding… except through a DNS answer, which is why
 *   other names are not accepted just because they resolve to loopback;
 * - the configured bind address, unless it is a wildcard (0.0.0.0, ::);
 * - names in PODSCOPE_ALLOWED_HOSTS (a reverse proxy's public name);
 * - when bound beyond loopback: this machine's own interface addresses and its host name
 *   (an address literal cannot be rebound).
 *
 * Cross-site writes: a request that may change state (any method but GET, HEAD, OPTIONS) with an
 * Origin must come from a page of one of those names, on the same host and port it addresses.
 */
import { hostname as osHostname, networkInterfaces } from 'node:os';
import { isLoopback } from '@/server/config';

export interface HostPolicy {
  /** The configured bind address. */
  bindHost: string;
  /** Extra names (PODSCOPE_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The name part of a Host header (or URL host): no port, no brackets, lower case, no final dot. */
export function hostnameOf(host: string): string | undefined {
  const h = host.trim().toLowerCase();
  if (!h) return undefined;
  let name: string;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return undefined;
    name = h.slice(1, end);
    const rest = h.slice(end + 1);
    if (rest && !/^:\d{1,5}$/.test(rest)) return undefined;
  } else {
    const colon = h.indexOf(':');
    if (colon >= 0 && h.indexOf(':', colon + 1) >= 0)
      name = h; // a bare IPv6 address
    else {
      name = colon >= 0 ? h.slice(0, colon) : h;
      const port = colon >= 0 ? h.slice(colon + 1) : '';
      if (colon >= 0 && !/^\d{1,5}$/.test(port)) return undefined;
    }
  }
  name = name.replace(/\.$/, '');
  return /^[a-z0-9.:_-]+$/.test(name) ? name : undefined;
}

let localCache: { at: number; names: Set<string> } | undefined;

/** This machine's interface addresses and host name (cached for 10 s: interfaces come and go). */
export function localNames(now = Date.now()): Set<string> {
  if (localCache && now - localCache.at < 10_000) return localCache.names;
  const names = new Set<string>([osHostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces())) {
    for (const addr of list ?? []) names.add(addr.address.toLowerCase().replace(/%.*$/, ''));
  }
  localCache = { at: now, names };
  return names;
}

/** True when the server answers for this Host header value. */
export function hostAllowed(
  host: string | null | undefined,
  policy: HostPolicy,
  local: () => Set<string> = localNames,
): boolean {
  if (!host) return false;
  const name = hostnameOf(host);
  if (!name) return false;
  if (isLoopback(name)) return true;
  if (policy.allowedHosts.some((h) => hostnameOf(h) === name)) return true;
  const bind = hostnameOf(policy.bindHost) ?? '';
  if (isLoopback(bind)) return false;
  if (!WILDCARDS.has(bind) && name === bind) return true;
  return local().has(name);
}

/** Methods that never change anything here (tRPC queries and the event stream are GETs). */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when a request that may change state is allowed from this Origin: none (not a browser),
 * or a page of a name this server answers for, at the very host and port the request addresses
 * (or a PODSCOPE_ALLOWED_HOSTS name, whose proxy may rewrite the Host header).
 */
export function originAllowed(
  origin: string | null | undefined,
  host: string | null | undefined,
  policy: HostPolicy,
  local: () => Set<string> = localNames,
): boolean {
  if (origin === null || origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and anything unparsable
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!hostAllowed(url.host, policy, local)) return false;
  const name = hostnameOf(url.host);
  if (policy.allowedHosts.some((h) => hostnameOf(h) === name)) return true;
  return (
    host !== null && host !== undefined && withoutDefaultPort(url.host) === withoutDefaultPort(host)
  );
}

const withoutDefaultPort = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/:(80|443)$/, '');
