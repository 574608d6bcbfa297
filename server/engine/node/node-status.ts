/**
 * One node's conditions, as the kubelet's node status loop computes them: what the runtime's
 * Status call said last (its conditions, the node's resources, when RuntimeReady was last true),
 * the pressure conditions' observation times and the node's readiness — turned into
 * RuntimeConditionChanged / NodeConditionChanged events by the rules in lib/kubelet/node.ts.
 *
 * Holds state only; the node engine (node-engine.ts) numbers and emits what it returns and
 * re-derives every pod when readiness changes.
 */
import { generateNodeConditions } from '@/lib/kubelet';
import type { NodeConditionsResult, NodeReadiness, NodeTimings } from '@/lib/kubelet';
import type { NodeResources, RuntimeCondition } from '@/lib/kubelet/runtime';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { own, type NodeView } from '@/lib/timeline/state';
import { topMemoryPods, type NodeUsage } from '@/lib/kubelet/usage';
import { nodeEvents } from './node-events';
import { conditionDetail } from '../relist/relist-events';
import type { RuntimeStatusReport } from '../relist/runtime-client';

/** What the relist loop knows that the conditions read (node-watcher.ts). */
export interface RelistHeartbeat {
  readonly lastRelistAt: number | undefined;
  readonly lastContactAt: number | undefined;
  /** When the kubelet last posted node status, when a provider knows (hints.ts kubeletPostedAt). */
  readonly kubeletPostedAt?: number | undefined;
}

export class NodeStatus {
  private runtimeConditions: RuntimeCondition[] | undefined;
  private statusError: string | undefined;
  private resources: NodeResources | undefined;
  /** Last Status that found RuntimeReady true (the kubelet's lastBaseRuntimeSync). */
  private lastStatusAt: number | undefined;
  private pressureObservedAt: NodeConditionsResult['pressureObservedAt'] = {};
  private readiness: NodeReadiness;
  private users: { name: string; memoryBytes: number }[] = [];

  constructor(
    private readonly node: string,
    private readonly startedAt: number,
    private readonly timings: NodeTimings,
    now: number,
  ) {
    this.readiness = { status: 'True', since: now };
  }

  /** The pods using the most memory (from the latest stats), named for the MemoryPressure why. */
  memoryUsers(usage: NodeUsage | undefined, view: NodeView | undefined): void {
    this.users = topMemoryPods(usage).map(({ uid, memoryBytes }) => {
      const p = view ? own(view.pods, uid) : undefined;
      return { name: p ? `${p.namespace}/${p.name}` : uid, memoryBytes };
    });
  }

  /** The node's Ready condition as last evaluated (pods' Ready and eviction clocks read it). */
  get ready(): NodeReadiness {
    return this.readiness;
  }

  /** Takes in a Status answer (or its failure); the events to record when its conditions changed. */
  statusRead(
    at: number,
    status: RuntimeStatusReport | undefined,
    error?: Error,
  ): UnsequencedEvent[] {
    if (!status) {
      this.statusError = error?.message ?? 'Status failed';
      return [];
    }
    const changed = JSON.stringify(this.runtimeConditions) !== JSON.stringify(status.conditions);
    this.runtimeConditions = status.conditions;
    this.statusError = undefined;
    this.resources = status.node ?? this.resources;
    if (status.conditions.some((c) => c.type === 'RuntimeReady' && c.status))
      this.lastStatusAt = at;
    if (!changed) return [];
    const node = this.node;
    return [
      {
        kind: 'cri',
        type: 'RuntimeConditionChanged',
        source: 'relist',
        node,
        t: at,
        detail: conditionDetail(status.conditions),
      },
      { kind: 'node', type: 'NodeUpdated', node, t: at, runtimeConditions: status.conditions },
    ];
  }

  /**
   * Node conditions from the runtime's Status, the relist heartbeat and the grace periods: hands
   * the events that record what changed to `emit`, then takes the new readiness; true when the
   * readiness changed in what the pods read of it (their Ready condition, its why, the eviction
   * clock).
   */
  evaluate(
    view: NodeView,
    now: number,
    relist: RelistHeartbeat,
    emit: (events: readonly UnsequencedEvent[]) => void,
  ): boolean {
    const result = generateNodeConditions({
      now,
      ...(this.runtimeConditions ? { runtimeConditions: this.runtimeConditions } : {}),
      ...(this.statusError ? { runtimeStatusError: this.statusError } : {}),
      ...(relist.lastRelistAt !== undefined ? { lastRelistAt: relist.lastRelistAt } : {}),
      ...(relist.lastContactAt !== undefined ? { lastContactAt: relist.lastContactAt } : {}),
      ...(relist.kubeletPostedAt !== undefined ? { kubeletPostedAt: relist.kubeletPostedAt } : {}),
      ...(this.resources ? { resources: this.resources } : {}),
      ...(this.lastStatusAt !== undefined ? { lastStatusAt: this.lastStatusAt } : {}),
      oldConditions: view.conditions,
      oldReady: this.readiness,
      startedAt: this.startedAt,
      timings: this.timings,
      pressureObservedAt: this.pressureObservedAt,
      ...(this.users.length > 0 ? { memoryUsers: this.users } : {}),
    });
    this.pressureObservedAt = result.pressureObservedAt;
    const events = nodeEvents(view, result.conditions, result.why, { t: now, node: this.node });
    if (events.length === 0) return false;
    emit(events);
    const before = this.readiness;
    this.readiness = result.ready;
    // The pods' Ready (and its why) follow the status, whether the controller marked them, and
    // the kubelet's reason for a Ready=False.
    return (
      result.ready.status !== before.status ||
      result.ready.podsMarked !== before.podsMarked ||
      result.ready.cause !== before.cause
    );
  }
}
