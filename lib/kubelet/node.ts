/**
 * Node conditions, as the kubelet posts them and as the node lifecycle controller overrides them.
 *
 * Ports (names kept where they map):
 * - pkg/kubelet/nodestatus/setters.go @ 8340f5a937ee0d2568a8db2c198899da75d5b8ae (stored text; newer
 *   versions drop the AppArmor suffix, not ported) — ReadyCondition, MemoryPressureCondition,
 *   DiskPressureCondition, PIDPressureCondition (reasons, messages, heartbeat/transition rules);
 * - pkg/kubelet/runtime.go — runtimeState.runtimeErrors / networkErrors ("container runtime status
 *   check may not have completed yet", "container runtime is down", "<check> is not healthy: …");
 * - pkg/kubelet/kubelet.go — updateRuntimeUp ("container runtime not ready: RuntimeReady=false
 *   reason:… message:…", "container runtime network not ready: …");
 * - pkg/kubelet/pleg/generic.go — Healthy ("pleg has yet to be successful", "pleg was last seen
 *   active 3m0.5s ago; threshold is 3m0s");
 * - k8s.io/apimachinery util/errors — the aggregate's message (one error as is, several as
 *   "[a, b]", duplicates dropped);
 * - pkg/controller/nodelifecycle — after node-monitor-grace-period without a status the controller
 *   sets Ready, MemoryPressure, DiskPressure and PIDPressure to Unknown, reason NodeStatusUnknown,
 *   "Kubelet stopped posting node status." (NodeStatusNeverUpdated / "Kubelet never posted node
 *   status." for a node never heard from), keeping lastHeartbeatTime;
 * - pkg/kubelet/eviction — pressure from hard-eviction thresholds, held True for
 *   evictionPressureTransitionPeriod after the threshold was last met.
 *
 * NetworkUnavailable is not a kubelet condition (cloud route controllers and CNI plugins write
 * it), so Podscope does not produce it: the runtime's NetworkReady shows in Ready's message, as the
 * kubelet's networkErrors put it there, and in the node's runtime conditions. Before the first
 * successful Status the message is the kubelet's start state, "[container runtime status check
 * may not have completed yet, network state unknown]" (runtime.go newRuntimeState). A node never
 * heard from has no conditions for node-startup-grace-period (60 s), then Unknown.
 */
import type { V1NodeCondition } from '@kubernetes/client-node';
import {
  markPodsNotReadyDecision,
  NodeStatusNeverUpdatedMessage,
  NodeStatusNeverUpdatedReason,
  NodeStatusUnknownMessage,
  NodeStatusUnknownReason,
} from '../controller/nodelifecycle';
import type { NodeNotReadyCause, NodeReadiness } from './eviction';
import type { Explanation } from './explanation';
import {
  DEFAULT_EVICTION_HARD,
  judge,
  SIGNALS_BY_CONDITION,
  type EvictionThresholds,
  type PressureCondition,
  type SignalVerdict,
} from './pressure';
import type { NodeResources, RuntimeCondition } from './runtime';
import { resolveTimings, type NodeTimings } from './timings';
import { memoryUsersText } from './usage';
import { apiTime, asArray, finite, goDuration, isObj, str, timeMs } from './util';
import { why } from './why';

export const NODE_CONDITION = {
  Ready: 'Ready',
  MemoryPressure: 'MemoryPressure',
  DiskPressure: 'DiskPressure',
  PIDPressure: 'PIDPressure',
  NetworkUnavailable: 'NetworkUnavailable',
} as const;

export {
  NodeStatusNeverUpdatedMessage,
  NodeStatusNeverUpdatedReason,
  NodeStatusUnknownMessage,
  NodeStatusUnknownReason,
} from '../controller/nodelifecycle';

