/**
 * How the driver's prober reaches a pod for httpGet and tcpSocket probes (and httpGet hooks).
 * The kubelet dials from the node (pkg/probe/http/http.go, pkg/probe/tcp/tcp.go); so does
 * `socketNetwork`, with real sockets — right for a lab containerd whose pods share the node's
 * network (the driver's default, hostNetwork). The simulator has no sockets: server/sim/runtime/network.ts
 * models its containers' listeners behind the same interface.
 *
 * Failures are thrown as ProbeNetworkError with Go's wording (`dial tcp 127.0.0.1:8080: connect:
 * connection refused`, `… i/o timeout`), because the kubelet puts those texts in its events.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export interface HttpProbeRequest {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Path with query, starting with "/". */
  path: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface HttpProbeResponse {
  status: number;
  /** At most the first 10 KiB (the kubelet reads no more). */
  body: string;
}

export interface ProbeNetwork {
  httpGet(req: HttpProbeRequest): Promise<HttpProbeResponse>;
  /** Resolves once a TCP connection was established (and closed). */
  tcpConnect(host: string, port: number, timeoutMs: number): Promise<void>;
}

export class ProbeNetworkError extends Error {
  override name = 'ProbeNetworkError';
  constructor(
    message: string,
    readonly kind: 'refused' | 'timeout' | 'other',
  ) {
    super(message);
  }
}

export const MAX_PROBE_BODY_BYTES = 10 * 1024;

export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's net error text for a failed dial. */
export function dialError(host: string, port: number, err: unknown): ProbeNetworkError {
  const code =
    typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
  const where = `dial tcp ${hostPort(host, port)}`;
  if (code === 'ECONNREFUSED')
    return new ProbeNetworkError(`${where}: connect: connection refused`, 'refused');
  if (code === 'ETIMEDOUT') return new ProbeNetworkError(`${where}: i/o timeout`, 'timeout');
  if (code === 'EHOSTUNREACH')
    return new ProbeNetworkError(`${where}: connect: no route to host`, 'other');
  const text = err instanceof Error ? err.message : String(err);
  return new ProbeNetworkError(`${where}: ${text}`, 'other');
}

/** Real sockets from this process: what a kubelet on this machine would do. */
export const socketNetwork: ProbeNetwork = {
  httpGet(req) {
    return new Promise<HttpProbeResponse>((resolve, reject) => {
      const lib = req.scheme === 'https' ? https : http;
      const url = `${req.scheme}://${hostPort(req.host, req.port)}${req.path}`;
      const r = lib.request(
        {
          host: req.host,
          port: req.port,
          path: req.path,
          method: 'GET',
          headers: { 'User-Agent': 'kube-probe/1.36', Accept: '*/*', ...req.headers },
          // The kubelet does not verify probe certificates (InsecureSkipVerify).
          ...(req.scheme === 'https' ? { rejectUnauthorized: false } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < MAX_PROBE_BODY_BYTES) chunks.push(c);
            size += c.length;
            if (size >= MAX_PROBE_BODY_BYTES) res.destroy();
          });
          const done = () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).subarray(0, MAX_PROBE_BODY_BYTES).toString('utf8'),
            });
          res.on('end', done);
          res.on('close', done);
        },
      );
      r.setTimeout(Math.max(1, req.timeoutMs), () => {
        r.destroy(
          new ProbeNetworkError(
            `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
            'timeout',
          ),
        );
      });
      r.on('error', (err) => {
        if (err instanceof ProbeNetworkError) reject(err);
        else
          reject(
            new ProbeNetworkError(
              `Get "${url}": ${dialError(req.host, req.port, err).message}`,
              'other',
            ),
          );
      });
      r.end();
    });
  },
  tcpConnect(host, port, timeoutMs) {
    return new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.setTimeout(Math.max(1, timeoutMs), () => {
        socket.destroy();
        reject(new ProbeNetworkError(`dial tcp ${hostPort(host, port)}: i/o timeout`, 'timeout'));
      });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', (err) => reject(dialError(host, port, err)));
    });
  },
};
