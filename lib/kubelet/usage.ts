/**
 * Container and pod resource usage from the CRI's ListContainerStats, as the kubelet's CRI stats
 * provider reads it (pkg/kubelet/stats/cri_stats_provider.go): CPU in cores from the growth of
 * the cumulative `usage_core_nano_seconds` between two samples of the same container
 * (getAndUpdateContainerUsageNanoCores: Δ core-ns / Δ ns), memory as the working set
 * (`working_set_bytes`, what the eviction manager and `kubectl top` use). A pod's usage is the sum
 * of its running containers'. Pure: the previous samples are passed in and handed back.
 */
import { formatAmount } from './pressure';
import { finite, isObj } from './util';

export interface ResourceUsage {
  /** CPU over the last sampling interval, cores; absent until a container has two samples. */
  cpuCores?: number;
  /** Memory working set, bytes. */
  memoryBytes?: number;
}

export interface PodUsage extends ResourceUsage {
  /** By container name (the running containers the runtime reported stats for). */
  containers: Record<string, ResourceUsage>;
}

/** One node's usage at one sample time. */
export interface NodeUsage {
  /** Epoch ms of the sample (our clock). */
  at: number;
  /** By pod uid. */
  pods: Record<string, PodUsage>;
}

/** What one ListContainerStats entry says, narrowed to what usage needs. */
export interface UsageSample {
  /** CRI container id. */
  id: string;
  podUid: string;
  container: string;
  /** The CPU sample's own timestamp, epoch ms. */
  cpuAt?: number;
  usageCoreNanoSeconds?: number;
  workingSetBytes?: number;
}

/** The previous CPU reading per container id (and the cores it gave). */
export type CpuCursor = ReadonlyMap<string, CpuReading>;
interface CpuReading {
  at: number;
  coreNanos: number;
  cores?: number;
}

const num = (v: unknown): number | undefined => {
  const n = finite(v, Number.NaN);
  return Number.isNaN(n) || n < 0 ? undefined : n;
};

/**
 * Usage from one round of samples. `running` says which container ids count (stats of stopped
 * containers are left out of a pod's sum). Returns the usage and the cursor for the next round.
 */
export function computeUsage(
  samples: readonly UsageSample[],
  previous: CpuCursor,
  at: number,
  running: (id: string) => boolean = () => true,
): { usage: NodeUsage; cursor: Map<string, CpuReading> } {
  const cursor = new Map<string, CpuReading>();
  const pods: Record<string, PodUsage> = {};
  for (const s of samples) {
    if (!isObj(s) || typeof s.id !== 'string' || !s.podUid || !s.container) continue;
    if (!running(s.id)) continue;
    const c: ResourceUsage = {};
    const nanos = num(s.usageCoreNanoSeconds);
    const t = num(s.cpuAt);
    if (nanos !== undefined && t !== undefined) {
      const before = previous.get(s.id);
      if (before && t === before.at && nanos === before.coreNanos) {
        // The runtime answered with the same sample (containerd caches stats): nothing new.
        if (before.cores !== undefined) c.cpuCores = before.cores;
        cursor.set(s.id, before);
      } else {
        // A counter that went backwards (a new cgroup under the same id) starts over.
        if (before && t > before.at && nanos >= before.coreNanos)
          c.cpuCores = (nanos - before.coreNanos) / ((t - before.at) * 1e6);
        cursor.set(s.id, {
          at: t,
          coreNanos: nanos,
          ...(c.cpuCores !== undefined ? { cores: c.cpuCores } : {}),
        });
      }
    }
    const ws = num(s.workingSetBytes);
    if (ws !== undefined) c.memoryBytes = ws;
    const pod = (pods[s.podUid] ??= { containers: {} });
    pod.containers[s.container] = c;
    if (c.cpuCores !== undefined) pod.cpuCores = (pod.cpuCores ?? 0) + c.cpuCores;
    if (c.memoryBytes !== undefined) pod.memoryBytes = (pod.memoryBytes ?? 0) + c.memoryBytes;
  }
  return { usage: { at, pods }, cursor };
}

const MiB = 2 ** 20;

/** A change worth recording: memory by more than max(1 MiB, 10 %), CPU by max(0.01 cores, 10 %). */
function differs(a: ResourceUsage | undefined, b: ResourceUsage | undefined): boolean {
  if (!a || !b) return a !== b;
  const memory = (x?: number, y?: number) =>
    x === undefined || y === undefined
      ? x !== y
      : Math.abs(x - y) > Math.max(MiB, 0.1 * Math.max(x, y));
  const cpu = (x?: number, y?: number) =>
    x === undefined || y === undefined
      ? x !== y
      : Math.abs(x - y) > Math.max(0.01, 0.1 * Math.max(x, y));
  return memory(a.memoryBytes, b.memoryBytes) || cpu(a.cpuCores, b.cpuCores);
}

/**
 * What `next` says that `recorded` does not: `shape` when pods or containers came or went or a
 * figure appeared or went away, `moved` when a figure moved beyond the thresholds above, else
 * `none`.
 */
export function usageChange(
  recorded: NodeUsage | undefined,
  next: NodeUsage,
): 'none' | 'moved' | 'shape' {
  if (!recorded) return 'shape';
  const a = Object.keys(recorded.pods);
  const b = Object.keys(next.pods);
  if (a.length !== b.length) return 'shape';
  let moved = false;
  for (const uid of b) {
    const p = recorded.pods[uid];
    const q = next.pods[uid];
    if (!p || !q) return 'shape';
    const names = Object.keys(q.containers);
    if (names.length !== Object.keys(p.containers).length) return 'shape';
    for (const n of names) {
      const x = p.containers[n];
      const y = q.containers[n];
      if (!x || !y) return 'shape';
      if ((x.cpuCores === undefined) !== (y.cpuCores === undefined)) return 'shape';
      if ((x.memoryBytes === undefined) !== (y.memoryBytes === undefined)) return 'shape';
      moved ||= differs(x, y);
    }
  }
  return moved ? 'moved' : 'none';
}

/** The pods using the most memory, largest first. */
export function topMemoryPods(
  usage: NodeUsage | undefined,
  n = 3,
): { uid: string; memoryBytes: number }[] {
  if (!isObj(usage) || !isObj(usage.pods)) return [];
  return Object.entries(usage.pods)
    .flatMap(([uid, p]) =>
      isObj(p) && typeof p.memoryBytes === 'number' ? [{ uid, memoryBytes: p.memoryBytes }] : [],
    )
    .sort((x, y) => y.memoryBytes - x.memoryBytes || (x.uid < y.uid ? -1 : 1))
    .slice(0, n);
}

/** "ns/a 7Gi, ns/b 12Mi": the pods using the most memory, for a pressure explanation. */
export function memoryUsersText(users: readonly { name: string; memoryBytes: number }[]): string {
  return users
    .map((u) => `${u.name} ${formatAmount('memory.available', u.memoryBytes)}`)
    .join(', ');
}
