/**
 * Pod conditions the kubelet writes.
 *
 * Port of pkg/kubelet/status/generate.go (kubernetes/kubernetes master, newest stored text: the
 * version with oldPodStatus parameters, PodSandboxNotReady messages and RestartAllContainers;
 * read 2026) and podutil.CalculatePodConditionObservedGeneration (pkg/api/v1/pod/util.go).
 * Each Generate* function has a *Decision twin that also returns the explanation.
 *
 * `undefined` container statuses mean "unknown", as upstream's nil slice.
 * AllContainersRestarting (alpha, RestartAllContainersOnContainerExits) is not generated.
 */
import type {
  V1ContainerStatus,
  V1Pod,
  V1PodCondition,
  V1PodSpec,
  V1PodStatus,
} from '@kubernetes/client-node';
import type { Explanation } from './explanation';
import { enabled, type FeatureGates } from './gates';
import { isRestartableInitContainer } from './restart';
import type { RuntimeSandbox } from './runtime';
import { podSandboxChanged, PodSandboxNotReadyReason, networkNamespaceForPod } from './sandbox';
import { POD_CONDITION, type ConditionStatus } from './types';
import { asArray, getContainerStatus, goList, isObj, specOf, str } from './util';
import { why } from './why';

export const UnknownContainerStatuses = 'UnknownContainerStatuses';
export const PodCompleted = 'PodCompleted';
export const PodFailed = 'PodFailed';
export const ContainersNotReady = 'ContainersNotReady';
export const ContainersNotInitialized = 'ContainersNotInitialized';
export const ReadinessGatesNotReady = 'ReadinessGatesNotReady';

const GENERATE = 'pkg/kubelet/status/generate.go';

export interface ConditionDecision {
  condition: V1PodCondition;
  why: Explanation;
}

/**
 * CalculatePodConditionObservedGeneration: the pod's generation when PodObservedGenerationTracking
 * is on (GA, locked on) or the old condition already carried one; else 0 (omitted, as Go's omitempty).
 */
export function calculatePodConditionObservedGeneration(
  oldPodStatus: V1PodStatus | undefined,
  generation: number | undefined,
  conditionType: string,
  gates?: FeatureGates,
): number {
  if (!isObj(oldPodStatus)) return 0;
  const gen = typeof generation === 'number' && Number.isFinite(generation) ? generation : 0;
  if (enabled(gates, 'PodObservedGenerationTracking')) return gen;
  const had = asArray(oldPodStatus.conditions).some(
    (c) =>
      isObj(c) &&
      c.type === conditionType &&
      typeof c.observedGeneration === 'number' &&
      c.observedGeneration !== 0,
  );
  return had ? gen : 0;
}

