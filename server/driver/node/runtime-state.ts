/**
 * The kubelet's runtimeState as far as the stand-in needs it: the network state read from the
 * runtime's Status every 5 s, which gates every pod that is not on the host network.
 *
 * Ports (kubernetes/kubernetes, stored text of the master branch, read with
 * docs/kubelet-semantics.md):
 * - pkg/kubelet/kubelet.go `updateRuntimeUp` (run by `wait.Until(kl.updateRuntimeUp, 5*time.Second)`):
 *   a failed Status call changes nothing ("Container runtime sanity check failed"); NetworkReady
 *   missing or false sets the network error `container runtime network not ready: <cond>`, true
 *   clears it;
 * - pkg/kubelet/runtime.go `newRuntimeState`: the network starts as ErrNetworkUnknown
 *   ("network state unknown", pkg/kubelet/errors.go) until the first Status;
 * - pkg/kubelet/kubelet.go `SyncPod`: "If the network plugin is not ready, only start the pod if it
 *   uses the host network" — the sync fails with `network is not ready: <error>`
 *   (NetworkNotReadyErrorMsg) and a Warning event `NetworkNotReady` with the same text, before any
 *   sandbox is created; the pod worker retries after its back-off.
 *
 * A runtime without a Status call (the in-memory test fake) counts as network-ready.
 */
import { formatRuntimeCondition } from '@/lib/kubelet/node';
import type { RuntimeCondition } from '@/lib/kubelet/runtime';
import type { DriverClock, DriverTimer } from '../clock';

/** kubelet.go: how often updateRuntimeUp reads the runtime's Status. */
export const RUNTIME_UP_PERIOD_MS = 5_000;
/** pkg/kubelet/errors.go ErrNetworkUnknown. */
export const NETWORK_UNKNOWN = 'network state unknown';
/** pkg/kubelet/kubelet.go NetworkNotReadyErrorMsg. */
export const NETWORK_NOT_READY_MSG = 'network is not ready';
/** pkg/kubelet/events NetworkNotReady. */
export const NETWORK_NOT_READY_REASON = 'NetworkNotReady';

export interface StatusSource {
  status?(): Promise<{ conditions: RuntimeCondition[] }>;
}

export class RuntimeState {
  private network: string | undefined;
  private timer: DriverTimer | undefined;
  private reading: Promise<void> | undefined;
  private stopped = false;
  private first: Promise<void> | undefined;

  constructor(
    private readonly runtime: StatusSource,
    private readonly clock: DriverClock,
    private readonly log: (line: string) => void,
  ) {
    this.network = typeof runtime.status === 'function' ? NETWORK_UNKNOWN : undefined;
  }

  /** runtimeState.networkErrors(): undefined when the network is ready. */
  networkError(): string | undefined {
    return this.network;
  }

  /** The first call reads the Status and keeps reading it every 5 s; resolves after the first read. */
  start(): Promise<void> {
    if (this.stopped || typeof this.runtime.status !== 'function') return Promise.resolve();
    if (!this.first) {
      this.first = this.read();
      this.schedule();
    }
    return this.first;
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = this.clock.setTimer(RUNTIME_UP_PERIOD_MS, () => {
      this.timer = undefined;
      void this.read().finally(() => this.schedule());
    });
  }

  private read(): Promise<void> {
    this.reading ??= this.updateRuntimeUp().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async updateRuntimeUp(): Promise<void> {
    if (typeof this.runtime.status !== 'function') return;
    let conditions: RuntimeCondition[];
    try {
      ({ conditions } = await this.runtime.status());
    } catch {
      // "Container runtime sanity check failed": the network state stays as it was.
      return;
    }
    const ready = conditions.find((c) => c.type === 'NetworkReady');
    const next =
      ready?.status === true
        ? undefined
        : `container runtime network not ready: ${formatRuntimeCondition(ready)}`;
    if (next === this.network) return;
    const first = this.network === NETWORK_UNKNOWN;
    this.network = next;
    if (!(first && next === undefined))
      this.log(`driver: network ${next === undefined ? 'ready' : `not ready: ${next}`}`);
  }
}