export interface NodeConditionsInput {
  now: number;
  /** Conditions of the last successful CRI Status call (RuntimeReady, NetworkReady, …). */
  runtimeConditions?: readonly RuntimeCondition[];
  /** The last Status call failed with this error. */
  runtimeStatusError?: string;
  /** Last Status call that found RuntimeReady true (the kubelet's lastBaseRuntimeSync). */
  lastStatusAt?: number;
  /** Last successful relist (the PLEG heartbeat). */
  lastRelistAt?: number;
  /** Last successful call of any kind to the node's runtime. */
  lastContactAt?: number;
  /**
   * When the node's kubelet last posted its status / renewed its Lease, when that is known (the
   * kubelet stand-in says, or the API server's Lease): then it alone tells the node lifecycle
   * controller whether the node is silent. A runtime that stops answering leaves a kubelet that
   * still posts — Ready=False with its reasons (container runtime is down, PLEG), never Unknown.
   * Absent (Podscope sees only the runtime), the runtime's silence stands in for the kubelet's.
   */
  kubeletPostedAt?: number;
  resources?: NodeResources;
  /** The node's conditions as last derived. */
  oldConditions?: readonly V1NodeCondition[];
  /** The readiness last derived (whether the controller marked the pods carries over). */
  oldReady?: NodeReadiness;
  /** When Podscope began watching the node (a node never heard from counts from here). */
  startedAt?: number;
  timings?: Partial<NodeTimings>;
  /** Hard-eviction thresholds; DEFAULT_EVICTION_HARD when absent. */
  thresholds?: EvictionThresholds;
  /** When each pressure threshold was last met, from the previous result. */
  pressureObservedAt?: Partial<Record<PressureCondition, number>>;
  /** The pods using the most memory (ListContainerStats working sets), named `namespace/name`. */
  memoryUsers?: readonly { name: string; memoryBytes: number }[];
}

export interface NodeConditionsResult {
  /** MemoryPressure, DiskPressure, PIDPressure, Ready (Ready last, as the kubelet keeps it); none during node-startup-grace-period. */
  conditions: V1NodeCondition[];
  why: Record<string, Explanation>;
  /** Ready's status and since when (its lastTransitionTime), for the pods of this node. */
  ready: NodeReadiness;
  /** Feed back as `pressureObservedAt` next time. */
  pressureObservedAt: Partial<Record<PressureCondition, number>>;
}

const SETTERS = 'pkg/kubelet/nodestatus/setters.go';
const CONTROLLER = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go tryUpdateNodeHealth';

/** kubecontainer.RuntimeCondition.String(), or Go's "<nil>" for a missing condition. */
export function formatRuntimeCondition(c: RuntimeCondition | undefined): string {
  if (!c) return '<nil>';
  return `${str(c.type)}=${c.status === true} reason:${str(c.reason)} message:${str(c.message)}`;
}

/** utilerrors.NewAggregate(errs).Error(): nested lists flattened, duplicates dropped, "[a, b]" for several. */
export function aggregateMessage(messages: readonly string[]): string {
  const seen: string[] = [];
  for (const m of messages) if (m && !seen.includes(m)) seen.push(m);
  if (seen.length === 0) return '';
  return seen.length === 1 ? (seen[0] ?? '') : `[${seen.join(', ')}]`;
}

type ReadyCause = { id: NodeNotReadyCause } & (
  | { id: 'runtimeStatusPending' }
  | { id: 'runtimeDown'; seconds: number }
  | { id: 'plegNeverSucceeded' }
  | { id: 'plegUnhealthy'; elapsedMs: number }
  | { id: 'runtimeNotReady'; cond: RuntimeCondition | undefined }
  | { id: 'networkNotReady'; cond: RuntimeCondition | undefined }
  | { id: 'networkUnknown' }
);

function findCondition(
  list: readonly V1NodeCondition[] | undefined,
  type: string,
): V1NodeCondition | undefined {
  return asArray(list).find((c) => isObj(c) && c.type === type);
}

function runtimeCondition(
  list: readonly RuntimeCondition[] | undefined,
  type: string,
): RuntimeCondition | undefined {
  return asArray(list).find((c) => isObj(c) && c.type === type);
}

