/**
 * The node lifecycle controller's decisions, as pure functions over plain objects — the parts
 * that decide what a person sees when a node is in trouble: when the controller turns a node's
 * conditions Unknown, when it marks the node's pods not ready, and which NoExecute taint it puts
 * on the node.
 *
 * Ports (names kept), kubernetes/kubernetes:
 * - pkg/controller/nodelifecycle/node_lifecycle_controller.go @ 003e86297d18a8538c9da3619871393f9703bf70
 *   — tryUpdateNodeHealth, monitorNodeHealth (per node: processTaintBaseEviction, the
 *   MarkPodsNotReady switch, nodesToRetry), processPod, doNoExecuteTaintingPass,
 *   markNodeForTainting, markNodeAsReachable;
 * - pkg/controller/util/node/controller_utils.go (stored text @ 025f2834a128798cef30018a5e6a6ae82b5ad885)
 *   — MarkPodsNotReady, SwapNodeControllerTaint, GetNodeCondition;
 * - pkg/api/v1/pod/util.go UpdatePodCondition (a condition's lastTransitionTime moves only when
 *   its status does).
 *
 * The rule that matters most for a console: the controller marks a node's pods Ready=False only
 *  (a) in monitorNodeHealth, in the pass where it itself turns the node's Ready from True to
 *      Unknown because the kubelet posted neither status nor Lease for the grace period — or when
 *      it retries such a mark that failed; and
 *  (b) in processPod, for a pod newly bound to a node whose Ready is not True (a live kubelet then
 *      writes its own Ready back at its next status sync).
 * A Ready=False the kubelet itself posts (runtime or network not ready, PLEG unhealthy) marks no
 * pod: the kubelet is alive and keeps posting the Ready it computes. Only the NoExecute
 * not-ready taint — and the taint-eviction controller's eviction — follow.
 *
 * Not modelled: zones and their disruption states (handleDisruption, ComputeZoneState — in a zone
 * whose nodes are all not Ready the controller stops tainting and evicting), the taint queue's
 * rate limiter, node label reconciliation and NoSchedule condition taints.
 */
import type { V1NodeCondition, V1Pod, V1PodCondition, V1Taint } from '@kubernetes/client-node';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

export const NodeStatusUnknownReason = 'NodeStatusUnknown';
export const NodeStatusUnknownMessage = 'Kubelet stopped posting node status.';
export const NodeStatusNeverUpdatedReason = 'NodeStatusNeverUpdated';
export const NodeStatusNeverUpdatedMessage = 'Kubelet never posted node status.';

/** The conditions the controller turns Unknown (NetworkUnavailable is left to the control plane). */
export const CONTROLLER_CONDITION_TYPES = [
  'Ready',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
] as const;

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** The Node as the controller reads it: times are epoch ms. */
export interface ControllerNode {
  name: string;
  creationTimestamp: number;
  conditions: V1NodeCondition[];
  taints: V1Taint[];
}

/** The node's Lease in kube-node-lease (only its renewTime matters here). */
export interface NodeLease {
  renewTime: number;
}

/** nodeHealthData: what the controller last observed of a node, and when (its own clock). */
export interface NodeHealthData {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  conditions: V1NodeCondition[] | undefined;
  lease?: NodeLease;
}

export interface ControllerPeriods {
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
}

export interface TryUpdateNodeHealthResult {
  gracePeriodMs: number;
  /** The Ready condition as the node object had it when the pass began (the kubelet's word). */
  observedReadyCondition: V1NodeCondition;
  /** The Ready condition after the pass (Unknown when the controller took over); undefined: none. */
  currentReadyCondition: V1NodeCondition | undefined;
  nodeHealth: NodeHealthData;
  /** The node's conditions after the pass. */
  conditions: V1NodeCondition[];
  /** The controller posted the node's status (UpdateStatus). */
  statusUpdated: boolean;
}

const timeMs = (t: Date | undefined): number | undefined =>
  t instanceof Date && Number.isFinite(t.getTime()) ? t.getTime() : undefined;

/** GetNodeCondition. */
export function getNodeCondition(
  conditions: readonly V1NodeCondition[] | undefined,
  type: string,
): V1NodeCondition | undefined {
  return (conditions ?? []).find((c) => c.type === type);
}

const sameTime = (a: Date | undefined, b: Date | undefined) => timeMs(a) === timeMs(b);

function sameCondition(a: V1NodeCondition | undefined, b: V1NodeCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    sameTime(a.lastHeartbeatTime, b.lastHeartbeatTime) &&
    sameTime(a.lastTransitionTime, b.lastTransitionTime)
  );
}

