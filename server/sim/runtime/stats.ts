/**
 * Resource figures of a simulated node: per-container and per-pod stats (ListContainerStats,
 * ListPodSandboxStats), the image filesystem (ImageFsInfo), and node capacity published through
 * Status(verbose).info["podscope.sim/node"] so node pressure can be derived.
 *
 * CPU time is integrated by each process (process.ts), so usage_core_nano_seconds only grows;
 * the working set is the process's resident memory with a deterministic wander (±2% for busybox
 * processes, ±10% for `serve`), re-drawn every 10 virtual seconds from the container id — it
 * moves without any timer. Shapes follow containerd 1.6: every container gets an entry, cpu and
 * memory only while running; only ready sandboxes have pod stats.
 */
import type { ContainerStats } from '@/server/cri/generated/runtime/v1/ContainerStats';
import type { ContainerStatsFilter__Output } from '@/server/cri/generated/runtime/v1/ContainerStatsFilter';
import type { FilesystemUsage } from '@/server/cri/generated/runtime/v1/FilesystemUsage';
import type { ImageFsInfoResponse } from '@/server/cri/generated/runtime/v1/ImageFsInfoResponse';
import type { MemoryUsage } from '@/server/cri/generated/runtime/v1/MemoryUsage';
import type { PodSandboxStats } from '@/server/cri/generated/runtime/v1/PodSandboxStats';
import type { PodSandboxStatsFilter__Output } from '@/server/cri/generated/runtime/v1/PodSandboxStatsFilter';
import type { ContainerRecord, SimRuntime } from './model';
import { noise } from '@/lib/random';

export const SNAPSHOTTER_MOUNT = '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs';
const WANDER_BUCKET_MS = 10_000;
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** The node's fixed figures; the varying ones are computed from what runs. */
export interface NodeCapacity {
  memoryCapacityBytes: number;
  /** Memory the OS and system daemons hold (not in any container). */
  systemMemoryBytes: number;
  fsCapacityBytes: number;
  /** Bytes used on the node filesystem outside images and containers. */
  systemFsBytes: number;
  fsInodes: number;
  systemInodes: number;
  pidMax: number;
  systemPids: number;
}

export const DEFAULT_CAPACITY: NodeCapacity = {
  memoryCapacityBytes: 8 * GiB,
  systemMemoryBytes: 900 * MiB,
  fsCapacityBytes: 100 * GiB,
  systemFsBytes: 18 * GiB,
  fsInodes: 6_553_600,
  systemInodes: 420_000,
  pidMax: 4_194_304,
  systemPids: 260,
};

/** Extra usage injected by tests and demos to push the node into pressure. */
export interface NodePressure {
  memoryBytes: number;
  diskBytes: number;
  inodes: number;
  pids: number;
}

const ns = (ms: number): string => (BigInt(Math.round(ms * 1000)) * 1000n).toString();
const u64 = (n: number) => ({ value: Math.max(0, Math.round(n)).toString() });

export class StatsView {
  capacity: NodeCapacity;
  pressure: NodePressure = { memoryBytes: 0, diskBytes: 0, inodes: 0, pids: 0 };

  constructor(
    private readonly runtime: SimRuntime,
    capacity: Partial<NodeCapacity> = {},
  ) {
    this.capacity = { ...DEFAULT_CAPACITY, ...capacity };
  }

  /** Working set of a running container, bytes (0 when not running). */
  workingSet(c: ContainerRecord): number {
    const proc = c.process;
    if (!proc) return 0;
    const base = proc.memoryBytes();
    const amplitude = c.image.entry.rootfs.serve ? 0.1 : 0.02;
    const bucket = Math.floor(this.runtime.clock.now() / WANDER_BUCKET_MS);
    const wander = 1 + amplitude * (2 * noise(c.id, bucket) - 1);
    const ws = base * wander;
    return c.memoryLimitBytes > 0 ? Math.min(ws, c.memoryLimitBytes) : ws;
  }

  private writableLayerBytes(c: ContainerRecord): number {
    return 8192 + 4096 * c.files.size;
  }

  private writableLayer(c: ContainerRecord, now: number): FilesystemUsage {
    return {
      timestamp: ns(now),
      fs_id: { mountpoint: SNAPSHOTTER_MOUNT },
      used_bytes: u64(this.writableLayerBytes(c)),
      inodes_used: u64(4 + c.files.size),
    };
  }

  private memory(ws: number, limit: number, now: number): MemoryUsage {
    const usage: MemoryUsage = {
      timestamp: ns(now),
      working_set_bytes: u64(ws),
      usage_bytes: u64(ws * 1.08),
      rss_bytes: u64(ws * 0.85),
      page_faults: u64(ws / 4096),
      major_page_faults: u64(0),
    };
    // containerd 1.6 (cgroup v1 getAvailableBytes): limit − working set, 0 when unlimited.
    usage.available_bytes = u64(limit > 0 ? limit - ws : 0);
    return usage;
  }

  containerStats(c: ContainerRecord): ContainerStats {
    const now = this.runtime.clock.now();
    const stats: ContainerStats = {
      attributes: {
        id: c.id,
        metadata: c.metadata,
        labels: c.labels,
        annotations: c.annotations,
      },
      writable_layer: this.writableLayer(c, now),
    };
    const proc = c.process;
    if (proc) {
      stats.cpu = {
        timestamp: ns(now),
        usage_core_nano_seconds: u64(proc.cpuCoreNanos()),
        usage_nano_cores: u64(proc.cpuCores() * 1e9),
      };
      stats.memory = this.memory(this.workingSet(c), c.memoryLimitBytes, now);
    }
    return stats;
  }