/** The kubelet's ReadyCondition inputs: errors in the order runtimeErrors, networkErrors. */
function readyCauses(
  input: NodeConditionsInput,
  t: NodeTimings,
  now: number,
): { causes: ReadyCause[]; messages: string[] } {
  const causes: ReadyCause[] = [];
  const messages: string[] = [];
  const conds = input.runtimeConditions;
  const runtimeReady = runtimeCondition(conds, 'RuntimeReady');
  const networkReady = runtimeCondition(conds, 'NetworkReady');
  const haveStatus = Array.isArray(conds) && !input.runtimeStatusError;
  const syncAt =
    typeof input.lastStatusAt === 'number' && Number.isFinite(input.lastStatusAt)
      ? input.lastStatusAt
      : haveStatus && runtimeReady?.status === true
        ? finite(input.lastContactAt, now)
        : undefined;
  // runtimeErrors
  if (syncAt === undefined) {
    causes.push({ id: 'runtimeStatusPending' });
    messages.push('container runtime status check may not have completed yet');
  } else if (!(syncAt + t.runtimeSyncThresholdMs > now)) {
    causes.push({ id: 'runtimeDown', seconds: Math.round((now - syncAt) / 1000) });
    messages.push('container runtime is down');
  }
  const relist = input.lastRelistAt;
  if (typeof relist !== 'number' || !Number.isFinite(relist)) {
    causes.push({ id: 'plegNeverSucceeded' });
    messages.push('PLEG is not healthy: pleg has yet to be successful');
  } else if (now - relist > t.plegRelistThresholdMs) {
    causes.push({ id: 'plegUnhealthy', elapsedMs: now - relist });
    messages.push(
      `PLEG is not healthy: pleg was last seen active ${goDuration(now - relist)} ago; threshold is ${goDuration(t.plegRelistThresholdMs)}`,
    );
  }
  if (Array.isArray(conds) && runtimeReady?.status !== true) {
    causes.push({ id: 'runtimeNotReady', cond: runtimeReady });
    messages.push(`container runtime not ready: ${formatRuntimeCondition(runtimeReady)}`);
  }
  // networkErrors: the kubelet starts with ErrNetworkUnknown ("network state unknown",
  // pkg/kubelet/errors.go, newRuntimeState) until a Status call sets the network state.
  if (!Array.isArray(conds)) {
    causes.push({ id: 'networkUnknown' });
    messages.push('network state unknown');
  } else if (networkReady?.status !== true) {
    causes.push({ id: 'networkNotReady', cond: networkReady });
    messages.push(`container runtime network not ready: ${formatRuntimeCondition(networkReady)}`);
  }
  return { causes, messages };
}

function readyWhy(cause: ReadyCause | undefined, count: number, t: NodeTimings): Explanation {
  const rule = `${SETTERS} ReadyCondition (pkg/kubelet/runtime.go runtimeErrors)`;
  switch (cause?.id) {
    case undefined:
      return why('node.ready.true', {}, rule);
    case 'runtimeStatusPending':
      return why('node.ready.runtimeStatusPending', { count }, rule);
    case 'runtimeDown':
      return why(
        'node.ready.runtimeDown',
        { seconds: cause.seconds, threshold: t.runtimeSyncThresholdMs / 1000, count },
        rule,
      );
    case 'plegNeverSucceeded':
      return why('node.ready.plegNeverSucceeded', { count }, 'pkg/kubelet/pleg/generic.go Healthy');
    case 'plegUnhealthy':
      return why(
        'node.ready.plegUnhealthy',
        {
          elapsed: Math.round(cause.elapsedMs / 1000),
          threshold: Math.round(t.plegRelistThresholdMs / 1000),
          count,
        },
        'pkg/kubelet/pleg/generic.go Healthy',
      );
    case 'runtimeNotReady':
      return why(
        'node.ready.runtimeNotReady',
        { reason: str(cause.cond?.reason), message: str(cause.cond?.message), count },
        'pkg/kubelet/kubelet.go updateRuntimeUp',
      );
    case 'networkUnknown':
      return why('node.ready.networkUnknown', { count }, 'pkg/kubelet/runtime.go networkErrors');
    case 'networkNotReady':
      return why(
        'node.ready.networkNotReady',
        { reason: str(cause.cond?.reason), message: str(cause.cond?.message), count },
        'pkg/kubelet/kubelet.go updateRuntimeUp',
      );
  }
}

const PRESSURE_TEXT: Record<
  PressureCondition,
  { true: [string, string]; false: [string, string] }
> = {
  MemoryPressure: {
    true: ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'],
    false: ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  },
  DiskPressure: {
    true: ['KubeletHasDiskPressure', 'kubelet has disk pressure'],
    false: ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  },
  PIDPressure: {
    true: ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'],
    false: ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  },
};

/** A setter-style update: heartbeat always moves; reason, message and transition time only on a status change. */
function setCondition(
  old: V1NodeCondition | undefined,
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: Date | undefined,
  transitionAt: Date | undefined = now,
): V1NodeCondition {
  if (old && old.status === status) {
    return {
      ...old,
      type,
      status,
      ...(now ? { lastHeartbeatTime: now } : {}),
    };
  }
  return {
    type,
    status,
    ...(now ? { lastHeartbeatTime: now } : {}),
    ...(transitionAt ? { lastTransitionTime: transitionAt } : {}),
    reason,
    message,
  };
}