/**
 * tryUpdateNodeHealth: the node's Ready as observed, and — once neither a status heartbeat nor a
 * Lease renewal has been seen for the grace period (node-startup-grace-period for a node that never
 * posted) — Ready, MemoryPressure, DiskPressure and PIDPressure set Unknown.
 */
export function tryUpdateNodeHealth(
  node: ControllerNode,
  saved: NodeHealthData | undefined,
  lease: NodeLease | undefined,
  now: number,
  periods: ControllerPeriods,
): TryUpdateNodeHealthResult {
  let nodeHealth = saved ? { ...saved } : undefined;
  const conditions = node.conditions.map((c) => ({ ...c }));
  let currentReadyCondition = getNodeCondition(conditions, 'Ready');
  let observedReadyCondition: V1NodeCondition;
  let gracePeriodMs: number;
  const created = new Date(node.creationTimestamp);
  if (!currentReadyCondition) {
    // The kubelet (or the controller) never posted status: a fake Unknown dated at creation.
    observedReadyCondition = {
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: created,
      lastTransitionTime: created,
    };
    gracePeriodMs = periods.nodeStartupGracePeriodMs;
    if (nodeHealth) nodeHealth.conditions = conditions;
    else
      nodeHealth = {
        conditions,
        probeTimestamp: node.creationTimestamp,
        readyTransitionTimestamp: node.creationTimestamp,
      };
  } else {
    observedReadyCondition = { ...currentReadyCondition };
    gracePeriodMs = periods.nodeMonitorGracePeriodMs;
  }
  const savedCondition = nodeHealth ? getNodeCondition(nodeHealth.conditions, 'Ready') : undefined;
  const savedLease = nodeHealth?.lease;
  if (!nodeHealth) {
    nodeHealth = { conditions, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (!savedCondition && currentReadyCondition) {
    nodeHealth = { conditions, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedCondition && !currentReadyCondition) {
    nodeHealth = { conditions, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (
    savedCondition &&
    currentReadyCondition &&
    !sameTime(savedCondition.lastHeartbeatTime, currentReadyCondition.lastHeartbeatTime)
  ) {
    const transition = !sameTime(
      savedCondition.lastTransitionTime,
      currentReadyCondition.lastTransitionTime,
    )
      ? now
      : nodeHealth.readyTransitionTimestamp;
    nodeHealth = { conditions, probeTimestamp: now, readyTransitionTimestamp: transition };
  }
  // A renewed Lease always moves the probe time: a kubelet that renews its Lease but never posts
  // status is taken for healthy.
  if (lease && (!savedLease || savedLease.renewTime < lease.renewTime)) {
    nodeHealth = { ...nodeHealth, lease, probeTimestamp: now };
  }

  let statusUpdated = false;
  if (now > nodeHealth.probeTimestamp + gracePeriodMs) {
    const nowTime = new Date(now);
    for (const type of CONTROLLER_CONDITION_TYPES) {
      const current = getNodeCondition(conditions, type);
      if (!current) {
        conditions.push({
          type,
          status: 'Unknown',
          reason: NodeStatusNeverUpdatedReason,
          message: NodeStatusNeverUpdatedMessage,
          lastHeartbeatTime: created,
          lastTransitionTime: nowTime,
        });
      } else if (current.status !== 'Unknown') {
        current.status = 'Unknown';
        current.reason = NodeStatusUnknownReason;
        current.message = NodeStatusUnknownMessage;
        current.lastTransitionTime = nowTime;
      }
    }
    currentReadyCondition = getNodeCondition(conditions, 'Ready');
    if (!sameCondition(currentReadyCondition, observedReadyCondition)) {
      statusUpdated = true;
      nodeHealth = {
        conditions,
        probeTimestamp: nodeHealth.probeTimestamp,
        readyTransitionTimestamp: now,
        ...(lease ? { lease } : {}),
      };
    }
  }
  return {
    gracePeriodMs,
    observedReadyCondition,
    currentReadyCondition,
    nodeHealth,
    conditions,
    statusUpdated,
  };
}

/**
 * monitorNodeHealth's switch for one node: whether it runs MarkPodsNotReady for the node's pods in
 * this pass. `transition` — the Ready the pass began with was True and is not any more (the
 * controller just turned it Unknown; the NodeNotReady event is recorded once); `retry` — an
 * earlier mark failed and the node is still not Ready. A Ready the kubelet itself posts as False
 * never marks: observed and current are both False.
 */
export function markPodsNotReadyDecision(
  observed: ConditionStatus | undefined,
  current: ConditionStatus | undefined,
  needsRetry: boolean,
): 'transition' | 'retry' | undefined {
  if (current === undefined) return undefined;
  if (current !== 'True' && observed === 'True') return 'transition';
  if (needsRetry && observed !== 'True') return 'retry';
  return undefined;
}

/**
 * UpdatePodCondition for MarkPodsNotReady: Ready set False (reason and message kept), its
 * lastTransitionTime moved to `at` only when its status changes. Returns the conditions and
 * whether anything changed; a pod without a Ready condition is left alone.
 */
export function markReadyFalse(
  conditions: readonly V1PodCondition[] | undefined,
  at: number,
): { conditions: V1PodCondition[]; changed: boolean } {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === 'Ready');
  const ready = list[i];
  if (!ready || ready.status === 'False') return { conditions: list, changed: false };
  list[i] = { ...ready, status: 'False', lastTransitionTime: new Date(at) };
  return { conditions: list, changed: true };
}

/** What the controller asks of the API server (the tests' fake clientset). */
export interface ControllerClient {
  /** getPodsAssignedToNode; may throw. */
  podsOnNode(node: string): V1Pod[];
  /** Pods(ns).UpdateStatus; may throw. An error with `notFound: true` is a deleted pod. */
  updatePodStatus(pod: V1Pod): void;
}

/**
 * MarkPodsNotReady: Ready=False on each pod of `nodeName` that still shows another Ready status;
 * the NodeNotReady event per pod marked. Errors other than a deleted pod are collected and thrown
 * together (utilerrors.NewAggregate) after every pod was tried.
 */
export function markPodsNotReady(
  client: Pick<ControllerClient, 'updatePodStatus'>,
  pods: readonly V1Pod[],
  nodeName: string,
  now: number,
): { marked: string[] } {
  const errors: string[] = [];
  const marked: string[] = [];
  for (const pod of pods) {
    if (pod.spec?.nodeName !== nodeName) continue;
    const { conditions, changed } = markReadyFalse(pod.status?.conditions, now);
    if (!changed) continue;
    try {
      client.updatePodStatus({ ...pod, status: { ...pod.status, conditions } });
    } catch (err) {
      if ((err as { notFound?: boolean } | null)?.notFound === true) continue;
      errors.push(err instanceof Error ? err.message : String(err));
    }
    marked.push(pod.metadata?.name ?? '');
  }
  if (errors.length > 0)
    throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return { marked };
}

/** Which NoExecute taint mirrors a Ready status, and the opposite one it replaces. */
export function noExecuteTaintFor(
  status: ConditionStatus | undefined,
): { add: string; remove: string } | undefined {
  if (status === 'False') return { add: TAINT_NOT_READY, remove: TAINT_UNREACHABLE };
  if (status === 'Unknown') return { add: TAINT_UNREACHABLE, remove: TAINT_NOT_READY };
  return undefined;
}

const hasNoExecute = (taints: readonly V1Taint[], key: string) =>
  taints.some((t) => t.key === key && t.effect === 'NoExecute');

/** SwapNodeControllerTaint: the NoExecute taint `add` (timeAdded now) in place of `remove`. */
export function swapNodeControllerTaint(
  taints: readonly V1Taint[],
  add: readonly string[],
  remove: readonly string[],
  now: number,
): V1Taint[] {
  const kept = taints.filter(
    (t) => !(t.effect === 'NoExecute' && (remove.includes(t.key) || add.includes(t.key))),
  );
  return [...kept, ...add.map((key) => ({ key, effect: 'NoExecute', timeAdded: new Date(now) }))];
}

export interface NodeEvent {
  node: string;
  reason: 'RegisteredNode' | 'RemovingNode' | 'NodeNotReady';
}

/**
 * The controller's state across passes — known nodes, each node's health data, the nodes whose
 * mark must be retried, the NoExecute tainting queue — over plain node objects held by the
 * caller. Used by the ported test tables and by the scenario API server; the engine takes only
 * the decisions (markPodsNotReadyDecision) into its own node model.
 */
export class NodeLifecycleController {
  private readonly known = new Set<string>();
  private readonly health = new Map<string, NodeHealthData>();
  private readonly nodesToRetry = new Set<string>();
  /**
   * zoneNoExecuteTainter for one zone, without its rate limit (a UniqueQueue): `taintQueue` holds
   * the nodes waiting for the tainting pass; `taintSet` also the ones it already tainted, which
   * are not queued again until removed (so a taint's timeAdded stays put).
   */
  private readonly taintQueue = new Set<string>();
  private readonly taintSet = new Set<string>();
  readonly events: NodeEvent[] = [];

  constructor(
    private readonly client: ControllerClient,
    private readonly periods: ControllerPeriods,
  ) {}

  /** monitorNodeHealth: every node once; the nodes' conditions and taints are updated in place. */
  monitorNodeHealth(
    nodes: readonly ControllerNode[],
    leases: ReadonlyMap<string, NodeLease>,
    now: number,
  ): void {
    const names = new Set(nodes.map((n) => n.name));
    for (const node of nodes) {
      if (this.known.has(node.name)) continue;
      this.known.add(node.name);
      this.events.push({ node: node.name, reason: 'RegisteredNode' });
      this.markNodeAsReachable(node);
    }
    for (const name of [...this.known]) {
      if (names.has(name)) continue;
      this.known.delete(name);
      this.events.push({ node: name, reason: 'RemovingNode' });
    }
    for (const node of nodes) {
      const r = tryUpdateNodeHealth(
        node,
        this.health.get(node.name),
        leases.get(node.name),
        now,
        this.periods,
      );
      this.health.set(node.name, r.nodeHealth);
      node.conditions = r.conditions;
      const current = r.currentReadyCondition;
      if (!current) {
        this.nodesToRetry.delete(node.name);
        continue;
      }
      const observed = r.observedReadyCondition.status as ConditionStatus;
      let pods: V1Pod[];
      try {
        pods = this.client.podsOnNode(node.name);
      } catch {
        // A failure during the Ready → not Ready transition: the mark is retried next pass.
        if (current.status !== 'True' && observed === 'True') this.nodesToRetry.add(node.name);
        continue;
      }
      this.processTaintBaseEviction(node, observed, now);
      const decision = markPodsNotReadyDecision(
        observed,
        current.status as ConditionStatus,
        this.nodesToRetry.has(node.name),
      );
      if (decision === 'transition') this.events.push({ node: node.name, reason: 'NodeNotReady' });
      if (decision) {
        try {
          markPodsNotReady(this.client, pods, node.name, now);
        } catch {
          this.nodesToRetry.add(node.name);
          continue;
        }
      }
      this.nodesToRetry.delete(node.name);
    }
  }

  /** processTaintBaseEviction: queue the node for its NoExecute taint, swap at once, or clear. */
  private processTaintBaseEviction(node: ControllerNode, observed: ConditionStatus, now: number) {
    const taint = noExecuteTaintFor(observed);
    if (!taint) {
      this.markNodeAsReachable(node);
      return;
    }
    if (hasNoExecute(node.taints, taint.remove)) {
      node.taints = swapNodeControllerTaint(node.taints, [taint.add], [taint.remove], now);
      return;
    }
    // markNodeForTainting: without the taint of this status the node is queued anew.
    if (!hasNoExecute(node.taints, taint.add)) this.removeFromTainter(node.name);
    if (!this.taintSet.has(node.name)) {
      this.taintSet.add(node.name);
      this.taintQueue.add(node.name);
    }
  }

  private removeFromTainter(name: string): void {
    this.taintQueue.delete(name);
    this.taintSet.delete(name);
  }

  /** markNodeAsReachable: both NoExecute taints off, and out of the queue. */
  private markNodeAsReachable(node: ControllerNode): void {
    node.taints = node.taints.filter(
      (t) =>
        !(t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE)),
    );
    this.removeFromTainter(node.name);
  }

  /**
   * doNoExecuteTaintingPass: each queued node gets the taint of its Ready as it is now (not as it
   * was queued); a node without a Ready condition stays queued, a Ready node leaves the queue.
   */
  doNoExecuteTaintingPass(nodes: readonly ControllerNode[], now: number): void {
    for (const name of [...this.taintQueue]) {
      const node = nodes.find((n) => n.name === name);
      if (!node) {
        this.removeFromTainter(name);
        continue;
      }
      const ready = getNodeCondition(node.conditions, 'Ready');
      if (!ready) continue;
      const taint = noExecuteTaintFor(ready.status as ConditionStatus);
      // Done (tainted, or Ready again): out of the queue, still in the set.
      this.taintQueue.delete(name);
      if (!taint) continue;
      node.taints = swapNodeControllerTaint(node.taints, [taint.add], [taint.remove], now);
    }
  }

  /**
   * processPod: a pod newly bound to a node (or first seen) whose Ready is not True, as the
   * controller last observed it, is marked not ready. A node not yet observed, or without a Ready
   * condition, is left to the next node pass. Returns whether the pod was marked.
   */
  processPod(pod: V1Pod, now: number): boolean {
    const nodeName = pod.spec?.nodeName ?? '';
    const health = this.health.get(nodeName);
    if (!health) return false;
    const ready = getNodeCondition(health.conditions, 'Ready');
    if (!ready || ready.status === 'True') return false;
    return markPodsNotReady(this.client, [pod], nodeName, now).marked.length > 0;
  }
}
