/**
 * A byte-counting reader of the console's cluster.watch SSE stream, as a browser receives it:
 * every byte of the response body counts (ids, data, keep-alive comments, framing), on the wire
 * (compressed, as the server sent it) and decoded (what EventSource parses).
 */
import { get, type ClientRequest } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { decode } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { WIRE_VERSION, WireDecoder } from '@/lib/timeline/wire';

export interface SseFrame {
  /** Bytes of the frame as EventSource reads it (decompressed), with its terminating blank line. */
  bytes: number;
  event?: string;
  id?: string;
  data?: string;
  at: number;
}

export interface WatchFrame {
  type: 'snapshot' | 'events' | 'other';
  bytes: number;
  events: TimelineEvent[];
  at: number;
}

export class SseReader {
  private request: ClientRequest | undefined;
  private readonly frames: SseFrame[] = [];
  private waiters: (() => void)[] = [];
  private parts: Buffer[] = [];
  /** The bytes kept so far end with a newline (a terminator may straddle two chunks). */
  private tailNewline = false;
  /** Bytes received on the wire (compressed, when the server compressed). */
  totalBytes = 0;
  /** Bytes after decompression (what EventSource sees). */
  decodedBytes = 0;
  /** The response's Content-Encoding ('identity' when none). */
  encoding = 'identity';
  done = false;
  error: unknown;

  /**
   * `acceptEncoding` defaults to what Chromium sends to a secure origin (localhost counts), so the
   * bytes counted are the bytes the console's browser receives.
   */
  constructor(
    readonly url: string,
    private readonly acceptEncoding = 'gzip, deflate, br, zstd',
  ) {}

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.request = get(
        this.url,
        { headers: { accept: 'text/event-stream', 'accept-encoding': this.acceptEncoding } },
        (res) => {
          if (res.statusCode !== 200) {
            reject(new Error(`${this.url}: HTTP ${res.statusCode ?? '?'}`));
            res.resume();
            return;
          }
          this.encoding = String(res.headers['content-encoding'] ?? 'identity');
          const decoder: Transform | undefined =
            this.encoding === 'br'
              ? createBrotliDecompress()
              : this.encoding === 'gzip'
                ? createGunzip()
                : this.encoding === 'deflate'
                  ? createInflate()
                  : undefined;
          res.on('data', (chunk: Buffer) => {
            this.totalBytes += chunk.length;
            if (decoder) decoder.write(chunk);
            else this.absorb(chunk);
          });
          decoder?.on('data', (chunk: Buffer) => this.absorb(chunk));
          const finish = (err?: unknown) => {
            if (err !== undefined && !this.done) this.error = err;
            this.done = true;
            this.wake();
          };
          res.on('end', () => finish());
          res.on('error', finish);
          decoder?.on('error', finish);
          resolve();
        },
      );
      this.request.on('error', (err) => {
        if (!this.done) reject(err);
        this.done = true;
        this.wake();
      });
    });
  }

  /**
   * Splits decoded bytes into frames at each blank line. Chunks are kept as a list and joined once
   * per frame: a 40 MB snapshot arrives in thousands of chunks, and re-joining (or re-searching)
   * everything received so far on each one would be quadratic.
   */
  private absorb(chunk: Buffer): void {
    this.decodedBytes += chunk.length;
    let from = 0;
    while (from < chunk.length) {
      // Index in `chunk` of the second newline of the terminator, if it is in this chunk.
      let end = -1;
      if (this.tailNewline && chunk[from] === 0x0a) end = from;
      else {
        const i = chunk.indexOf('\n\n', from);
        if (i >= 0) end = i + 1;
      }
      if (end < 0) {
        this.parts.push(chunk.subarray(from));
        this.tailNewline = chunk[chunk.length - 1] === 0x0a;
        break;
      }
      this.parts.push(chunk.subarray(from, end + 1));
      const raw = Buffer.concat(this.parts);
      this.parts = [];
      this.tailNewline = false;
      this.frames.push(parseFrame(raw));
      from = end + 1;
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  /** Frames received so far, removed from the reader. */
  take(): SseFrame[] {
    return this.frames.splice(0);
  }

  /** Resolves once at least one frame is waiting (or the stream ended). */
  async next(timeoutMs: number): Promise<void> {
    if (this.frames.length > 0 || this.done) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  close(): void {
    this.done = true;
    this.request?.destroy();
  }
}

/** One frame's fields; `raw` ends with the blank line that terminated it. */
function parseFrame(raw: Buffer): SseFrame {
  const frame: SseFrame = { bytes: raw.length, at: Date.now() };
  for (const line of raw.toString('utf8').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    else if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
  }
  return frame;
}

/**
 * The cluster.watch URL of a console, asking for the lean wire as the console's browser does;
 * with `lastEventId`, resuming after that event (as the tRPC client reconnects).
 */
export function watchUrl(base: string, lastEventId?: string): string {
  const input =
    lastEventId === undefined ? { wire: WIRE_VERSION } : { wire: WIRE_VERSION, lastEventId };
  return `${base}/api/trpc/cluster.watch?input=${encodeURIComponent(JSON.stringify(input))}`;
}

/**
 * Interprets a frame as a cluster.watch message (tracked data arrive as the message itself);
 * wire frames are decoded with `decoder`, which a snapshot seeds — one decoder per stream.
 */
export function watchFrame(f: SseFrame, decoder = new WireDecoder()): WatchFrame {
  if (f.data === undefined || f.event !== undefined)
    return { type: 'other', bytes: f.bytes, events: [], at: f.at };
  const msg = decode<unknown>(f.data);
  const body = (
    typeof msg === 'object' && msg !== null && 'type' in msg
      ? msg
      : (msg as { data?: unknown }).data
  ) as { type?: string; events?: TimelineEvent[]; state?: ClusterState } | undefined;
  if (body?.type === 'snapshot') {
    if (body.state) decoder.seed(body.state);
    return { type: 'snapshot', bytes: f.bytes, events: [], at: f.at };
  }
  if (body?.type === 'events')
    return { type: 'events', bytes: f.bytes, events: body.events ?? [], at: f.at };
  if (body?.type === 'wire')
    return {
      type: 'events',
      bytes: f.bytes,
      events: decoder.decode(body),
      at: f.at,
    };
  return { type: 'other', bytes: f.bytes, events: [], at: f.at };
}
