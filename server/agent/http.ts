/**
 * The agent's only listener: GET /metrics (Prometheus text) and GET /healthz, on loopback by
 * default. Anything else is 404; any other method 405. No request body is read.
 */
import { createServer, type Server } from 'node:http';
import { EXPOSITION_CONTENT_TYPE } from '@/server/metrics/registry';

export interface AgentHttp {
  server: Server;
  /** The bound address, e.g. 127.0.0.1:9464. */
  address: string;
  close(): Promise<void>;
}

/** A failed listen, said with the option that moves the listener (another agent may hold the port). */
function listenError(err: NodeJS.ErrnoException, listen: { host: string; port: number }): Error {
  const where = `${listen.host}:${listen.port}`;
  const move =
    'choose another with --listen HOST:PORT or PODSCOPE_AGENT_LISTEN (port 0 picks a free one)';
  if (err.code === 'EADDRINUSE')
    return new Error(`${where} for /metrics and /healthz is already in use (EADDRINUSE): ${move}`);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'EACCES')
    return new Error(`cannot listen on ${where} for /metrics and /healthz (${err.code}): ${move}`);
  return err;
}

export async function startAgentHttp(
  listen: { host: string; port: number },
  handlers: {
    metrics(): Promise<string>;
    health(): { ok: boolean; detail: Record<string, unknown> };
  },
): Promise<AgentHttp> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' && path !== '/healthz') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
        .end('method not allowed\n');
      return;
    }
    if (path === '/metrics') {
      handlers.metrics().then(
        (text) => res.writeHead(200, { 'content-type': EXPOSITION_CONTENT_TYPE }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
      );
      return;
    }
    const h = handlers.health();
    res
      .writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json' })
      .end(`${JSON.stringify({ ok: h.ok, ...h.detail })}\n`);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, listen)));
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const address =
    addr && typeof addr === 'object'
      ? `${addr.address}:${addr.port}`
      : `${listen.host}:${listen.port}`;
  return {
    server,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
