/**
 * The pod status the kubelet would write: a port of the relevant parts of generateAPIPodStatus and
 * convertStatusToAPIStatus (pkg/kubelet/kubelet_pods.go, kubernetes/kubernetes
 * 001a80e975bb880d0fe60b304d30950fe661f278), the status manager's lastTransitionTime and startTime
 * bookkeeping (pkg/kubelet/status/status_manager.go updateStatusInternal), the active-deadline pod
 * sync handler (pkg/kubelet/active_deadline.go), and — because Podscope shows what the API shows — the
 * node lifecycle controller's MarkPodsNotReady where it applies (lib/controller/nodelifecycle.ts):
 * when the controller turned the node's Ready from True to Unknown, and for a pod bound while the
 * node is Unknown. A Ready=False the kubelet posts itself leaves the pod's Ready as the kubelet
 * computes it.
 *
 * Every derived value comes with its explanation (`why`), shaped as PodWhy in lib/timeline/state.ts.
 */
import type {
  V1ContainerStatus,
  V1Pod,
  V1PodCondition,
  V1PodStatus,
} from '@kubernetes/client-node';
import type { BackoffState } from './backoff';
import {
  containersReadyDecision,
  podInitializedDecision,
  podReadyDecision,
  podReadyToStartContainersDecision,
  podScheduledDecision,
  type ConditionDecision,
} from './conditions';
import { convertToAPIContainerStatuses } from './convert';
import { inferCrashLoops, type CrashLoop } from './crashloop';
import { ErrCrashLoopBackOff } from './reasons';
import { markReadyFalse } from '../controller/nodelifecycle';
import { evictionDueAt, type NodeReadiness } from './eviction';
import type { Explanation } from './explanation';
import { explainContainerState } from './explain-container';
import { keptTerminalExplanation, phaseExplanation } from './explain-phase';
import { enabled, type FeatureGates } from './gates';
import { computePhase, isStaticPod } from './phase';
import { updatePodStatusProbes, type ProbeResults } from './prober';
import { canonicalIP, hostNetworkPodIPs, sortPodIPs } from './ip';
import { getPodQOS } from './qos';
import { inferStoppedPod } from './stopped';
import { activeContainers, findContainerStatusByName, sandboxesOf } from './records';
import type { RuntimePodStatus, SyncError } from './runtime';
import { resolveTimings, type NodeTimings } from './timings';
import { isTerminalPhase, POD_CONDITION, type PodPhase } from './types';
import { apiTime, asArray, finite, isObj, specOf, str, timeMs } from './util';
import { why } from './why';

export interface GenerateAPIPodStatusInput {
  pod: V1Pod;
  runtime: RuntimePodStatus;
  /** The status Podscope derived last time (the status manager's cache); else pod.status is used. */
  oldStatus?: V1PodStatus;
  /** The kubelet's reason cache: last start error per container name. Wins over inferred back-off. */
  syncErrors?: Record<string, SyncError>;
  /** The kubelet's container back-off; absent entries are reconstructed from restart counts. */
  backoff?: BackoffState;
  now: number;
  /** The kubelet decided the pod is terminal (deleted, evicted, past its deadline). */
  podIsTerminal?: boolean;
  /**
   * The kubelet's eviction manager evicted the pod (pkg/kubelet/eviction eviction_manager.go
   * evictPod): its status function sets phase Failed, reason Evicted and the eviction message,
   * and adds the DisruptionTarget condition (TerminationByKubelet) — `at` is when.
   */
  evicted?: { reason: string; message: string; at: number };
  nodeReady?: NodeReadiness;
  /**
   * The pod is new to the node lifecycle controller (just bound, or first seen): processPod marks
   * it not ready while the node is not Ready — it stays so while the node is Unknown, as no
   * kubelet posts over it (a live kubelet writes its own Ready back at its next status sync).
   */
  newlyBound?: boolean;
  gates?: FeatureGates;
  timings?: Partial<NodeTimings>;
  /** Probe results learned elsewhere; without them a running container counts as started and ready. */
  probes?: ProbeResults;
  /**
   * The kubelet's probe manager (prober.Manager.UpdatePodStatus), which fills `started` and `ready`.
   * Default: updatePodStatusProbes with `probes`. Upstream's tests replace it with a fake that marks
   * every regular container ready; the ported tables do the same.
   */
  prober?: PodStatusProber;
  /** containerID prefix, e.g. "containerd". */
  runtimeName?: string;
  /** The node's host IPs (nodeHostIPs: primary first, then one of the other family). */
  hostIPs?: string[];
  /**
   * The kubelet's own node IPs (--node-ip) that order pod IPs by family; default: hostIPs. They
   * differ from hostIPs only when the Node object's addresses changed since the kubelet started.
   */
  nodeIPs?: string[];
  /** Where the host IPs came from, for the why: the API server's Node, configuration, or detection. */
  hostIPsSource?: HostIPsSource;
}