  listContainerStats(filter: ContainerStatsFilter__Output | null): ContainerStats[] {
    const out: ContainerStats[] = [];
    for (const c of this.runtime.containers.values()) {
      if (filter) {
        if (filter.id !== '' && !c.id.startsWith(filter.id)) continue;
        if (filter.pod_sandbox_id !== '' && !c.sandboxId.startsWith(filter.pod_sandbox_id))
          continue;
        if (!Object.entries(filter.label_selector).every(([k, v]) => c.labels[k] === v)) continue;
      }
      out.push(this.containerStats(c));
    }
    return out;
  }

  listPodSandboxStats(filter: PodSandboxStatsFilter__Output | null): PodSandboxStats[] {
    const now = this.runtime.clock.now();
    const out: PodSandboxStats[] = [];
    for (const s of this.runtime.sandboxes.values()) {
      if (s.state !== 'SANDBOX_READY') continue;
      if (filter) {
        if (filter.id !== '' && !s.id.startsWith(filter.id)) continue;
        if (!Object.entries(filter.label_selector).every(([k, v]) => s.labels[k] === v)) continue;
      }
      const running = this.runtime.containersOf(s.id).filter((c) => c.process);
      let cpuNanos = 0;
      let cores = 0;
      let ws = 0;
      for (const c of running) {
        cpuNanos += this.runtime.cpuCoreNanos(c);
        cores += c.process?.cpuCores() ?? 0;
        ws += this.workingSet(c);
      }
      // The sandbox's own process (the "pause" sleep) is part of the pod cgroup.
      ws += 256 * 1024;
      const stats: PodSandboxStats = {
        attributes: {
          id: s.id,
          metadata: s.metadata,
          labels: s.labels,
          annotations: s.annotations,
        },
        linux: {
          cpu: {
            timestamp: ns(now),
            usage_core_nano_seconds: u64(cpuNanos),
            usage_nano_cores: u64(cores * 1e9),
          },
          memory: this.memory(ws, 0, now),
          process: { timestamp: ns(now), process_count: u64(1 + running.length) },
          containers: running.map((c) => this.containerStats(c)),
        },
      };
      if (s.network !== 'NODE' && stats.linux) {
        const secs = Math.max(0, (now - s.createdAt) / 1000);
        stats.linux.network = {
          timestamp: ns(now),
          default_interface: {
            name: 'eth0',
            rx_bytes: u64(secs * 2048 * running.length),
            rx_errors: u64(0),
            tx_bytes: u64(secs * 1024 * running.length),
            tx_errors: u64(0),
          },
          interfaces: [],
        };
      }
      out.push(stats);
    }
    return out;
  }

  private containersDiskBytes(): number {
    let total = 0;
    for (const c of this.runtime.containers.values()) total += this.writableLayerBytes(c);
    return total;
  }

  imageFsInfo(): ImageFsInfoResponse {
    const now = this.runtime.clock.now();
    return {
      image_filesystems: [
        {
          timestamp: ns(now),
          fs_id: { mountpoint: SNAPSHOTTER_MOUNT },
          used_bytes: u64(this.runtime.images.totalBytes() + this.containersDiskBytes()),
          inodes_used: u64(
            this.runtime.images.list().length * 300 + this.runtime.containers.size * 4,
          ),
        },
      ],
      container_filesystems: [],
    };
  }

  /** Status(verbose).info["podscope.sim/node"]: JSON of NodeResources (lib/kubelet/runtime.ts). */
  nodeFigures(): Record<string, number> {
    const cap = this.capacity;
    const p = this.pressure;
    let memory = 0;
    let pids = 0;
    for (const c of this.runtime.containers.values()) {
      if (c.process) {
        memory += this.workingSet(c);
        pids += 1;
      }
    }
    pids += this.runtime.sandboxes.size;
    const fsUsed =
      cap.systemFsBytes +
      this.runtime.images.totalBytes() +
      this.containersDiskBytes() +
      p.diskBytes;
    const inodesUsed =
      cap.systemInodes +
      this.runtime.images.list().length * 300 +
      this.runtime.containers.size * 4 +
      p.inodes;
    const fsAvailable = Math.max(0, cap.fsCapacityBytes - fsUsed);
    const inodesFree = Math.max(0, cap.fsInodes - inodesUsed);
    return {
      memoryCapacityBytes: cap.memoryCapacityBytes,
      memoryAvailableBytes: Math.max(
        0,
        Math.round(cap.memoryCapacityBytes - cap.systemMemoryBytes - memory - p.memoryBytes),
      ),
      nodeFsCapacityBytes: cap.fsCapacityBytes,
      nodeFsAvailableBytes: fsAvailable,
      nodeFsInodes: cap.fsInodes,
      nodeFsInodesFree: inodesFree,
      // One filesystem holds both, as on a default containerd node.
      imageFsCapacityBytes: cap.fsCapacityBytes,
      imageFsAvailableBytes: fsAvailable,
      imageFsInodes: cap.fsInodes,
      imageFsInodesFree: inodesFree,
      pidMax: cap.pidMax,
      pidsInUse: cap.systemPids + pids + p.pids,
    };
  }
}
