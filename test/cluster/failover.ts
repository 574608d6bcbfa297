/**
 * Replica failover, measured where the browser stands: a tiny loopback proxy in front of the
 * console replicas (what a Service or load balancer does) that sends each request to the first
 * replica that accepts the connection, and taps every cluster.watch SSE stream it passes on —
 * decoding the lean wire exactly as the console does — so a test can say which global ids the
 * page was handed, when, and through which connection.
 *
 *   const proxy = await startFailoverProxy({ port: 3119, targets: stack.replicas.map((r) => r.url) });
 *   page.goto(proxy.url) … const killedAt = Date.now(); await stack.replicas[0].kill();
 *   const gapMs = await proxy.nextEventAfter(killedAt)   // replica_failover_gap_ms
 *   expect(proxy.check()).toEqual({ duplicates: [], outOfOrder: [] })
 */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants as zlib, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { decode } from '@/lib/timeline/codec';
import { batchEvents, WireDecoder } from '@/lib/timeline/wire';
import type { WatchMessage } from '@/server/trpc/routers/cluster';

export interface Received {
  /** The event's seq (a global id in cluster mode). */
  seq: number;
  /** Date.now() when the proxy passed it to the browser. */
  at: number;
  /** Which SSE connection (0, 1, …) and which replica it came from. */
  connection: number;
  target: string;
}

export interface FailoverProxy {
  readonly url: string;
  /** Every event handed to the browser on cluster.watch streams, in order. */
  readonly received: Received[];
  /** Snapshots handed to the browser: their seq and connection. */
  readonly snapshots: { seq: number; connection: number; target: string; at: number }[];
  /** The Last-Event-ID (header or input) each watch connection asked to resume from. */
  readonly resumes: (string | null)[];
  /** Date.now() when each watch connection reached the proxy. */
  readonly opened: number[];
  /** Resolves with ms from `since` to the first event handed over after it (rejects on timeout). */
  nextEventAfter(since: number, timeoutMs?: number): Promise<number>;
  /** Seqs handed over twice, and seqs that came after a larger one. */
  check(): { duplicates: number[]; outOfOrder: number[] };
  close(): Promise<void>;
}

const WATCH_PATH = /\/api\/trpc\/cluster\.watch\b/;

function lastEventIdOf(req: IncomingMessage): string | null {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string') return header;
  const input = new URL(req.url ?? '/', 'http://x').searchParams.get('input');
  if (!input) return null;
  try {
    const parsed = JSON.parse(input) as { lastEventId?: unknown };
    return typeof parsed.lastEventId === 'string' ? parsed.lastEventId : null;
  } catch {
    return null;
  }
}