function condition(
  pod: V1Pod | undefined,
  oldPodStatus: V1PodStatus | undefined,
  type: string,
  status: ConditionStatus,
  gates: FeatureGates | undefined,
  reason?: string,
  message?: string,
): V1PodCondition {
  const generation = isObj(pod) && isObj(pod.metadata) ? pod.metadata.generation : undefined;
  const observedGeneration = calculatePodConditionObservedGeneration(
    oldPodStatus,
    generation,
    type,
    gates,
  );
  return {
    type,
    status,
    ...(observedGeneration !== 0 ? { observedGeneration } : {}),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/** kubecontainer.HasAnyRegularContainerStarted: some regular container has a running or terminated status. */
export function hasAnyRegularContainerStarted(
  spec: V1PodSpec | undefined,
  statuses: readonly V1ContainerStatus[] | undefined,
): boolean {
  const list = asArray(statuses);
  if (list.length === 0) return false;
  const names = new Set(specOf({ spec: spec ?? { containers: [] } }).containers.map((c) => c.name));
  return list.some(
    (s) =>
      isObj(s) &&
      names.has(s.name) &&
      isObj(s.state) &&
      (isObj(s.state.running) || isObj(s.state.terminated)),
  );
}

export function containersReadyDecision(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): ConditionDecision {
  const rule = `${GENERATE} GenerateContainersReadyCondition`;
  const make = (status: ConditionStatus, reason?: string, message?: string) =>
    condition(pod, oldPodStatus, POD_CONDITION.ContainersReady, status, gates, reason, message);
  if (containerStatuses === undefined || containerStatuses === null) {
    return {
      condition: make('False', UnknownContainerStatuses),
      why: why('condition.containersReady.unknownStatuses', {}, rule),
    };
  }
  const view = specOf(pod);
  const unknown: string[] = [];
  const unready: string[] = [];
  const consider = [
    ...view.initContainers.filter((c) => isRestartableInitContainer(c)),
    ...view.containers,
  ];
  for (const c of consider) {
    const s = getContainerStatus(containerStatuses, c.name);
    if (!s) unknown.push(c.name);
    else if (s.ready !== true) unready.push(c.name);
  }
  const inputs = {
    phase: podPhase,
    unknown: unknown.length,
    unready: unready.length,
    containers: consider.length,
  };
  if (podPhase === 'Succeeded' && unknown.length === 0) {
    return {
      condition: make('False', PodCompleted),
      why: why('condition.containersReady.podCompleted', {}, rule, inputs),
    };
  }
  if (podPhase === 'Failed') {
    return {
      condition: make('False', PodFailed),
      why: why('condition.containersReady.podFailed', {}, rule, inputs),
    };
  }
  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length > 0) messages.push(`containers with unready status: ${goList(unready)}`);
  if (messages.length > 0) {
    return {
      condition: make('False', ContainersNotReady, messages.join(', ')),
      why: why(
        'condition.containersReady.notReady',
        { unknown, unready, unknownCount: unknown.length, unreadyCount: unready.length },
        rule,
        inputs,
      ),
    };
  }
  return {
    condition: make('True'),
    why: why('condition.containersReady.true', { count: consider.length }, rule, inputs),
  };
}

/** GenerateContainersReadyCondition: True when every sidecar and regular container is ready. */
export function generateContainersReadyCondition(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): V1PodCondition {
  return containersReadyDecision(pod, oldPodStatus, containerStatuses, podPhase, gates).condition;
}

/** Go's %q for a plain string. */
const goQuote = (s: string): string => JSON.stringify(s);

export function podReadyDecision(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  conditions: readonly V1PodCondition[] | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): ConditionDecision {
  const rule = `${GENERATE} GeneratePodReadyCondition`;
  const make = (status: ConditionStatus, reason?: string, message?: string) =>
    condition(pod, oldPodStatus, POD_CONDITION.Ready, status, gates, reason, message);
  const containersReady = containersReadyDecision(
    pod,
    oldPodStatus,
    containerStatuses,
    podPhase,
    gates,
  ).condition;
  if (containersReady.status !== 'True') {
    const status = (
      containersReady.status === 'Unknown' ? 'Unknown' : 'False'
    ) satisfies ConditionStatus;
    return {
      condition: make(status, containersReady.reason, containersReady.message),
      why: why(
        'condition.ready.containersNotReady',
        { reason: str(containersReady.reason) },
        rule,
        {
          ContainersReady: containersReady.status,
        },
      ),
    };
  }
  const gatesList = asArray(specOf(pod).spec.readinessGates).filter((g) => isObj(g));
  const messages: string[] = [];
  const failing: string[] = [];
  for (const gate of gatesList) {
    const type = str(gate.conditionType);
    const c = asArray(conditions).find((x) => isObj(x) && x.type === type);
    if (!c) {
      messages.push(
        `corresponding condition of pod readiness gate ${goQuote(type)} does not exist.`,
      );
      failing.push(type);
    } else if (c.status !== 'True') {
      messages.push(
        `the status of pod readiness gate ${goQuote(type)} is not "True", but ${str(c.status)}`,
      );
      failing.push(type);
    }
  }
  if (messages.length > 0) {
    return {
      condition: make('False', ReadinessGatesNotReady, messages.join(', ')),
      why: why('condition.ready.gatesNotReady', { gates: failing }, rule, {
        readinessGates: gatesList.length,
      }),
    };
  }
  return {
    condition: make('True'),
    why: why('condition.ready.true', { gates: gatesList.length }, rule, {
      readinessGates: gatesList.length,
    }),
  };
}

/** GeneratePodReadyCondition: ContainersReady, then every spec.readinessGates condition must be True. */
export function generatePodReadyCondition(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  conditions: readonly V1PodCondition[] | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): V1PodCondition {
  return podReadyDecision(pod, oldPodStatus, conditions, containerStatuses, podPhase, gates)
    .condition;
}

/** isInitContainerInitialized: a sidecar counts once started, a regular init container once ready. */
function isInitContainerInitialized(sidecar: boolean, status: V1ContainerStatus): boolean {
  return sidecar ? status.started === true : status.ready === true;
}

export function podInitializedDecision(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): ConditionDecision {
  const rule = `${GENERATE} GeneratePodInitializedCondition`;
  const make = (status: ConditionStatus, reason?: string, message?: string) =>
    condition(pod, oldPodStatus, POD_CONDITION.Initialized, status, gates, reason, message);
  const view = specOf(pod);
  if (
    (containerStatuses === undefined || containerStatuses === null) &&
    view.initContainers.length > 0
  ) {
    return {
      condition: make('False', UnknownContainerStatuses),
      why: why('condition.initialized.unknownStatuses', {}, rule),
    };
  }
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of view.initContainers) {
    const s = getContainerStatus(containerStatuses ?? [], c.name);
    if (!s) unknown.push(c.name);
    else if (!isInitContainerInitialized(isRestartableInitContainer(c), s)) incomplete.push(c.name);
  }
  const inputs = {
    phase: podPhase,
    initContainers: view.initContainers.length,
    unknown: unknown.length,
    incomplete: incomplete.length,
  };
  if (podPhase === 'Succeeded' && unknown.length === 0) {
    return {
      condition: make('True', PodCompleted),
      why: why('condition.initialized.podCompleted', {}, rule, inputs),
    };
  }
  if (hasAnyRegularContainerStarted(view.spec, containerStatuses)) {
    const id =
      view.initContainers.length === 0
        ? 'condition.initialized.noInitContainers'
        : 'condition.initialized.regularStarted';
    return { condition: make('True'), why: why(id, {}, rule, inputs) };
  }
  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length > 0)
    messages.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (messages.length > 0) {
    // RestartAllContainers: a pod that was initialized stays initialized while it restarts in place.
    if (
      enabled(gates, 'RestartAllContainersOnContainerExits') &&
      asArray(oldPodStatus?.conditions).some(
        (c) => isObj(c) && c.type === POD_CONDITION.Initialized && c.status === 'True',
      )
    ) {
      return {
        condition: make('True'),
        why: why('condition.initialized.keptTrue', {}, rule, inputs),
      };
    }
    return {
      condition: make('False', ContainersNotInitialized, messages.join(', ')),
      why: why(
        'condition.initialized.notInitialized',
        { unknown, incomplete, unknownCount: unknown.length, incompleteCount: incomplete.length },
        rule,
        inputs,
      ),
    };
  }
  if (view.initContainers.length === 0) {
    return {
      condition: make('True'),
      why: why('condition.initialized.noInitContainers', {}, rule, inputs),
    };
  }
  return {
    condition: make('True'),
    why: why('condition.initialized.true', { count: view.initContainers.length }, rule, inputs),
  };
}

