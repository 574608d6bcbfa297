/**
 * The TCP peer of a request, as headers Podscope's own server sets and no client can forge.
 *
 * Next.js hands the request proxy (proxy.ts) a Request without its socket, so the peer address
 * — what a trusted OAuth2 proxy is recognised by, and what failed sign-ins are counted against —
 * would otherwise come from X-Forwarded-For, which anyone can write. Podscope's own HTTP server
 * (server/http/server.ts) stamps every request before Next sees it: PEER_HEADER set to its
 * socket's remote address, whatever the client sent under the internal names (INTERNAL_HEADERS)
 * removed. A server started another way (`next start`) stamps nothing, and a peer header a
 * client sent there lacks this process's proof, so it is not believed.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const PEER_HEADER = 'x-podscope-peer';
/** Who the request proxy decided a request is (server/security/identity.ts). */
export const IDENTITY_HEADER = 'x-podscope-identity';
/** Headers only Podscope's own server may set. */
export const INTERNAL_HEADERS = [PEER_HEADER, IDENTITY_HEADER] as const;

const PROOF = Symbol.for('podscope.peerProof');

/**
 * A random word of this process that the stamp carries (`<proof> <address>`): a peer header
 * without it was not set by this server (say, one started as `next start`), and is not believed.
 * Kept on globalThis: the HTTP server's copy of this module and the one in Next's build are two
 * module instances of one process.
 */
function proof(): string {
  const g = globalThis as { [PROOF]?: string };
  return (g[PROOF] ??= randomBytes(12).toString('base64url'));
}

/** Sets the peer header from the socket; a client's own value (one or many) is dropped. */
export function stamp(req: IncomingMessage): void {
  for (const name of INTERNAL_HEADERS) delete req.headers[name];
  const peer = req.socket?.remoteAddress && `${proof()} ${req.socket.remoteAddress}`;
  if (peer) req.headers[PEER_HEADER] = peer;
  // Next builds its Request from rawHeaders in some paths: keep the two views the same.
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i]?.toLowerCase();
    if (name && (INTERNAL_HEADERS as readonly string[]).includes(name)) raw.splice(i, 2);
  }
  if (peer) raw.push(PEER_HEADER, peer);
}

/** The stamped peer address of a request, if this server stamped one. */
export function peerOf(headers: { get(name: string): string | null }): string | undefined {
  const value = headers.get(PEER_HEADER);
  if (!value) return undefined;
  const space = value.indexOf(' ');
  return space > 0 && value.slice(0, space) === proof() ? value.slice(space + 1) : undefined;
}
