/**
 * A byte-counting reader of the console's cluster.watch SSE stream, as a browser receives it:
 * every byte of the response body counts (ids, data, keep-alive comments, framing).
 */
import { decode } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';

export interface SseFrame {
  /** Bytes of the frame on the wire, including its terminating blank line. */
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
  private readonly ac = new AbortController();
  private readonly frames: SseFrame[] = [];
  private waiters: (() => void)[] = [];
  totalBytes = 0;
  done = false;
  error: unknown;

  constructor(readonly url: string) {}

  async open(): Promise<void> {
    const res = await fetch(this.url, {
      signal: this.ac.signal,
      headers: { accept: 'text/event-stream' },
    });
    if (!res.ok || !res.body) throw new Error(`${this.url}: HTTP ${res.status}`);
    void this.pump(res.body.getReader());
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    let pending = Buffer.alloc(0);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.totalBytes += value.byteLength;
        pending = pending.length === 0 ? Buffer.from(value) : Buffer.concat([pending, value]);
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const raw = pending.subarray(0, end).toString('utf8');
          const frame: SseFrame = { bytes: end + 2, at: Date.now() };
          for (const line of raw.split('\n')) {
            const colon = line.indexOf(':');
            if (colon <= 0) continue;
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data')
              frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
            else if (field === 'id') frame.id = value;
            else if (field === 'event') frame.event = value;
          }
          this.frames.push(frame);
          pending = pending.subarray(end + 2);
        }
        const w = this.waiters;
        this.waiters = [];
        for (const fn of w) fn();
      }
    } catch (err) {
      if (!this.ac.signal.aborted) this.error = err;
    } finally {
      this.done = true;
      for (const fn of this.waiters) fn();
    }
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
    this.ac.abort();
  }
}

/** Interprets a frame as a cluster.watch message (tracked data arrive as the message itself). */
export function watchFrame(f: SseFrame): WatchFrame {
  if (f.data === undefined || f.event !== undefined)
    return { type: 'other', bytes: f.bytes, events: [], at: f.at };
  const msg = decode<unknown>(f.data);
  const body = (
    typeof msg === 'object' && msg !== null && 'type' in msg
      ? msg
      : (msg as { data?: unknown }).data
  ) as { type?: string; events?: TimelineEvent[] } | undefined;
  if (body?.type === 'snapshot') return { type: 'snapshot', bytes: f.bytes, events: [], at: f.at };
  if (body?.type === 'events')
    return { type: 'events', bytes: f.bytes, events: body.events ?? [], at: f.at };
  return { type: 'other', bytes: f.bytes, events: [], at: f.at };
}
