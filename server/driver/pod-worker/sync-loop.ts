/**
 * The pod worker's serialization (pkg/kubelet/pod_workers.go's managePodLoop): never two syncs of
 * one pod at once — a request during a sync marks the pod dirty and the loop runs again right
 * after — and one timer for the next sync nobody asked for (a back-off's end, a retry, the
 * periodic resync), which any sync cancels.
 */
import type { DriverClock, DriverTimer } from '../clock';

export interface SyncLoopOptions {
  clock: DriverClock;
  /** One sync. A throw is handed to `failed` and ends nothing. */
  sync: () => Promise<void>;
  failed: (err: unknown) => void;
  /** No more syncs (the worker stopped, or the pod is gone). */
  closed: () => boolean;
}

export class SyncLoop {
  private running: Promise<void> | undefined;
  private dirty = false;
  private timer: DriverTimer | undefined;
  private timerAt = Infinity;
  /** Syncs run so far. */
  syncs = 0;

  constructor(private readonly options: SyncLoopOptions) {}

  /** Runs a sync now, or right after the one in progress. */
  request(): void {
    if (this.options.closed()) return;
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = this.loop();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when no sync is running or queued. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  cancelTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Arms the one timer for `at` unless an earlier one is already armed. */
  schedule(at: number): void {
    if (this.options.closed() || !Number.isFinite(at)) return;
    if (this.timer && this.timerAt <= at) return;
    this.timer?.cancel();
    this.timerAt = at;
    const { clock } = this.options;
    this.timer = clock.setTimer(Math.max(0, at - clock.now()), () => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.request();
    });
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.dirty = false;
        this.cancelTimer();
        this.syncs++;
        try {
          await this.options.sync();
        } catch (err) {
          this.options.failed(err);
        }
      } while (this.dirty && !this.options.closed());
    } finally {
      this.running = undefined;
    }
  }
}
