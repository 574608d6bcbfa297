/**
 * The kubelet's connection to the API server, as far as the stand-in models it: the node Lease it
 * renews (and the node status it posts) every 10 s, and what the API server sends it — here, a
 * pod's deletion. A partition cuts both ways: no renewal gets out, so the node lifecycle
 * controller sees the node fall silent (Ready=Unknown after node-monitor-grace-period), and no
 * deletion gets in, so the pods keep running on the node whatever the API server decided; when the
 * partition heals the watch catches up and the kubelet acts on what it missed.
 *
 * Upstream: pkg/kubelet/nodelease (renew interval 0.25 × nodeLeaseDurationSeconds = 10 s,
 * kubelet.go nodeLeaseRenewIntervalFraction), pkg/kubelet/kubelet_node_status.go (status every
 * nodeStatusUpdateFrequency, 10 s), pkg/kubelet/config (the API source of pod updates).
 */
import type { DriverClock } from '../clock';

export class ApiLink {
  private partitionedAt: number | undefined;
  private held: (() => void)[] = [];

  constructor(private readonly clock: DriverClock) {}

  get partitioned(): boolean {
    return this.partitionedAt !== undefined;
  }

  /**
   * The kubelet's last word to the API server: now while connected (a renewal is never more than
   * 10 s old, well inside any grace period, so the controller sees it as current), the moment
   * of the cut during a partition.
   */
  postedAt(): number {
    return this.partitionedAt ?? this.clock.now();
  }

  /** Cuts (true) or heals (false) the connection; healing delivers what was held, in order. */
  partition(on: boolean): void {
    if (on) {
      this.partitionedAt ??= this.clock.now();
      return;
    }
    this.partitionedAt = undefined;
    for (const deliver of this.held.splice(0)) deliver();
  }

  /** Hands the kubelet something the API server sent: now, or once the partition heals. */
  deliver(fn: () => void): void {
    if (this.partitioned) this.held.push(fn);
    else fn();
  }
}
