/**
 * An API server for scenarios, on the scenario clock: the objects a real one would hold for the
 * scenario's node — its pods, the Node and its Lease — written the way the real writers write
 * them, so lib/drift can compare them with the runtime exactly as the console's join does
 * (server/kube/bridge.ts: DriftTracker → driftEvents → the timeline).
 *
 * The writers:
 * - the kubelet (the stand-in, while its API connection holds — `partition` cuts it): renews the
 *   node Lease every 10 s (pkg/kubelet/nodelease, 0.25 × nodeLeaseDurationSeconds 40 s), posts
 *   node status every nodeStatusUpdateFrequency (10 s, pkg/kubelet/kubelet_node_status.go), and
 *   posts a pod's status as soon as it changes (pkg/kubelet/status/status_manager.go); once a
 *   deleted pod's containers are gone it removes the pod object (status manager canBeDeleted);
 * - the node lifecycle controller (pkg/controller/nodelifecycle tryUpdateNodeHealth, every
 *   node-monitor-period 5 s): a node heard from neither by Lease nor by status for
 *   node-monitor-grace-period (50 s) gets Ready, MemoryPressure, DiskPressure and PIDPressure
 *   Unknown (NodeStatusUnknown, "Kubelet stopped posting node status."), the
 *   node.kubernetes.io/unreachable:NoExecute taint, and — when its Ready was True — its pods
 *   Ready=False (MarkPodsNotReady, lib/controller/nodelifecycle.ts);
 * - deletion: a graceful `delete` or a taint eviction (taint-eviction.ts) sets deletionTimestamp
 *   and leaves the object until the kubelet confirms; `forceDelete` (kubectl delete --force
 *   --grace-period=0) removes it at once — the kubelet hears of it only when its watch reaches
 *   it, and until then the pod runs on the node with no API object: an orphan.
 *
 * What the kubelet posts is what the engine derives from the runtime with the kubelet's rules
 * (the stand-in's own status, as the console shows it), so while the connection holds both sides
 * agree; during a partition the API server's copies freeze and lib/drift shows where.
 */
import type { V1Lease, V1Node, V1NodeCondition, V1Pod, V1Taint } from '@kubernetes/client-node';
import { NODE_LEASE_NAMESPACE, type ApiObjects } from '@/lib/drift/api';
import { DriftTracker } from '@/lib/drift/tracker';
import type { ClusterDrift } from '@/lib/drift/types';
import {
  markPodsNotReadyDecision,
  markReadyFalse,
  type ConditionStatus,
} from '@/lib/controller/nodelifecycle';
import { NodeStatusUnknownMessage, NodeStatusUnknownReason } from '@/lib/kubelet/node';
import { KUBELET_DEFAULTS } from '@/lib/kubelet/timings';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import type { ClusterState, NodeView } from '@/lib/timeline/state';
import type { DriverClock, DriverTimer } from '@/server/driver/clock';
import { DriftBridge, type DriftSource } from '@/server/kube/bridge';
import type { ScenarioDriver } from './runner';

export const API_SERVER_TIMINGS = {
  /** How often the model's writers look at the clock when it runs its own timer. */
  tickMs: 1_000,
  leaseDurationSeconds: 40,
  leaseRenewMs: 10_000,
  nodeStatusUpdateMs: KUBELET_DEFAULTS.nodeStatusUpdateFrequencyMs,
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: KUBELET_DEFAULTS.nodeMonitorGracePeriodMs,
} as const;

export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
const CONTROLLER_CONDITIONS = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'] as const;
/** Reasons only the node controller writes: never the kubelet's own status. */
const CONTROLLER_REASONS = new Set([NodeStatusUnknownReason, 'NodeStatusNeverUpdated']);

/** What the model needs of the kubelet stand-in (server/driver's Driver). */
export interface ApiServerDriver extends ScenarioDriver {
  /** True while the kubelet is cut off from the API server. */
  readonly partitioned?: boolean;
}

export interface ApiServerOptions {
  driver: ApiServerDriver;
  clock: DriverClock;
  /** What the kubelet would report now (the engine's snapshot), read synchronously. */
  observe: () => ClusterState;
  /** Appends to the timeline (the engine's record()). */
  record: (events: UnsequencedEvent[]) => void;
  log?: (line: string) => void;
}

const ms = (v: Date | string | undefined | null): number | undefined => {
  if (v === undefined || v === null) return undefined;
  const n = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isNaN(n) ? undefined : n;
};