export type HostIPsSource = 'apiserver' | 'configured' | 'detected';

export type PodStatusProber = (
  pod: V1Pod,
  statuses: {
    initContainerStatuses: readonly V1ContainerStatus[];
    containerStatuses: readonly V1ContainerStatus[];
  },
) => { initContainerStatuses: V1ContainerStatus[]; containerStatuses: V1ContainerStatus[] };

export interface PodStatusWhy {
  phase: Explanation;
  conditions: Record<string, Explanation>;
  containers: Record<string, Explanation>;
  /** Where hostIP(s) — and a host-network pod's IPs — come from. */
  hostIPs?: Explanation;
}

export interface GenerateAPIPodStatusResult {
  status: V1PodStatus;
  why: PodStatusWhy;
  /** Container name → epoch ms at which the back-off window ends. */
  nextRestartAt?: Record<string, number>;
  /** Epoch ms at which the pod is due for eviction from a not-ready node. */
  evictionDueAt?: number;
}

/**
 * When a back-off reported by the kubelet itself (its message: "back-off 20s restarting failed
 * container=…") ends: the window counts from the last run's finish.
 */
function suppliedRestartAt(s: V1ContainerStatus): number | undefined {
  const m = /^back-off ((?:\d+(?:\.\d+)?(?:h|ms|m|s))+) /.exec(s.state?.waiting?.message ?? '');
  const finished = s.lastState?.terminated?.finishedAt;
  if (!m?.[1] || !(finished instanceof Date)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let ms = 0;
  for (const [, n, u] of m[1].matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g))
    ms += Number(n) * (unit[u ?? 's'] ?? 0);
  return finished.getTime() + ms;
}

/**
 * True when the previous status knew this container but never showed its newest (exited) run as
 * terminated: the sync that follows the exit is the first to see it.
 */
function firstSyncAfterExit(runtime: RuntimePodStatus, old: V1PodStatus, name: string): boolean {
  const record = findContainerStatusByName(runtime, name);
  if (!record || record.state !== 'exited' || !record.id) return false;
  // The first status of that name, regular containers before init ones (no joined copy).
  const named = (s: V1ContainerStatus) => isObj(s) && s.name === name;
  const before =
    asArray(old.containerStatuses).find(named) ?? asArray(old.initContainerStatuses).find(named);
  if (!before) return false;
  const shows = (id: unknown) => typeof id === 'string' && id.endsWith(record.id);
  return (
    !shows(before.state?.terminated?.containerID) &&
    !shows(before.lastState?.terminated?.containerID)
  );
}

const CONTROLLER = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go';
const MARK = 'pkg/controller/util/node/controller_utils.go MarkPodsNotReady';

/**
 * Whether the node lifecycle controller has marked this pod not ready, and why: `transition` — it
 * turned the node's Ready from True to Unknown (monitorNodeHealth); `binding` — the pod came to
 * the node while it was Unknown (processPod). While the node is False its kubelet is alive and
 * posts the pod's own Ready; while it is True nothing is marked.
 */
export function podsMarking(
  nodeReady: NodeReadiness | undefined,
  newlyBound: boolean,
): 'transition' | 'binding' | undefined {
  if (!nodeReady || nodeReady.status !== 'Unknown') return undefined;
  if (nodeReady.podsMarked !== false) return 'transition';
  return newlyBound ? 'binding' : undefined;
}

/**
 * The pod's Ready as the API server shows it once the node lifecycle controller has had its say:
 * Ready=False where it marked the pod (podsMarking), with its why; the kubelet's Ready, with a why
 * that says the controller left it, where the node is not Ready but the kubelet's Ready=True
 * stands. `conditions` are the kubelet's; the why is undefined where the kubelet's own stands.
 */
