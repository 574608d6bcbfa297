/**
 * A browser's end of cluster.watch, reduced to what the tests need: one SSE connection over
 * real HTTP (fetch), parsed into frames; reconnect by opening another with Last-Event-ID.
 * The trpc standalone adapter serves the router the way the Next route does.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { decode } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import { reduce } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import { batchEvents, WIRE_VERSION, WireDecoder } from '@/lib/timeline/wire';
import type { EngineApi } from '@/server/engine/api';
import { appRouter } from '@/server/trpc/root';
import { testContext } from '@/server/trpc/testing/context';
import type { WatchMessage } from '@/server/trpc/routers/cluster';

export interface Frame {
  id?: string;
  event?: string;
  data?: string;
}

/** Serves the tRPC router for `engine` on a loopback port. */
export async function serve(engine: EngineApi): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHTTPServer({
    router: appRouter,
    createContext: () => testContext({ engine }),
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One open SSE connection. */
export class SseConnection {
  private readonly ac = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private buffer = '';
  private readonly text = new TextDecoder();
  status = 0;
  ended = false;

  private constructor(private readonly url: string) {}

  static async open(url: string, lastEventId?: string): Promise<SseConnection> {
    const c = new SseConnection(url);
    const res = await fetch(url, {
      signal: c.ac.signal,
      headers: lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId },
    });
    c.status = res.status;
    if (!res.body) throw new Error(`${url}: no body (HTTP ${res.status})`);
    c.reader = res.body.getReader();
    return c;
  }

  /** The next frame, or undefined when the server ended the stream. */
  async next(): Promise<Frame | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const raw = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const frame: Frame = {};
        for (const line of raw.split('\n')) {
          const m = /^(id|event|data): ?(.*)$/.exec(line);
          if (m?.[1] === 'id') frame.id = m[2];
          else if (m?.[1] === 'event') frame.event = m[2];
          else if (m?.[1] === 'data')
            frame.data = (frame.data === undefined ? '' : `${frame.data}\n`) + (m[2] ?? '');
        }
        if (frame.id === undefined && frame.event === undefined && frame.data === undefined)
          continue;
        return frame;
      }
      const chunk = await this.reader?.read();
      if (!chunk || chunk.done) {
        this.ended = true;
        return undefined;
      }
      this.buffer += this.text.decode(chunk.value, { stream: true });
    }
  }

  /** Drops the connection (a laptop lid closing). */
  close(): void {
    this.ac.abort();
  }

  toString(): string {
    return this.url;
  }
}

/**
 * What a browser does with the stream: applies snapshots and event batches with the shared
 * reducer, remembers the last id, and records every seq it was handed (to find gaps and dups).
 */
export class WatchClient {
  state: ClusterState | undefined;
  lastEventId: string | undefined;
  /** Seqs of events received, in order of arrival (a snapshot resets the expectation). */
  readonly seqs: number[] = [];
  readonly snapshots: number[] = [];
  readonly errors: string[] = [];
  /** The lean wire, as the console asks for it (trpc/cluster-source.ts). */
  private readonly decoder = new WireDecoder();

  constructor(private readonly base: string) {}

  /** Opens the stream at `base` (default: the one given at construction — another replica's to fail over). */
  connect(base = this.base): Promise<SseConnection> {
    const input = encodeURIComponent(JSON.stringify({ wire: WIRE_VERSION }));
    return SseConnection.open(`${base}/cluster.watch?input=${input}`, this.lastEventId);
  }

  /** Reads frames until `done()` holds or the stream ends; returns whether the stream ended. */
  async read(c: SseConnection, done: () => boolean, timeoutMs = 30_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline)
        throw new Error(`${c.toString()}: timed out (last id ${this.lastEventId ?? 'none'})`);
      const frame = await c.next();
      if (!frame) return true;
      if (frame.event === 'serialized-error') {
        this.errors.push(frame.data ?? '');
        continue;
      }
      if (frame.id === undefined || frame.data === undefined) continue;
      const message = decode<WatchMessage>(frame.data);
      if (message.type === 'snapshot') {
        this.decoder.seed(message.state);
        this.state = message.state;
        this.snapshots.push(message.state.seq);
      } else {
        for (const e of batchEvents(this.decoder, message)) this.apply(e);
      }
      this.lastEventId = frame.id;
    }
    return false;
  }

  private apply(e: TimelineEvent): void {
    this.seqs.push(e.seq);
    if (this.state) this.state = reduce(this.state, e);
  }

  get seq(): number {
    return this.state?.seq ?? 0;
  }
}
