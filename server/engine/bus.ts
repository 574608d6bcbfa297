/**
 * Fan-out of sequenced events from the engine to subscribers (SSE streams, the CLI's watch).
 *
 * The engine never waits for a subscriber: each has a bounded queue, and a subscriber that falls
 * behind by more than its capacity is marked as overflowed and its queue dropped. It then resumes
 * from the store by seq (the consumer's job — see `server/trpc`), so nothing is lost and the
 * engine's loop is never blocked by a slow browser (kubelet PLEG: a full channel drops and counts).
 */
import type { TimelineEvent } from '@/lib/timeline/events';

export interface Subscription extends AsyncIterable<TimelineEvent[]> {
  /** True once the queue overflowed; the consumer must backfill from its last seq. */
  readonly overflowed: boolean;
  /** Takes every batch queued right now (the iterator then waits for the next), oldest first. */
  drain(): TimelineEvent[][];
  close(): void;
}

export class EventBus {
  private readonly subscribers = new Set<Sub>();
  dropped = 0;

  constructor(private readonly capacity = 10_000) {}

  get size(): number {
    return this.subscribers.size;
  }

  publish(events: TimelineEvent[]): void {
    if (events.length === 0) return;
    for (const s of this.subscribers) {
      if (!s.push(events, this.capacity)) this.dropped += events.length;
    }
  }

  subscribe(signal?: AbortSignal): Subscription {
    const sub = new Sub(() => this.subscribers.delete(sub));
    this.subscribers.add(sub);
    if (signal) {
      if (signal.aborted) sub.close();
      else signal.addEventListener('abort', () => sub.close(), { once: true });
    }
    return sub;
  }
}

class Sub implements Subscription {
  private queue: TimelineEvent[][] = [];
  private queued = 0;
  private wake: (() => void) | undefined;
  private closed = false;
  overflowed = false;

  constructor(private readonly detach: () => void) {}

  /** Returns false when the events were dropped (overflow). */
  push(events: TimelineEvent[], capacity: number): boolean {
    if (this.closed) return true;
    if (this.overflowed || this.queued + events.length > capacity) {
      this.overflowed = true;
      this.queue = [];
      this.queued = 0;
      this.wake?.();
      return false;
    }
    this.queue.push(events);
    this.queued += events.length;
    this.wake?.();
    return true;
  }

  drain(): TimelineEvent[][] {
    const out = this.queue;
    this.queue = [];
    this.queued = 0;
    return out;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.detach();
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TimelineEvent[]> {
    try {
      while (!this.closed) {
        if (this.overflowed) return;
        const batch = this.queue.shift();
        if (batch) {
          this.queued -= batch.length;
          yield batch;
          continue;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      this.close();
    }
  }
}