export function nodeLifecycleReady(
  conditions: readonly V1PodCondition[],
  nodeReady: NodeReadiness | undefined,
  newlyBound: boolean,
  now: number,
): {
  conditions: V1PodCondition[];
  why?: Explanation;
  marking?: 'transition' | 'binding';
} {
  const marking = podsMarking(nodeReady, newlyBound);
  const kubeletReady = conditions.find((c) => c.type === POD_CONDITION.Ready);
  if (marking && kubeletReady) {
    const marked = markReadyFalse(conditions, now);
    if (!marked.changed) return { conditions: marked.conditions, marking };
    const inputs = { nodeReady: 'Unknown', kubeletReady: str(kubeletReady.status) };
    return {
      conditions: marked.conditions,
      marking,
      why:
        marking === 'transition'
          ? why(
              'condition.ready.nodeNotReady',
              { nodeStatus: 'Unknown' },
              `${CONTROLLER} monitorNodeHealth → ${MARK}`,
              { ...inputs, observedNodeReady: 'True' },
            )
          : why(
              'condition.ready.markedOnBinding',
              { nodeStatus: 'Unknown' },
              `${CONTROLLER} processPod → ${MARK}`,
              inputs,
            ),
    };
  }
  if (nodeReady && nodeReady.status !== 'True' && kubeletReady?.status === 'True') {
    // The kubelet still posts this pod's status: its Ready stands, only the taint follows.
    return {
      conditions: [...conditions],
      why:
        nodeReady.status === 'False'
          ? why(
              'condition.ready.kubeletReportsNodeNotReady',
              { cause: nodeReady.cause ?? 'other' },
              `${CONTROLLER} monitorNodeHealth (Ready=False from the kubelet: no MarkPodsNotReady)`,
              { nodeReady: 'False' },
            )
          : why(
              'condition.ready.nodeUnknownNotMarked',
              {},
              `${CONTROLLER} monitorNodeHealth (observed Ready was not True: no MarkPodsNotReady)`,
              { nodeReady: 'Unknown' },
            ),
    };
  }
  return { conditions: [...conditions] };
}

/** pkg/kubelet/active_deadline.go */
export const DeadlineExceededReason = 'DeadlineExceeded';
/** pkg/kubelet/eviction/helpers.go Reason. */
export const EvictedReason = 'Evicted';
export const DeadlineExceededMessage =
  'Pod was active on the node longer than the specified deadline';

/** kubetypes.PodConditionsByKubelet (+ PodReadyToStartContainers with its gate). */
const KUBELET_CONDITIONS = new Set<string>([
  POD_CONDITION.PodScheduled,
  POD_CONDITION.Ready,
  POD_CONDITION.Initialized,
  POD_CONDITION.ContainersReady,
  POD_CONDITION.PodResizeInProgress,
  POD_CONDITION.PodResizePending,
]);

export { sortPodIPs };

/** HasAnyActiveRegularContainerStarted: a regular container exists in the current sandbox. */
export function hasAnyActiveRegularContainerStarted(
  pod: V1Pod,
  runtime: RuntimePodStatus,
): boolean {
  const names = new Set(specOf(pod).containers.map((c) => c.name));
  return activeContainers(runtime).some((c) => names.has(str(c.name)));
}

function podIPsFor(input: GenerateAPIPodStatusInput, oldStatus: V1PodStatus): string[] {
  const sandboxes = sandboxesOf(input.runtime);
  const newest = sandboxes[0];
  let ips: string[] = [];
  if (newest?.state === 'ready' && isObj(newest.network)) {
    ips = [str(newest.network.ip), ...asArray(newest.network.additionalIps).map(str)].filter(
      Boolean,
    );
  }
  // The PLEG keeps the old IPs for a pod with no ready sandbox (e.g. exited pods).
  if (ips.length === 0 && !sandboxes.some((s) => s.state === 'ready')) {
    ips = asArray(oldStatus.podIPs)
      .map((p) => (isObj(p) ? str(p.ip) : ''))
      .filter(Boolean);
  }
  return sortPodIPs(ips, input.nodeIPs ?? input.hostIPs);
}

