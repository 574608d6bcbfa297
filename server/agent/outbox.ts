/**
 * The agent's bounded outbox: what the node engine derived, waiting to be published.
 *
 * `add` never blocks and never fails: the relist loop hands its batch over and goes on (the
 * kubelet's habit — a full channel drops, it does not wait). Batches become bus messages of at
 * most MAX_EVENTS_PER_MESSAGE events and MAX_MESSAGE_BYTES, one relist's events together where
 * they fit (a derived event's cause then stays inside its message).
 *
 * Memory is capped by the JSON size of what is queued. Past the cap the oldest messages are
 * dropped and replaced by one gap message covering their seqs (merged with a gap already at the
 * front), so the loss is explicit on the bus and counted here. The message being published
 * (`take` until `done`; taken again after a failed publish) is never dropped.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import {
  ENVELOPE_VERSION,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  lastSeqOf,
  type BusMessage,
  type GapMessage,
} from '@/server/cluster/envelope';

/** Default memory cap of the queued messages (JSON bytes). */
export const DEFAULT_OUTBOX_BYTES = 16 * 1024 * 1024;
/** What a gap message is accounted at. */
const GAP_BYTES = 256;
/** Room for the envelope around the events. */
const ENVELOPE_BYTES = 512;

interface Entry {
  message: BusMessage;
  bytes: number;
}

export interface OutboxStats {
  queuedMessages: number;
  queuedBytes: number;
  /** Events dropped since the start (each within a gap message). */
  droppedEvents: number;
  /** Gap messages created (a merge into an existing one does not count again). */
  gaps: number;
  /** Events refused because one alone exceeds the message size limit (should never happen). */
  oversized: number;
}

export class Outbox {
  private readonly queue: Entry[] = [];
  private head = 0;
  private bytes = 0;
  private inFlight: Entry | undefined;
  readonly stats: OutboxStats = {
    queuedMessages: 0,
    queuedBytes: 0,
    droppedEvents: 0,
    gaps: 0,
    oversized: 0,
  };
  private wake: (() => void) | undefined;

  constructor(
    private readonly id: { cluster: string; node: string; epoch: string },
    private readonly capBytes = DEFAULT_OUTBOX_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Queues one batch of consecutive events (seqs as numbered by the agent). */
  add(batch: readonly TimelineEvent[]): void {
    let chunk: TimelineEvent[] = [];
    let chunkBytes = ENVELOPE_BYTES;
    const flush = () => {
      if (chunk.length === 0) return;
      const first = chunk[0] as TimelineEvent;
      this.enqueue(
        {
          v: ENVELOPE_VERSION,
          type: 'events',
          ...this.id,
          seq: first.seq,
          t: this.now(),
          events: chunk,
        },
        chunkBytes,
      );
      chunk = [];
      chunkBytes = ENVELOPE_BYTES;
    };
    for (const e of batch) {
      const size = Buffer.byteLength(JSON.stringify(e)) + 1;
      if (size + ENVELOPE_BYTES > MAX_MESSAGE_BYTES) {
        // The engine shrinks oversized events before they get here; a lone one that is still
        // too big becomes a gap rather than a message the bus would refuse.
        flush();
        this.stats.oversized++;
        this.enqueueGap(e.seq, e.seq);
        continue;
      }
      if (chunk.length >= MAX_EVENTS_PER_MESSAGE || chunkBytes + size > MAX_MESSAGE_BYTES) flush();
      chunk.push(e);
      chunkBytes += size;
    }
    flush();
    this.enforceCap();
    this.wake?.();
  }

  private enqueue(message: BusMessage, bytes: number): void {
    this.queue.push({ message, bytes });
    this.bytes += bytes;
    this.refreshStats();
  }

  private enqueueGap(from: number, to: number): void {
    const last = this.queue[this.queue.length - 1];
    if (
      this.queue.length > this.head &&
      last?.message.type === 'gap' &&
      last.message.lost.to === from - 1
    ) {
      last.message.lost.to = to;
    } else {
      this.enqueue(this.gap(from, to), GAP_BYTES);
      this.stats.gaps++;
    }
    this.stats.droppedEvents += to - from + 1;
  }

  private gap(from: number, to: number): GapMessage {
    return {
      v: ENVELOPE_VERSION,
      type: 'gap',
      ...this.id,
      seq: from,
      t: this.now(),
      lost: { from, to },
      reason: 'outbox-full',
    };
  }

  /** Drops the oldest queued messages (never the one in flight) until under the cap. */
  private enforceCap(): void {
    while (this.bytes > this.capBytes && this.head < this.queue.length) {
      const oldest = this.queue[this.head] as Entry;
      if (oldest.message.type === 'gap') {
        // A gap at the front absorbs the message behind it.
        const next = this.queue[this.head + 1];
        if (!next) break;
        const gap = oldest.message;
        gap.lost.to = lastSeqOf(next.message);
        if (next.message.type === 'events') this.stats.droppedEvents += next.message.events.length;
        else this.stats.droppedEvents += next.message.lost.to - next.message.lost.from + 1;
        this.bytes -= next.bytes;
        this.queue.splice(this.head + 1, 1);
        continue;
      }
      const m = oldest.message;
      this.bytes -= oldest.bytes;
      this.stats.droppedEvents += m.events.length;
      this.stats.gaps++;
      this.queue[this.head] = { message: this.gap(m.seq, lastSeqOf(m)), bytes: GAP_BYTES };
      this.bytes += GAP_BYTES;
    }
    this.refreshStats();
  }

  /** The next message to publish (it stays owned by the outbox until `done` or `retry`). */
  take(): BusMessage | undefined {
    if (this.inFlight) return this.inFlight.message;
    if (this.head >= this.queue.length) return undefined;
    this.inFlight = this.queue[this.head];
    this.queue[this.head] = undefined as unknown as Entry;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return this.inFlight?.message;
  }

  /** The message from `take` was acknowledged by the stream. */
  done(): void {
    if (!this.inFlight) return;
    this.bytes -= this.inFlight.bytes;
    this.inFlight = undefined;
    this.refreshStats();
  }

  /** Resolves when there is something to take. */
  async ready(signal?: AbortSignal): Promise<void> {
    if (this.inFlight || this.head < this.queue.length || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const onAbort = () => resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wake = () => {
        signal?.removeEventListener('abort', onAbort);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private refreshStats(): void {
    this.stats.queuedMessages = this.queue.length - this.head + (this.inFlight ? 1 : 0);
    this.stats.queuedBytes = this.bytes;
  }
}
