/**
 * Podscope's HTTP server: Next's request handler behind node:http's own server (Next's
 * documented custom server, `next({ dev, hostname, port })` and `app.getRequestHandler()`).
 *
 * Owning the server is what lets Podscope see each request before Next does: Next hands route
 * handlers and the request proxy (proxy.ts) a Request without its socket, so the TCP peer — what
 * a trusted OAuth2 proxy is recognised by, and what failed sign-ins are counted against — is set
 * here from `req.socket.remoteAddress` as the peer header, and any copy a client sent is dropped
 * (server/security/peer.ts `stamp`). Nothing global is patched: servers made elsewhere in the
 * process (the agent's, a test's) are left as they are.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import next from 'next';
import { stamp } from '@/server/security/peer';

export interface HttpServerOptions {
  /** The app's folder (its .next build); default the working directory. */
  dir?: string;
  hostname: string;
  /** 0 picks a free port (see `port` of the result). */
  port: number;
  /** Next's development server (compiles on request, hot reload) instead of the build. */
  dev?: boolean;
}

export interface HttpServer {
  readonly server: Server;
  /** The port listened on (the one picked when 0 was asked). */
  readonly port: number;
  /** http://host:port, an IPv6 host in brackets. */
  readonly url: string;
  /** Stops accepting connections, lets open requests finish, then closes Next. */
  close(): Promise<void>;
}

/** The host as a URL writes it: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Listens on `hostname:port`, then prepares Next (which runs instrumentation.ts: the runtime
 * comes up) before the first request is handed to it; requests that arrive meanwhile wait.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const server = createServer();
  /** Next's handler once prepared; until then, the promise of it. */
  const prepared: { handler?: Handler; preparing?: Promise<Handler> } = {};
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    stamp(req);
    const serve = (handle: Handler) =>
      handle(req, res).catch((err: unknown) => {
        console.error(err);
        res.destroy();
      });
    if (prepared.handler) void serve(prepared.handler);
    else void prepared.preparing?.then(serve, () => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const app = next({
    dev: options.dev ?? false,
    dir: options.dir ?? process.cwd(),
    hostname: options.hostname,
    port,
    // Next's development server listens for hot-reload upgrades on it.
    httpServer: server,
  });
  prepared.preparing = app.prepare().then(() => app.getRequestHandler());
  try {
    prepared.handler = await prepared.preparing;
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    url: `http://${urlHost(options.hostname)}:${port}`,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await app.close();
      })()),
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