export function generateAPIPodStatus(input: GenerateAPIPodStatusInput): GenerateAPIPodStatusResult {
  const pod: V1Pod = isObj(input.pod) ? input.pod : {};
  const runtime: RuntimePodStatus = isObj(input.runtime)
    ? input.runtime
    : { uid: '', name: '', namespace: '', sandboxes: [], containers: [] };
  const now = finite(input.now, 0);
  const gates = input.gates;
  const timings = resolveTimings(input.timings);
  const view = specOf(pod);
  const apiStatus: V1PodStatus = isObj(pod.status) ? pod.status : {};
  const oldStatus: V1PodStatus = isObj(input.oldStatus) ? input.oldStatus : apiStatus;
  // A pod the kubelet stopped (stopped.ts): with a deletion cue it is terminal, as for the
  // kubelet that is deleting it; without one nothing says why, and no back-off is inferred —
  // the kubelet restarts nothing in a stopped sandbox.
  const stopped = input.podIsTerminal === true ? undefined : inferStoppedPod(pod, runtime);
  const deleted =
    stopped !== undefined && (stopped.deletionTimestamp || stopped.deletionAnnotation);
  const podIsTerminal = input.podIsTerminal === true || deleted;

  // The reason cache: supplied sync errors, else the back-off the kubelet would be in.
  const crashLoops: Record<string, CrashLoop> = stopped
    ? {}
    : inferCrashLoops({
        pod,
        runtime,
        ...(input.backoff ? { backoff: input.backoff } : {}),
        now,
        podIsTerminal,
        ...(gates ? { gates } : {}),
      });
  const supplied = isObj(input.syncErrors) ? input.syncErrors : {};
  const reasonCache: Record<string, SyncError> = { ...crashLoops, ...supplied };
  // The kubelet writes a pod's status at the start of each sync, before that sync records a
  // back-off error: the first status after a container exits shows it Terminated (kubectl: Error),
  // and CrashLoopBackOff appears from the next sync on. An observer that saw the container before
  // the exit and has not yet shown the exit shows Terminated first, as the kubelet does.
  for (const name of Object.keys(reasonCache)) {
    if (
      reasonCache[name]?.reason === ErrCrashLoopBackOff &&
      firstSyncAfterExit(runtime, oldStatus, name)
    ) {
      delete reasonCache[name];
    }
  }

  const hasInit = view.initContainers.length > 0;
  const convert = (isInit: boolean) =>
    convertToAPIContainerStatuses({
      pod,
      runtime,
      previousStatus: isInit ? oldStatus.initContainerStatuses : oldStatus.containerStatuses,
      containers: isInit ? view.initContainers : view.containers,
      hasInitContainers: hasInit,
      isInitContainer: isInit,
      reasonCache,
      ...(input.runtimeName ? { runtimeName: input.runtimeName } : {}),
      ...(gates ? { gates } : {}),
    });
  let containerStatuses = convert(false);
  let initContainerStatuses = convert(true);

  // Phase, with the three-way merge that keeps a terminal phase terminal.
  const decision = computePhase(
    pod,
    [...containerStatuses, ...initContainerStatuses],
    podIsTerminal,
    hasAnyActiveRegularContainerStarted(pod, runtime),
    gates,
  );
  let phase: PodPhase = decision.phase;
  let phaseWhy = phaseExplanation(decision, pod);
  if (
    podIsTerminal &&
    (decision.rule === 'terminalSucceeded' || decision.rule === 'terminalFailed')
  ) {
    // A pod that finished on its own (a Job) is terminal to the kubelet too; when its containers
    // alone give the same phase, that is the reason worth telling, not "the kubelet is ending it".
    const own = computePhase(
      pod,
      [...containerStatuses, ...initContainerStatuses],
      false,
      hasAnyActiveRegularContainerStarted(pod, runtime),
      gates,
    );
    if (own.phase === phase) phaseWhy = phaseExplanation(own, pod);
  }
  if (stopped && !deleted) {
    phaseWhy = why(
      'phase.stoppedUnknown',
      {
        exitCodes: Object.entries(stopped.exitCodes)
          .map(([name, code]) => `${name} ${code}`)
          .join(', '),
      },
      'pkg/kubelet/kuberuntime/kuberuntime_manager.go killPodWithSyncResult (inferred from the CRI)',
      { sandbox: 'NOTREADY', bySignal: stopped.bySignal },
    );
  }
  if (!isTerminalPhase(phase)) {
    const kept = isTerminalPhase(oldStatus.phase)
      ? oldStatus.phase
      : isTerminalPhase(apiStatus.phase)
        ? apiStatus.phase
        : undefined;
    if (kept) {
      phaseWhy = keptTerminalExplanation(kept, phase);
      phase = kept;
    }
  }
  let reason: string | undefined;
  let message: string | undefined;
  if (phase === oldStatus.phase) {
    reason = str(oldStatus.reason) || str(apiStatus.reason) || undefined;
    message = str(oldStatus.message) || str(apiStatus.message) || undefined;
  }
  // startTime: kept once set (status manager); first seen otherwise.
  const startMs =
    timeMs(oldStatus.startTime) ??
    timeMs(apiStatus.startTime) ??
    sandboxesOf(runtime).reduce<number | undefined>((min, s) => {
      const t = finite(s.createdAt, Number.NaN);
      return Number.isNaN(t) ? min : min === undefined ? t : Math.min(min, t);
    }, undefined) ??
    now;
  // activeDeadlineSeconds: the pod sync handler evicts the pod.
  const deadline = view.spec.activeDeadlineSeconds;
  if (
    typeof deadline === 'number' &&
    Number.isFinite(deadline) &&
    now - startMs >= deadline * 1000 &&
    !isStaticPod(pod)
  ) {
    phase = 'Failed';
    reason = DeadlineExceededReason;
    message = DeadlineExceededMessage;
    phaseWhy = why(
      'phase.failed.deadlineExceeded',
      { seconds: deadline },
      'pkg/kubelet/active_deadline.go',
      {
        activeDeadlineSeconds: deadline,
      },
    );
  }
  // Evicted by the kubelet's eviction manager: its status function wins, as the deadline's does.
  const evicted = isObj(input.evicted) ? input.evicted : undefined;
  if (evicted) {
    phase = 'Failed';
    reason = str(evicted.reason) || EvictedReason;
    message = str(evicted.message);
    phaseWhy = why(
      'phase.failed.evicted',
      { message },
      'pkg/kubelet/eviction/eviction_manager.go evictPod',
      { reason },
    );
  }
  // The API already shows a terminal phase: no transition out of it.
  if (isTerminalPhase(apiStatus.phase) && phase !== apiStatus.phase) {
    phaseWhy = keptTerminalExplanation(apiStatus.phase, phase);
    phase = apiStatus.phase;
  }

  ({ containerStatuses, initContainerStatuses } = input.prober
    ? input.prober(pod, { containerStatuses, initContainerStatuses })
    : updatePodStatusProbes(pod, { containerStatuses, initContainerStatuses }, input.probes));

  // Conditions: keep those the kubelet does not own, copy DisruptionTarget, then the kubelet's in order.
  const readyToStartGate = enabled(gates, 'PodReadyToStartContainersCondition');
  const conditions: V1PodCondition[] = asArray(apiStatus.conditions).filter(
    (c) =>
      isObj(c) &&
      !KUBELET_CONDITIONS.has(str(c.type)) &&
      !(readyToStartGate && c.type === POD_CONDITION.PodReadyToStartContainers),
  );
  const disruption: V1PodCondition | undefined =
    asArray(oldStatus.conditions).find(
      (c) => isObj(c) && c.type === POD_CONDITION.DisruptionTarget,
    ) ??
    (evicted
      ? {
          type: POD_CONDITION.DisruptionTarget,
          status: 'True',
          reason: 'TerminationByKubelet',
          message: str(evicted.message),
          ...(apiTime(finite(evicted.at, now))
            ? { lastTransitionTime: apiTime(finite(evicted.at, now)) }
            : {}),
        }
      : undefined);
  if (disruption) {
    const i = conditions.findIndex((c) => c.type === POD_CONDITION.DisruptionTarget);
    if (i >= 0) conditions[i] = disruption;
    else conditions.push(disruption);
  }
  const whyConditions: Record<string, Explanation> = {};
  const add = (d: ConditionDecision) => {
    conditions.push(d.condition);
    whyConditions[d.condition.type] = d.why;
  };
  if (readyToStartGate)
    add(podReadyToStartContainersDecision(pod, oldStatus, sandboxesOf(runtime), gates));
  const all: V1ContainerStatus[] = [...initContainerStatuses, ...containerStatuses];
  add(podInitializedDecision(pod, oldStatus, all, phase, gates));
  add(podReadyDecision(pod, oldStatus, conditions, all, phase, gates));
  add(containersReadyDecision(pod, oldStatus, all, phase, gates));
  add(podScheduledDecision(pod, oldStatus, gates));

  // The node lifecycle controller's MarkPodsNotReady, where it applies.
  const nodeReady = isObj(input.nodeReady) ? input.nodeReady : undefined;
  const controller = nodeLifecycleReady(conditions, nodeReady, input.newlyBound === true, now);
  conditions.splice(0, conditions.length, ...controller.conditions);
  if (controller.why) whyConditions[POD_CONDITION.Ready] = controller.why;
  const marking = controller.marking;

  // lastTransitionTime: kept while the status is unchanged (status manager), else now.
  const nowTime = apiTime(now);
  const markedAt =
    marking === 'transition' && nodeReady ? apiTime(finite(nodeReady.since, now)) : undefined;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i];
    if (
      !c ||
      (!KUBELET_CONDITIONS.has(c.type) && c.type !== POD_CONDITION.PodReadyToStartContainers)
    )
      continue;
    const old = asArray(oldStatus.conditions).find((o) => isObj(o) && o.type === c.type);
    const oldLtt = old ? timeMs(old.lastTransitionTime) : undefined;
    const ltt =
      old && old.status === c.status && oldLtt !== undefined
        ? apiTime(oldLtt)
        : c.type === POD_CONDITION.Ready && markedAt && c.status === 'False'
          ? markedAt
          : nowTime;
    conditions[i] = { ...c, ...(ltt ? { lastTransitionTime: ltt } : {}) };
  }

  // Pod IPs from the ready sandbox (canonical, node family first); host-network pods inherit the
  // node's IPs and gain its secondary IP of the other family.
  let podIPs = podIPsFor(input, oldStatus);
  const hostIPs = asArray(input.hostIPs)
    .map((ip) => canonicalIP(str(ip)))
    .filter((ip): ip is string => ip !== undefined)
    .slice(0, 2);
  if (view.spec.hostNetwork === true) podIPs = hostNetworkPodIPs(podIPs, hostIPs);
  const hostIPsWhy = hostIPs[0]
    ? why(
        `pod.hostIPs.${input.hostIPsSource ?? 'detected'}`,
        { hostIPs: hostIPs.join(', ') },
        'pkg/kubelet/kubelet_pods.go generateAPIPodStatus (HostIP/HostIPs)',
      )
    : undefined;

  // CalculatePodStatusObservedGeneration: the gate (on since 1.34), or a value already posted.
  const generation =
    isObj(pod.metadata) &&
    (enabled(gates, 'PodObservedGenerationTracking') ||
      finite(apiStatus.observedGeneration, 0) !== 0)
      ? finite(pod.metadata.generation, 0)
      : 0;
  const startTime = apiTime(startMs);
  const status: V1PodStatus = {
    phase,
    conditions,
    ...(hostIPs[0] ? { hostIP: hostIPs[0], hostIPs: hostIPs.map((ip) => ({ ip })) } : {}),
    ...(podIPs[0] ? { podIP: podIPs[0], podIPs: podIPs.map((ip) => ({ ip })) } : {}),
    ...(startTime ? { startTime } : {}),
    ...(hasInit ? { initContainerStatuses } : {}),
    containerStatuses,
    qosClass: getPodQOS(pod),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
    ...(generation !== 0 ? { observedGeneration: generation } : {}),
  };

  // Why each container shows what it shows; when each back-off ends.
  const whyContainers: Record<string, Explanation> = {};
  const nextRestartAt: Record<string, number> = {};
  for (const s of all) {
    const loop = Object.prototype.hasOwnProperty.call(crashLoops, s.name)
      ? crashLoops[s.name]
      : undefined;
    const inBackoff = s.state?.waiting?.reason === ErrCrashLoopBackOff;
    const fromLoop =
      loop !== undefined && !Object.prototype.hasOwnProperty.call(supplied, s.name) && inBackoff;
    const spec =
      view.containers.find((c) => c.name === s.name) ??
      view.initContainers.find((c) => c.name === s.name);
    const probe = spec
      ? {
          startupProbe: spec.startupProbe !== undefined,
          readinessProbe: spec.readinessProbe !== undefined,
          livenessProbe: spec.livenessProbe !== undefined,
          unseen: input.probes === undefined,
          ...(input.probes?.[s.name] ? { result: input.probes[s.name] } : {}),
        }
      : undefined;
    whyContainers[s.name] = explainContainerState(s, {
      ...(fromLoop && loop ? { backoffMs: loop.backoffMs } : {}),
      ...(probe ? { probe } : {}),
    });
    const restartAt =
      fromLoop && loop ? loop.nextRestartAt : inBackoff ? suppliedRestartAt(s) : undefined;
    if (restartAt !== undefined) nextRestartAt[s.name] = restartAt;
  }

  const due = isTerminalPhase(phase) ? undefined : evictionDueAt(pod, nodeReady, timings);
  return {
    status,
    why: {
      phase: phaseWhy,
      conditions: whyConditions,
      containers: whyContainers,
      ...(hostIPsWhy ? { hostIPs: hostIPsWhy } : {}),
    },
    ...(Object.keys(nextRestartAt).length > 0 ? { nextRestartAt } : {}),
    ...(due !== undefined ? { evictionDueAt: due } : {}),
  };
}
