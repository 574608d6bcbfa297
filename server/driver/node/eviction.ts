/**
 * The kubelet's eviction manager, for memory: every 10 s it observes `memory.available`, and
 * while a hard threshold is met (default memory.available<100Mi) it evicts one pod per pass,
 * ranked as upstream ranks them, killing it at once (a hard threshold allows no grace period; the
 * runtime's 2 s minimum still applies) and failing it with reason Evicted and the kubelet's
 * message. Node conditions (MemoryPressure and its 5-minute transition period) are the engine's
 * (lib/kubelet/node.ts); this is the acting half.
 *
 * Port of pkg/kubelet/eviction (kubernetes/kubernetes master, read as of v1.36):
 * - eviction_manager.go `synchronize`: thresholds met by the observations → rank the active pods
 *   for the starved resource → the first pod that is not critical is evicted → return (one pod per
 *   pass), then `waitForPodsCleanup` (up to podCleanupTimeout, 30 s) before the next pass;
 *   `evictPod`: the Warning event `Evicted` with the message, the status function (phase
 *   Failed, reason Evicted, DisruptionTarget TerminationByKubelet);
 * - helpers.go `rankMemoryPressure` = orderedBy(exceedMemoryRequests, priority, memory): pods
 *   whose working set exceeds their memory requests first, then lower priority first, then the
 *   larger usage above requests first — which puts BestEffort pods (request 0) first, Burstable
 *   pods over their requests next, and Guaranteed pods (usage ≤ request = limit) last;
 *   `evictionMessage`: "The node was low on resource: memory. Threshold quantity: 100Mi,
 *   available: 0. Container c was using 1536Mi, request is 0, has larger consumption of memory. "
 *   (nodeLowMessageFmt, thresholdMetMessageFmt, containerMessageFmt, trailing spaces included);
 * - kubelet.go: evictionMonitoringPeriod 10 s; pkg/kubelet/types IsCriticalPodBasedOnPriority
 *   (priority ≥ 2000000000 is never evicted).
 *
 * Observations come from the runtime: the node's figures from Podscope's simulator (Status
 * verbose info; a real containerd publishes none, so there — as without cadvisor — the manager
 * observes nothing and evicts nothing) and each container's working set from ListContainerStats.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { DEFAULT_EVICTION_HARD, judge, thresholdAmount } from '@/lib/kubelet/pressure';
import { LABELS, type NodeResources } from '@/lib/kubelet/runtime';
import { resourceQuantity } from '@/lib/kubelet/quantity';
import type { DriverClock, DriverTimer } from '../clock';

export const EVICTION_MONITORING_MS = 10_000;
export const POD_CLEANUP_TIMEOUT_MS = 30_000;
export const EVICTED_REASON = 'Evicted';
/** scheduling.SystemCriticalPriority. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

export interface EvictionSource {
  status?(options?: { verbose?: boolean }): Promise<{ node?: NodeResources }>;
  listContainerStats?(): Promise<
    readonly {
      name: string;
      labels: Readonly<Record<string, string>>;
      memory?: { workingSetBytes?: number };
    }[]
  >;
}

/** A pod the manager may evict (the driver's active pod workers). */
export interface EvictionCandidate {
  uid: string;
  pod: V1Pod;
  evict(message: string): void;
  /** The pod still holds resources (containers running): the manager waits for its cleanup. */
  readonly cleanedUp: boolean;
}

/** resource.Quantity.String() of a byte count in BinarySI: the largest exact binary suffix. */
export function binaryQuantity(bytes: number): string {
  const n = Math.round(bytes);
  if (n === 0) return '0';
  const suffixes = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
  let value = n;
  let suffix = '';
  for (const s of suffixes) {
    if (value % 1024 !== 0) break;
    value /= 1024;
    suffix = s;
  }
  return `${value}${suffix}`;
}

function memoryRequest(c: { resources?: { requests?: Record<string, unknown> } }): number {
  const q = c.resources?.requests?.memory;
  if (typeof q !== 'string' && typeof q !== 'number') return 0;
  const parsed = resourceQuantity(q);
  return parsed ?? 0;
}

