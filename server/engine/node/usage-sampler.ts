/**
 * One node's container resource usage: a ListContainerStats call every `statsMs` (10 s, the
 * kubelet's evictionMonitoringPeriod — how often its eviction manager reads the summary stats),
 * turned into CPU cores and working sets per container and pod (lib/kubelet/usage.ts) and recorded
 * as NodeUpdated { usage } when pods, containers or figures came or went, and when figures moved
 * enough to matter (usageChange) — then at most once a minute (RECORD_MOVED_MS), since a busy
 * node's working sets wander all the time. A quiet node records nothing.
 *
 * Bounded cost: one call per node per period and never two at once; read-only (the call is on the
 * agent's CRI allow-list); a runtime without the call (UNIMPLEMENTED) is asked once, then left
 * alone. Holds state only; the node engine numbers and emits what it returns.
 */
import { computeUsage, usageChange, type CpuCursor, type NodeUsage } from '@/lib/kubelet/usage';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import type { LogFn } from '@/server/log';
import type { RuntimeClient } from '../relist/runtime-client';

/** Figures that only moved are recorded at most this often (per node). */
export const RECORD_MOVED_MS = 60_000;

export class UsageSampler {
  private cursor: CpuCursor = new Map();
  private inFlight = false;
  private unsupported = false;
  private failing = false;
  /** The usage of the last successful sample (recorded or not). */
  latest: NodeUsage | undefined;

  constructor(
    private readonly node: string,
    private readonly client: RuntimeClient,
    private readonly log?: LogFn,
  ) {}

  /**
   * Samples once: the events to record (none when nothing moved, the call is in flight already,
   * or the runtime has no stats). `running` tells which container ids count; `recorded` is what
   * the timeline holds now.
   */
  async sample(
    now: () => number,
    running: (id: string) => boolean,
    recorded: () => NodeUsage | undefined,
  ): Promise<UnsequencedEvent[]> {
    if (!this.client.listContainerStats || this.unsupported || this.inFlight) return [];
    this.inFlight = true;
    try {
      const samples = await this.client.listContainerStats();
      const at = now();
      const { usage, cursor } = computeUsage(samples, this.cursor, at, running);
      this.cursor = cursor;
      this.latest = usage;
      if (this.failing) this.log?.(`${this.node}: ListContainerStats answers again`);
      this.failing = false;
      const before = recorded();
      const change = usageChange(before, usage);
      if (change === 'none') return [];
      if (change === 'moved' && before && at - before.at < RECORD_MOVED_MS) return [];
      return [{ kind: 'node', type: 'NodeUpdated', node: this.node, t: at, usage }];
    } catch (err) {
      const e = err as { unimplemented?: unknown; message?: unknown };
      if (e.unimplemented === true) {
        this.unsupported = true;
        this.log?.(`${this.node}: the runtime has no ListContainerStats; no CPU or memory figures`);
      } else if (!this.failing) {
        this.failing = true;
        this.log?.(`${this.node}: ListContainerStats failed: ${String(e.message ?? err)}`, 'warn');
      }
      return [];
    } finally {
      this.inFlight = false;
    }
  }
}