/**
 * GeneratePodInitializedCondition: every init container done (sidecars started, others ready), or
 * a regular container has already run (sidecar restarts after initialization do not undo it).
 */
export function generatePodInitializedCondition(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): V1PodCondition {
  return podInitializedDecision(pod, oldPodStatus, containerStatuses, podPhase, gates).condition;
}

export function podReadyToStartContainersDecision(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  sandboxes: readonly RuntimeSandbox[],
  gates?: FeatureGates,
): ConditionDecision {
  const rule = `${GENERATE} GeneratePodReadyToStartContainersCondition (kuberuntime/util PodSandboxChanged)`;
  const d = podSandboxChanged(pod, sandboxes);
  const make = (status: ConditionStatus, reason?: string, message?: string) =>
    condition(
      pod,
      oldPodStatus,
      POD_CONDITION.PodReadyToStartContainers,
      status,
      gates,
      reason,
      message,
    );
  const inputs = {
    sandboxes: Array.isArray(sandboxes) ? sandboxes.length : 0,
    ready: d.readyCount,
  };
  if (!d.changed) {
    return {
      condition: make('True'),
      why: why('condition.readyToStart.true', {}, rule, {
        ...inputs,
        ip: str(d.sandbox?.network?.ip),
      }),
    };
  }
  const c = make('False', PodSandboxNotReadyReason, d.message);
  switch (d.cause) {
    case 'noSandbox':
      return { condition: c, why: why('condition.readyToStart.noSandbox', {}, rule, inputs) };
    case 'multipleReady':
      return {
        condition: c,
        why: why('condition.readyToStart.multipleReady', { count: d.readyCount }, rule, inputs),
      };
    case 'networkNamespaceMode':
      return {
        condition: c,
        why: why(
          'condition.readyToStart.networkNamespaceMode',
          { want: networkNamespaceForPod(pod), got: d.sandbox?.networkMode ?? 'POD' },
          rule,
          inputs,
        ),
      };
    case 'noIP':
      return { condition: c, why: why('condition.readyToStart.noIP', {}, rule, inputs) };
    case 'notReady':
    case undefined:
      return { condition: c, why: why('condition.readyToStart.notReady', {}, rule, inputs) };
  }
}

/** GeneratePodReadyToStartContainersCondition: True iff no new sandbox is needed. Sandboxes newest first. */
export function generatePodReadyToStartContainersCondition(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  sandboxes: readonly RuntimeSandbox[],
  gates?: FeatureGates,
): V1PodCondition {
  return podReadyToStartContainersDecision(pod, oldPodStatus, sandboxes, gates).condition;
}

/** PodScheduled: the kubelet always writes True for a pod it runs. */
export function podScheduledDecision(
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  gates?: FeatureGates,
): ConditionDecision {
  return {
    condition: condition(pod, oldPodStatus, POD_CONDITION.PodScheduled, 'True', gates),
    why: why('condition.scheduled.true', {}, 'pkg/kubelet/kubelet_pods.go generateAPIPodStatus'),
  };
}
