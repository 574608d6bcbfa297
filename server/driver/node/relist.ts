/**
 * The driver's part of the PLEG: every relist period, list every sandbox and container on the
 * runtime and hand each pod's fingerprint to its worker, which syncs when it changed since its
 * own last read (pod-worker.ts). A failing list is logged once, and once more when it works again.
 */
import { LABELS } from '@/lib/kubelet/runtime';
import type { DriverClock, DriverTimer } from '../clock';
import type { PodWorker } from '../pod-worker/pod-worker';
import { fingerprintOf } from '../pod-worker/pod-status';
import type { DriverRuntime } from '../runtime';

export interface DriverRelistOptions {
  runtime: DriverRuntime;
  clock: DriverClock;
  node: string;
  periodMs: number;
  /** The driver's workers, by uid (relisting stops while there are none). */
  workers: ReadonlyMap<string, PodWorker>;
  log: (line: string) => void;
}

export class DriverRelist {
  private timer: DriverTimer | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  private stopped = false;

  constructor(private readonly o: DriverRelistOptions) {}

  /** Arms the next relist unless one is armed; re-arms itself while the driver has pods. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = this.o.clock.setTimer(this.o.periodMs, () => {
      this.timer = undefined;
      this.running ??= this.relist().finally(() => {
        this.running = undefined;
        if (this.o.workers.size > 0) this.start();
      });
    });
  }

  /** No more relists; resolves once the one in progress (if any) is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
  }

  /** List everything, hand each pod's fingerprint to its worker. */
  private async relist(): Promise<void> {
    const { runtime, node, workers } = this.o;
    if (this.stopped || workers.size === 0) return;
    try {
      const [sandboxes, containers] = await Promise.all([
        runtime.listPodSandbox(),
        runtime.listContainers(),
      ]);
      if (this.failing) this.o.log(`driver: ${node}: relist of ${runtime.endpoint} works again`);
      this.failing = false;
      for (const w of workers.values()) {
        const mine = (labels: Readonly<Record<string, string>>) => labels[LABELS.podUid] === w.uid;
        w.observe(
          fingerprintOf(
            sandboxes.filter((s) => mine(s.labels)),
            containers.filter((c) => mine(c.labels)),
          ),
        );
      }
    } catch (err) {
      if (!this.failing) {
        this.o.log(
          `driver: ${node}: relist of ${runtime.endpoint} failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      this.failing = true;
    }
  }
}
