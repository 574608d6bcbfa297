/**
 * Who a request is, handed from the request proxy (proxy.ts, which decides it: auth.ts) to the
 * routes behind it in IDENTITY_HEADER. The proxy removes any value a client sent under that name
 * before it sets its own (server/security/peer.ts INTERNAL_HEADERS), so a route reading it reads
 * the proxy's decision; a route that finds none treats the request as nobody.
 */
import type { KubeUser } from './kube/reviewer';
import { IDENTITY_HEADER } from './peer';

export type Identity =
  /** No token is configured: the loopback bind is the boundary. */
  | { kind: 'anonymous' }
  /** Holds the configured token, presented now (bearer, query) or earlier (session). */
  | { kind: 'token'; via: 'bearer' | 'query' | 'session' }
  /** A cluster identity (PODSCOPE_AUTH=kubernetes): what they see is up to their RBAC. */
  | { kind: 'user'; user: KubeUser; via: 'bearer' | 'session' | 'proxy' };

export function encodeIdentity(identity: Identity): string {
  return Buffer.from(JSON.stringify(identity), 'utf8').toString('base64url');
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The identity the proxy stamped on a request; undefined when there is none or it is malformed. */
export function identityOf(headers: { get(name: string): string | null }): Identity | undefined {
  const raw = headers.get(IDENTITY_HEADER);
  if (!raw) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const id = v as Partial<Identity> & { user?: Partial<KubeUser> };
  if (id.kind === 'anonymous') return { kind: 'anonymous' };
  if (id.kind === 'token' && (id.via === 'bearer' || id.via === 'query' || id.via === 'session'))
    return { kind: 'token', via: id.via };
  const u = id.user;
  if (
    id.kind === 'user' &&
    (id.via === 'bearer' || id.via === 'session' || id.via === 'proxy') &&
    u &&
    isString(u.username) &&
    Array.isArray(u.groups) &&
    u.groups.every(isString) &&
    (u.uid === undefined || isString(u.uid)) &&
    (u.via === 'token' || u.via === 'proxy')
  )
    return {
      kind: 'user',
      via: id.via,
      user: {
        username: u.username,
        groups: u.groups,
        via: u.via,
        ...(u.uid ? { uid: u.uid } : {}),
      },
    };
  return undefined;
}