export class ScenarioApiServer implements DriftSource {
  readonly node: string;
  private readonly pods = new Map<string, V1Pod>();
  private readonly deleted = new Map<string, number>();
  /** Pods removed from the API server that the kubelet has not heard of yet. */
  private readonly unheard = new Set<string>();
  private readonly nodeObject: V1Node;
  private readonly lease: V1Lease;
  private readonly tracker = new DriftTracker({
    leaseDurationSeconds: API_SERVER_TIMINGS.leaseDurationSeconds,
  });
  private readonly bridge: DriftBridge;
  private lastRenew = -Infinity;
  private lastNodeStatus = -Infinity;
  private lastMonitor = -Infinity;
  private timer: DriverTimer | undefined;
  private stopped = false;

  constructor(private readonly options: ApiServerOptions) {
    this.node = options.driver.node;
    this.nodeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: this.node },
      spec: {},
      status: { conditions: [] },
    };
    this.lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.node, namespace: NODE_LEASE_NAMESPACE },
      spec: {
        holderIdentity: this.node,
        leaseDurationSeconds: API_SERVER_TIMINGS.leaseDurationSeconds,
      },
    };
    this.bridge = new DriftBridge(
      this,
      {
        state: () => options.observe(),
        append: (events) => options.record(events),
        now: () => options.clock.now(),
      },
      { onError: (err) => this.log(`drift: ${err instanceof Error ? err.message : String(err)}`) },
    );
  }

  // ── the scenario's side ──────────────────────────────────────────────────

  /**
   * The driver as the runner should use it: every pod change goes through the API server first,
   * as `kubectl` and the controllers would make it.
   */
  wrap(): ScenarioDriver {
    const d = this.options.driver;
    return {
      node: d.node,
      configs: d.configs,
      resyncAll: () => d.resyncAll(),
      apply: async (pod) => {
        const applied = await d.apply(pod);
        this.created(applied);
        return applied;
      },
      delete: (uid, opts) => {
        this.markDeleted(uid, opts?.gracePeriodSeconds);
        return d.delete(uid, opts);
      },
      evict: (uid) => {
        this.markDeleted(uid);
        d.evict?.(uid);
      },
      forceDelete: (uid) => this.forceDelete(uid),
      ...(d.partition ? { partition: (on: boolean) => d.partition?.(on) } : {}),
      ...(d.pods ? { pods: () => d.pods?.() ?? [] } : {}),
    };
  }

  /** Runs the writers on the scenario clock every second (a session; a recording calls tick()). */
  start(): void {
    if (this.timer || this.stopped) return;
    const arm = () => {
      this.timer = this.options.clock.setTimer(API_SERVER_TIMINGS.tickMs, () => {
        this.timer = undefined;
        if (this.stopped) return;
        this.tick();
        arm();
      });
    };
    this.tick();
    arm();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** When the kubelet last renewed its Lease (for the engine: kubeletPostedAt). */
  postedAt(node: string): number | undefined {
    if (node !== this.node) return undefined;
    return Number.isFinite(this.lastRenew) ? this.lastRenew : undefined;
  }

  /**
   * One round: the kubelet posts what is due (if it can reach the API server), the node
   * controller looks at the node, then the comparison runs and its changes reach the timeline.
   */
  tick(): void {
    if (this.stopped) return;
    const now = this.options.clock.now();
    const state = this.options.observe();
    const view = state.nodes[this.node];
    if (!this.options.driver.partitioned) this.kubelet(now, view);
    if (now - this.lastMonitor >= API_SERVER_TIMINGS.nodeMonitorPeriodMs) {
      this.lastMonitor = now;
      this.nodeController(now);
    }
    this.bridge.tick();
  }

  // ── DriftSource (what the console's DriftBridge reads of a KubeView) ─────

  drift(nodes: Readonly<Record<string, NodeView>>, now: number): ClusterDrift {
    return this.tracker.detect(this.apiObjects(), nodes, now);
  }

  onEvent(): () => void {
    return () => undefined;
  }

  onResourceChange(): () => void {
    return () => undefined;
  }

  apiObjects(): ApiObjects {
    return {
      pods: [...this.pods.values()],
      nodes: [this.nodeObject],
      leases: this.lease.spec?.renewTime ? [this.lease] : [],
      deletedPods: Object.fromEntries(this.deleted),
    };
  }

  /** The API server's copy of a pod (tests, and what `kubectl get` would print). */
  pod(uid: string): V1Pod | undefined {
    return this.pods.get(uid);
  }

  nodeStatus(): V1Node {
    return this.nodeObject;
  }

  // ── writers ──────────────────────────────────────────────────────────────

  private created(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    if (!uid) return;
    const now = new Date(this.options.clock.now());
    this.pods.set(uid, {
      ...structuredClone(pod),
      metadata: { ...structuredClone(pod.metadata), creationTimestamp: now },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: now }],
      },
    });
  }

  private markDeleted(uid: string, grace?: number): void {
    const pod = this.pods.get(uid);
    if (!pod?.metadata || pod.metadata.deletionTimestamp) return;
    pod.metadata.deletionTimestamp = new Date(this.options.clock.now());
    pod.metadata.deletionGracePeriodSeconds =
      grace ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
  }

  private forceDelete(uid: string): void {
    if (!this.pods.delete(uid)) throw new Error(`the API server has no pod with uid ${uid}`);
    this.deleted.set(uid, this.options.clock.now());
    this.unheard.add(uid);
    this.log(`apiserver: pod ${uid} force-deleted; the kubelet hears when it can`);
  }

  private kubelet(now: number, view: NodeView | undefined): void {
    if (now - this.lastRenew >= API_SERVER_TIMINGS.leaseRenewMs) {
      this.lastRenew = now;
      if (this.lease.spec) this.lease.spec.renewTime = new Date(now);
    }
    if (view) this.postNodeStatus(now, view);
    this.postPodStatuses(view);
    this.hearRemovals();
  }

  private postNodeStatus(now: number, view: NodeView): void {
    if (now - this.lastNodeStatus < API_SERVER_TIMINGS.nodeStatusUpdateMs) return;
    // Conditions the node controller set on the view are not the kubelet's to post: they give
    // way to its own once the view has heard from it again.
    if (view.conditions.length === 0) return;
    if (view.conditions.some((c) => CONTROLLER_REASONS.has(c.reason ?? ''))) return;
    this.lastNodeStatus = now;
    const heartbeat = new Date(now);
    const conditions: V1NodeCondition[] = view.conditions.map((c) => ({
      ...structuredClone(c),
      lastHeartbeatTime: heartbeat,
    }));
    this.nodeObject.status = { ...this.nodeObject.status, conditions };
    this.setTaint(false);
  }

  private postPodStatuses(view: NodeView | undefined): void {
    const running = new Set((this.options.driver.pods?.() ?? []).map((p) => p.uid));
    for (const [uid, pod] of this.pods) {
      const seen = view?.pods[uid];
      if (seen) pod.status = structuredClone(seen.status);
      // A deleted pod whose containers are gone: the kubelet removes the object.
      else if (pod.metadata?.deletionTimestamp && !running.has(uid)) {
        this.pods.delete(uid);
        this.deleted.set(uid, this.options.clock.now());
      }
    }
  }

  /** The kubelet's watch delivers the removals it missed: it stops those pods. */
  private hearRemovals(): void {
    const running = new Set((this.options.driver.pods?.() ?? []).map((p) => p.uid));
    for (const uid of [...this.unheard]) {
      this.unheard.delete(uid);
      if (!running.has(uid)) continue;
      this.options.driver.delete(uid).catch((err: unknown) => {
        this.log(
          `apiserver: stopping removed pod ${uid}: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    }
  }

  private nodeController(now: number): void {
    const conditions = this.nodeObject.status?.conditions ?? [];
    const ready = conditions.find((c) => c.type === 'Ready');
    if (!ready) return;
    const heard = Math.max(
      ms(this.lease.spec?.renewTime) ?? -Infinity,
      ms(ready.lastHeartbeatTime) ?? -Infinity,
    );
    if (now - heard <= API_SERVER_TIMINGS.nodeMonitorGracePeriodMs) return;
    if (ready.status === 'Unknown') return;
    const at = new Date(now);
    const next = conditions.map((c) =>
      (CONTROLLER_CONDITIONS as readonly string[]).includes(c.type)
        ? {
            ...c,
            status: 'Unknown',
            reason: NodeStatusUnknownReason,
            message: NodeStatusUnknownMessage,
            lastTransitionTime: at,
          }
        : c,
    );
    this.nodeObject.status = { ...this.nodeObject.status, conditions: next };
    this.setTaint(true);
    // monitorNodeHealth marks the pods only when it turns a Ready=True node Unknown.
    if (markPodsNotReadyDecision(ready.status as ConditionStatus, 'Unknown', false))
      this.markPodsNotReady(at);
    this.log(`apiserver: node ${this.node} Ready=Unknown (no Lease renewal or status for 50 s)`);
  }

  private setTaint(on: boolean): void {
    const spec = (this.nodeObject.spec ??= {});
    const others = (spec.taints ?? []).filter((t) => t.key !== UNREACHABLE_TAINT);
    const taint: V1Taint = {
      key: UNREACHABLE_TAINT,
      effect: 'NoExecute',
      timeAdded: new Date(this.options.clock.now()),
    };
    spec.taints = on ? [...others, taint] : others;
  }

  /** MarkPodsNotReady: Ready=False on every pod of the node (only Ready, not ContainersReady). */
  private markPodsNotReady(at: Date): void {
    for (const pod of this.pods.values()) {
      if (pod.spec?.nodeName !== this.node || !pod.status) continue;
      const marked = markReadyFalse(pod.status.conditions, at.getTime());
      if (marked.changed) pod.status.conditions = marked.conditions;
    }
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}
