/**
 * One node's GetContainerEvents stream (upstream pkg/kubelet/pleg/evented.go), as the relist loop
 * uses it (node-watcher.ts): each notice is a hint to relist now, never a record. A stream that
 * ends or breaks is opened again after a growing delay; after MAX_STREAM_FAILURES failures in a
 * row, or at once when the runtime answers UNIMPLEMENTED, it stays closed (polling remains).
 */
import type { RuntimeClient } from './runtime-client';

const STREAM_RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** Evented PLEG gives up on the stream after this many failures (pkg/kubelet/pleg/evented.go). */
const MAX_STREAM_FAILURES = 5;

export interface EventStreamHooks {
  /** A notice arrived: the stream is delivering. */
  notice(): void;
  /** The stream ended or broke (unimplemented: the runtime has none, it will not be retried). */
  broke(error: unknown, unimplemented: boolean): void;
}

export class ContainerEventStream {
  /** Notices received so far (a stalled stream stops counting). */
  notices = 0;
  private failures = 0;
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly retries = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly client: Pick<RuntimeClient, 'containerEvents'>,
    private readonly hooks: EventStreamHooks,
  ) {}

  /** Opens the stream and reads it until it ends, breaks or is stopped; a retry is timed by itself. */
  async watch(): Promise<void> {
    if (this.stopped || this.failures >= MAX_STREAM_FAILURES) return;
    try {
      const stream = this.client.containerEvents(this.abort.signal);
      let first = true;
      for await (const _notice of stream) {
        this.notices++;
        if (first) {
          first = false;
          this.failures = 0;
        }
        this.hooks.notice();
      }
      if (this.stopped) return;
      throw new Error('GetContainerEvents stream ended');
    } catch (err) {
      if (this.stopped) return;
      const unimplemented = (err as { unimplemented?: boolean }).unimplemented === true;
      this.hooks.broke(err, unimplemented);
      if (unimplemented) return;
      this.failures++;
      const delay =
        STREAM_RETRY_MS[Math.min(this.failures - 1, STREAM_RETRY_MS.length - 1)] ?? 30_000;
      const retry = setTimeout(() => {
        this.retries.delete(retry);
        void this.watch();
      }, delay);
      this.retries.add(retry);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
    this.abort.abort();
  }
}
