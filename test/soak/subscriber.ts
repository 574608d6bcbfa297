/**
 * The soak's browser: one cluster.watch SSE stream held for the whole run, resumed with
 * Last-Event-ID whenever it ends, accounting for every seq it is handed — each must be exactly
 * one more than the one before (a snapshot restarts the count at its own seq).
 */
import { decode } from '@/lib/timeline/codec';
import { batchEvents, WireDecoder } from '@/lib/timeline/wire';
import type { WatchMessage } from '@/server/trpc/routers/cluster';

export interface SubscriberReport {
  /** Seq of the first snapshot and of the last event received. */
  firstSnapshotSeq?: number;
  lastSeq: number;
  events: number;
  /** Snapshots after the first (a gap reached past retention, or a foreign id): should be 0. */
  resnapshots: number;
  /** Places where a seq was not the one after the previous: [expected, got]. */
  gaps: [number, number][];
  duplicates: number;
  reconnects: number;
  /** Error frames and failed connections, with their text. */
  errors: string[];
}

export class Subscriber {
  readonly report: SubscriberReport = {
    lastSeq: 0,
    events: 0,
    resnapshots: 0,
    gaps: [],
    duplicates: 0,
    reconnects: 0,
    errors: [],
  };
  private lastEventId: string | undefined;
  private readonly ac = new AbortController();
  private running: Promise<void> | undefined;
  /** The lean wire, as the console asks for it (trpc/cluster-source.ts). */
  private readonly decoder = new WireDecoder();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Waits until the subscriber has seen `seq` (or `ms` pass); returns whether it did. */
  async caughtUp(seq: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.report.lastSeq < seq) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  }

  async stop(): Promise<void> {
    this.ac.abort();
    await this.running?.catch(() => undefined);
  }

  private async loop(): Promise<void> {
    let first = true;
    while (!this.ac.signal.aborted) {
      if (!first) {
        this.report.reconnects++;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      first = false;
      try {
        await this.stream();
      } catch (err) {
        if (this.ac.signal.aborted) return;
        this.report.errors.push(`connection: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  private async stream(): Promise<void> {
    const res = await fetch(this.url, {
      signal: this.ac.signal,
      headers: {
        ...this.headers,
        ...(this.lastEventId ? { 'Last-Event-ID': this.lastEventId } : {}),
      },
    });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    const reader = res.body.getReader();
    const text = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += text.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        this.frame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  private frame(raw: string): void {
    let id: string | undefined;
    let event: string | undefined;
    let data: string | undefined;
    for (const line of raw.split('\n')) {
      if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data = (data ?? '') + line.slice(5).trimStart();
    }
    if (event === 'serialized-error') {
      this.report.errors.push(`stream: ${data ?? ''}`);
      return;
    }
    if (id === undefined || data === undefined) return;
    const message = decode<WatchMessage>(data);
    const r = this.report;
    if (message.type === 'snapshot') {
      this.decoder.seed(message.state);
      if (r.firstSnapshotSeq === undefined) r.firstSnapshotSeq = message.state.seq;
      else r.resnapshots++;
      r.lastSeq = message.state.seq;
    } else {
      for (const e of batchEvents(this.decoder, message)) {
        r.events++;
        if (e.seq <= r.lastSeq) r.duplicates++;
        else if (e.seq !== r.lastSeq + 1) r.gaps.push([r.lastSeq + 1, e.seq]);
        r.lastSeq = Math.max(r.lastSeq, e.seq);
      }
    }
    this.lastEventId = id;
  }
}