export function generateNodeConditions(input: NodeConditionsInput): NodeConditionsResult {
  const inp: NodeConditionsInput = isObj(input) ? input : { now: 0 };
  const now = finite(inp.now, 0);
  const t = resolveTimings(inp.timings);
  const thresholds = isObj(inp.thresholds) ? inp.thresholds : DEFAULT_EVICTION_HARD;
  const nowTime = apiTime(now);
  const old = inp.oldConditions;
  const whyOut: Record<string, Explanation> = {};
  const pressureObservedAt: Partial<Record<PressureCondition, number>> = {};

  // Has the kubelet (here: Podscope's view of the runtime) been heard from within the grace period?
  const posted = finite(inp.kubeletPostedAt, Number.NaN);
  const contact = (
    Number.isNaN(posted) ? [inp.lastContactAt, inp.lastRelistAt, inp.lastStatusAt] : [posted]
  ).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const lastSeen = contact.length > 0 ? Math.max(...contact) : undefined;
  const since = finite(inp.startedAt, now);
  // A node never heard from: the node lifecycle controller leaves it without conditions for
  // node-startup-grace-period, then sets them Unknown (NodeStatusNeverUpdated).
  if (lastSeen === undefined && !findCondition(old, NODE_CONDITION.Ready)) {
    if (now - since <= t.nodeStartupGracePeriodMs) {
      return {
        conditions: [],
        why: {
          Ready: why(
            'node.ready.startupGrace',
            {
              seconds: Math.max(0, Math.round((now - since) / 1000)),
              grace: t.nodeStartupGracePeriodMs / 1000,
            },
            CONTROLLER,
          ),
        },
        // No Ready condition yet: processPod leaves the pods to the next node pass.
        ready: { status: 'Unknown', since, podsMarked: false },
        pressureObservedAt: isObj(inp.pressureObservedAt) ? { ...inp.pressureObservedAt } : {},
      };
    }
  }
  const silent =
    lastSeen === undefined
      ? now - since > t.nodeStartupGracePeriodMs || !findCondition(old, NODE_CONDITION.Ready)
      : now - lastSeen > t.nodeMonitorGracePeriodMs;

  const out: V1NodeCondition[] = [];

  if (silent) {
    const never = lastSeen === undefined;
    const reason = never ? NodeStatusNeverUpdatedReason : NodeStatusUnknownReason;
    const message = never ? NodeStatusNeverUpdatedMessage : NodeStatusUnknownMessage;
    const detectedAt = apiTime(
      never ? now : Math.min(now, (lastSeen ?? now) + t.nodeMonitorGracePeriodMs),
    );
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'] as const) {
      const prev = findCondition(old, type);
      let c: V1NodeCondition;
      if (prev && prev.status === 'Unknown') c = prev;
      else
        c = {
          type,
          status: 'Unknown',
          // LastHeartbeatTime is the last time the kubelet was heard from.
          ...(prev?.lastHeartbeatTime ? { lastHeartbeatTime: prev.lastHeartbeatTime } : {}),
          ...(detectedAt ? { lastTransitionTime: detectedAt } : {}),
          reason,
          message,
        };
      out.push(c);
      whyOut[type] =
        type === 'Ready'
          ? never
            ? why('node.ready.neverContacted', {}, CONTROLLER)
            : why(
                Number.isNaN(posted) ? 'node.ready.unknown' : 'node.ready.kubeletSilent',
                {
                  seconds: Math.round((now - (lastSeen ?? now)) / 1000),
                  grace: t.nodeMonitorGracePeriodMs / 1000,
                },
                CONTROLLER,
              )
          : why('node.pressure.nodeUnknown', { condition: type }, CONTROLLER);
    }
    const ready = out[out.length - 1];
    // MarkPodsNotReady ran when the controller turned a Ready=True node Unknown; an Unknown kept
    // from before keeps what was decided then; a kubelet that posted Ready=False (or never
    // posted) before it fell silent had its pods left as it last posted them.
    const prevReady = findCondition(old, NODE_CONDITION.Ready);
    const observed = prevReady
      ? (str(prevReady.status) as 'True' | 'False' | 'Unknown')
      : 'Unknown';
    const podsMarked =
      observed === 'Unknown' && prevReady
        ? inp.oldReady?.status === 'Unknown'
          ? inp.oldReady.podsMarked !== false
          : true
        : markPodsNotReadyDecision(observed, 'Unknown', false) === 'transition';
    return {
      conditions: out,
      why: whyOut,
      ready: {
        status: 'Unknown',
        since: timeMs(ready?.lastTransitionTime) ?? now,
        podsMarked,
      },
      pressureObservedAt: isObj(inp.pressureObservedAt) ? { ...inp.pressureObservedAt } : {},
    };
  }

  // Pressure conditions.
  for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure'] as const) {
    const verdicts: SignalVerdict[] = SIGNALS_BY_CONDITION[type].map((s) =>
      judge(inp.resources, thresholds, s),
    );
    const met = verdicts.find((v) => v.kind === 'met');
    const prev = findCondition(old, type);
    // When the threshold was last met: now, or as remembered, or (without memory) the heartbeat of a True condition.
    const remembered = finite(inp.pressureObservedAt?.[type], Number.NaN);
    const fromOld =
      prev?.status === 'True' ? (timeMs(prev.lastHeartbeatTime) ?? Number.NaN) : Number.NaN;
    const lastObserved = met ? now : !Number.isNaN(remembered) ? remembered : fromOld;
    if (!Number.isNaN(lastObserved)) pressureObservedAt[type] = lastObserved;
    const holding =
      !met &&
      !Number.isNaN(lastObserved) &&
      now - lastObserved < t.evictionPressureTransitionPeriodMs;
    const under = Boolean(met) || holding;
    const [reason, message] = PRESSURE_TEXT[type][under ? 'true' : 'false'];
    out.push(setCondition(prev, type, under ? 'True' : 'False', reason, message, nowTime));
    const rule = `${SETTERS} ${type}Condition (pkg/kubelet/eviction)`;
    // Which pods hold the memory, when the runtime's stats say (the eviction manager ranks them).
    const users = type === 'MemoryPressure' && inp.memoryUsers?.length ? inp.memoryUsers : [];
    const pods = memoryUsersText(users);
    if (met && met.kind === 'met') {
      const p = {
        condition: type,
        signal: met.signal,
        observed: met.observed,
        threshold: met.threshold,
      };
      whyOut[type] = pods
        ? why('node.pressure.trueUsage', { ...p, pods }, rule)
        : why('node.pressure.true', p, rule);
    } else if (holding) {
      const p = {
        condition: type,
        seconds: Math.ceil((t.evictionPressureTransitionPeriodMs - (now - lastObserved)) / 1000),
      };
      whyOut[type] = pods
        ? why('node.pressure.holdingUsage', { ...p, pods }, rule)
        : why('node.pressure.holding', p, rule);
    } else {
      const known = verdicts.find((v) => v.kind === 'notMet');
      const unknown = verdicts.find((v) => v.kind === 'unknown');
      if (known && known.kind === 'notMet') {
        whyOut[type] = why(
          'node.pressure.false',
          {
            condition: type,
            signal: known.signal,
            observed: known.observed,
            threshold: known.threshold,
          },
          rule,
        );
      } else if (unknown) {
        whyOut[type] = why(
          'node.pressure.unknownResources',
          { condition: type, signal: unknown.signal },
          rule,
        );
      } else {
        whyOut[type] = why(
          'node.pressure.noThreshold',
          { condition: type, signal: SIGNALS_BY_CONDITION[type][0] ?? '' },
          rule,
        );
      }
    }
  }

  // Ready, last.
  const { causes, messages } = readyCauses(inp, t, now);
  const prevReady = findCondition(old, NODE_CONDITION.Ready);
  const readyStatus = causes.length === 0 ? 'True' : 'False';
  const ready: V1NodeCondition = {
    type: NODE_CONDITION.Ready,
    status: readyStatus,
    ...(nowTime ? { lastHeartbeatTime: nowTime } : {}),
    ...(prevReady && prevReady.status === readyStatus
      ? prevReady.lastTransitionTime
        ? { lastTransitionTime: prevReady.lastTransitionTime }
        : {}
      : nowTime
        ? { lastTransitionTime: nowTime }
        : {}),
    reason: readyStatus === 'True' ? 'KubeletReady' : 'KubeletNotReady',
    message:
      readyStatus === 'True' ? 'kubelet is posting ready status' : aggregateMessage(messages),
  };
  out.push(ready);
  whyOut.Ready = readyWhy(causes[0], causes.length, t);
  return {
    conditions: out,
    why: whyOut,
    ready: {
      status: readyStatus,
      since: timeMs(ready.lastTransitionTime) ?? now,
      ...(causes[0] ? { cause: causes[0].id } : {}),
    },
    pressureObservedAt,
  };
}