interface Ranked {
  candidate: EvictionCandidate;
  usage: number;
  request: number;
  priority: number;
  /** Per container: name, working set, request. */
  containers: { name: string; usage: number; request: number }[];
}

/** rankMemoryPressure: exceeds requests first, then lower priority, then more usage above request. */
export function rankMemoryPressure(pods: Ranked[]): Ranked[] {
  return [...pods].sort((a, b) => {
    const ea = a.usage > a.request ? 1 : 0;
    const eb = b.usage > b.request ? 1 : 0;
    if (ea !== eb) return eb - ea;
    if (a.priority !== b.priority) return a.priority - b.priority;
    return b.usage - b.request - (a.usage - a.request);
  });
}

export function evictionMessage(
  thresholdBytes: number,
  availableBytes: number,
  containers: Ranked['containers'],
): string {
  let message = `The node was low on resource: memory. `;
  message += `Threshold quantity: ${binaryQuantity(thresholdBytes)}, available: ${binaryQuantity(availableBytes)}. `;
  for (const c of containers) {
    if (c.usage > c.request)
      message += `Container ${c.name} was using ${binaryQuantity(c.usage)}, request is ${binaryQuantity(c.request)}, has larger consumption of memory. `;
  }
  return message;
}

export class EvictionManager {
  private timer: DriverTimer | undefined;
  private stopped = false;
  private waitingFor: { candidate: EvictionCandidate; since: number } | undefined;

  constructor(
    private readonly options: {
      runtime: EvictionSource;
      clock: DriverClock;
      candidates: () => EvictionCandidate[];
      log: (line: string) => void;
    },
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    if (!this.options.runtime.status || !this.options.runtime.listContainerStats) return;
    this.timer = this.options.clock.setTimer(EVICTION_MONITORING_MS, () => {
      this.timer = undefined;
      void this.synchronize()
        .catch((err: unknown) =>
          this.options.log(`eviction manager: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => this.start());
    });
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** One pass of the manager's control loop; the uid it evicted, if any. */
  async synchronize(): Promise<string | undefined> {
    const { runtime, clock } = this.options;
    const now = clock.now();
    // waitForPodsCleanup: after an eviction, wait (up to 30 s) until the pod let go of its resources.
    if (this.waitingFor) {
      if (
        !this.waitingFor.candidate.cleanedUp &&
        now - this.waitingFor.since < POD_CLEANUP_TIMEOUT_MS
      )
        return undefined;
      this.waitingFor = undefined;
    }
    const status = await runtime.status?.({ verbose: true });
    const threshold = DEFAULT_EVICTION_HARD['memory.available'];
    if (!status?.node || !threshold) return undefined;
    const verdict = judge(status.node, DEFAULT_EVICTION_HARD, 'memory.available');
    if (verdict.kind !== 'met') return undefined;
    const thresholdBytes = thresholdAmount(threshold, status.node.memoryCapacityBytes) ?? 0;
    const available = Math.max(0, status.node.memoryAvailableBytes ?? 0);

    const stats = (await runtime.listContainerStats?.()) ?? [];
    const ranked: Ranked[] = [];
    for (const candidate of this.options.candidates()) {
      const spec = candidate.pod.spec;
      const priority = spec?.priority ?? 0;
      if (priority >= SYSTEM_CRITICAL_PRIORITY) continue;
      const containers = (spec?.containers ?? []).map((c) => {
        const s = stats.find((x) => x.labels[LABELS.podUid] === candidate.uid && x.name === c.name);
        return { name: c.name, usage: s?.memory?.workingSetBytes ?? 0, request: memoryRequest(c) };
      });
      ranked.push({
        candidate,
        priority,
        containers,
        usage: containers.reduce((n, c) => n + c.usage, 0),
        request: containers.reduce((n, c) => n + c.request, 0),
      });
    }
    const first = rankMemoryPressure(ranked)[0];
    if (!first) {
      this.options.log('eviction manager: memory is short, but there is no pod to evict');
      return undefined;
    }
    const message = evictionMessage(thresholdBytes, available, first.containers);
    this.options.log(`eviction manager: evicting ${first.candidate.uid}: ${message}`);
    first.candidate.evict(message);
    this.waitingFor = { candidate: first.candidate, since: now };
    return first.candidate.uid;
  }
}