export async function startFailoverProxy(options: {
  port: number;
  targets: string[];
}): Promise<FailoverProxy> {
  const received: Received[] = [];
  const snapshots: FailoverProxy['snapshots'] = [];
  const resumes: (string | null)[] = [];
  const opened: number[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;

  /** Parses the SSE bytes of one watch stream as the browser will. */
  const tap = (connection: number, target: string) => {
    const decoder = new WireDecoder();
    let buffer = '';
    return (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const raw = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = raw
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.replace(/^data: ?/, ''))
          .join('\n');
        if (!data || !raw.split('\n').some((l) => l.startsWith('id:'))) continue;
        const message = decode<WatchMessage>(data);
        const at = Date.now();
        if (message.type === 'snapshot') {
          decoder.seed(message.state);
          snapshots.push({ seq: message.state.seq, connection, target, at });
        } else {
          for (const e of batchEvents(decoder, message))
            received.push({ seq: e.seq, at, connection, target });
        }
        for (const wake of waiters) wake();
      }
    };
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, from: number) => {
    if (from === 0 && WATCH_PATH.test(req.url ?? '')) opened.push(Date.now());
    const target = options.targets[from];
    if (!target) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('no replica accepts connections');
      return;
    }
    const url = new URL(req.url ?? '/', target);
    const upstream = request(url, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      if (WATCH_PATH.test(req.url ?? '')) {
        const connection = connections++;
        resumes.push(lastEventIdOf(req));
        const read = tap(connection, target);
        // The console gzips its event stream, flushed per message (server/trpc/compress.ts).
        const encoding = String(up.headers['content-encoding'] ?? '');
        const inflate =
          encoding === 'gzip'
            ? createGunzip({ flush: zlib.Z_SYNC_FLUSH })
            : encoding === 'br'
              ? createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH })
              : encoding === 'deflate'
                ? createInflate({ flush: zlib.Z_SYNC_FLUSH })
                : undefined;
        if (inflate) {
          inflate.on('data', read);
          inflate.on('error', () => {});
          up.on('data', (c: Buffer) => inflate.write(c));
          up.on('end', () => inflate.end());
        } else up.on('data', read);
      }
      up.pipe(res);
      // The replica died mid-stream: the browser sees the connection drop, as through a Service —
      // but gets what was already passed on (and tapped) first: destroyed at once, the bytes
      // still queued to a browser slow to read were lost, and the page resumed from before events
      // the tap had counted as handed over. Ending the socket sends them, then a FIN with the
      // chunked body unfinished: a dropped connection to the browser all the same.
      let dropped = false;
      const drop = () => {
        if (dropped) return;
        dropped = true;
        up.unpipe(res);
        const socket = res.socket;
        if (!socket) return void res.destroy();
        socket.end();
        setTimeout(() => res.destroy(), 5_000).unref();
      };
      up.on('aborted', drop);
      up.on('error', drop);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.destroy();
      if (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET')
        return forward(req, res, body, from + 1); // that replica is gone: the next one
      res.writeHead(502, { 'content-type': 'text/plain' }).end(err.message);
    });
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), 0));
  });
  server.listen(options.port, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    snapshots,
    resumes,
    opened,
    nextEventAfter(since, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const first = received.find((r) => r.at >= since);
          if (!first) return false;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(first.at - since);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no event reached the browser within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!look()) waiters.add(look);
      });
    },
    check() {
      const seen = new Set<number>();
      const duplicates: number[] = [];
      const outOfOrder: number[] = [];
      let last = 0;
      for (const r of received) {
        if (seen.has(r.seq)) duplicates.push(r.seq);
        else if (r.seq < last) outOfOrder.push(r.seq);
        seen.add(r.seq);
        last = Math.max(last, r.seq);
      }
      return { duplicates, outOfOrder };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface FailoverResult {
  /** replica_failover_gap_ms: from the SIGKILL to the next event handed to the watcher. */
  gapMs: number;
  /** From the SIGKILL to the watcher's new watch request (its reconnect delay). */
  reconnectMs: number | undefined;
  /** The replica killed and the one the watcher went on from. */
  killed: string;
  /** Events received before the kill and the seq the watcher resumed from. */
  before: number;
  resumedFrom: string | null;
}

/**
 * Kills the replica serving the latest cluster.watch stream through `proxy` (SIGKILL) and waits
 * for the watcher — a browser page, or any SSE reader going through the proxy — to receive its
 * next event from another replica. The stream must be live when this is called.
 */
export async function killServingReplica(
  proxy: FailoverProxy,
  replicas: readonly { url: string; kill(): Promise<void> }[],
  timeoutMs = 120_000,
): Promise<FailoverResult> {
  const serving = proxy.received.at(-1)?.target ?? proxy.snapshots.at(-1)?.target;
  const victim = replicas.find((r) => r.url === serving);
  if (!victim) throw new Error(`no replica serves the watch stream (${serving ?? 'none yet'})`);
  const before = proxy.received.length;
  const killedAt = Date.now();
  await victim.kill();
  const gapMs = await proxy.nextEventAfter(killedAt, timeoutMs);
  const reopened = proxy.opened.find((t) => t >= killedAt);
  return {
    gapMs,
    reconnectMs: reopened === undefined ? undefined : reopened - killedAt,
    killed: victim.url,
    before,
    resumedFrom: proxy.resumes.at(-1) ?? null,
  };
}
