/**
 * Plain HTTP/1.1 requests with exactly the headers given — including Host, which fetch() will
 * not let a caller choose — for specs that play a hostile page or client.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(options: {
  port: number;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  address?: string;
  /** The client's own address (e.g. 127.0.0.2, to be a different loopback peer). */
  localAddress?: string;
}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.address ?? '127.0.0.1',
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        port: options.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        setHost: !Object.keys(options.headers ?? {}).some((h) => h.toLowerCase() === 'host'),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** A tRPC query's path and input as the HTTP link sends them (GET, JSON input in the query). */
export function trpcGet(procedure: string, input?: unknown): string {
  return `/api/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
}
