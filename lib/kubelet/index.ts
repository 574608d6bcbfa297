/**
 * lib/kubelet — the kubelet's rules as pure functions: CRI records → V1ContainerStatus, pod phase,
 * pod and node conditions, back-off, state machines, and an explanation for every derived value.
 */
export * from './runtime';
export * from './explanation';
export { WRITERS, writerOf, writersOf, type Writer } from './writers';
export { DEFAULT_FEATURE_GATES, enabled, type FeatureGateName, type FeatureGates } from './gates';
export {
  POD_PHASES,
  POD_CONDITION,
  isTerminalPhase,
  type ConditionStatus,
  type PodPhase,
} from './types';
export { goDuration, apiTime } from './util';
export {
  containerShouldRestart,
  findMatchingContainerRestartRule,
  isContainerRestartable,
  isRestartableInitContainer,
  shouldContainerBeRestarted,
} from './restart';
export {
  RESTARTING_ALL_CONTAINERS,
  computePhase,
  getPhase,
  isStaticPod,
  type PhaseCounts,
  type PhaseDecision,
  type PhaseNames,
  type PhaseRule,
} from './phase';
export {
  ContainersNotInitialized,
  ContainersNotReady,
  PodCompleted,
  PodFailed,
  ReadinessGatesNotReady,
  UnknownContainerStatuses,
  calculatePodConditionObservedGeneration,
  containersReadyDecision,
  generateContainersReadyCondition,
  generatePodInitializedCondition,
  generatePodReadyCondition,
  generatePodReadyToStartContainersCondition,
  hasAnyRegularContainerStarted,
  podInitializedDecision,
  podReadyDecision,
  podReadyToStartContainersDecision,
  podScheduledDecision,
  type ConditionDecision,
} from './conditions';
export * from './sandbox';
export { updatePodStatusProbes, type ProbeResults } from './prober';
export * from './backoff';
export * from './reasons';
export {
  convertToAPIContainerStatuses,
  hasAnyRegularContainerCreated,
  type ConvertOptions,
} from './convert';
export {
  inferCrashLoops,
  podIdentity,
  reconstructBackoffEntry,
  type CrashLoop,
  type CrashLoopInput,
} from './crashloop';
export { computePodQOS, getPodQOS, type QOSClass } from './qos';
export { memoryBytes, milliCpu, parseQuantity, resourceQuantity } from './quantity';
export {
  INFERRED_ANNOTATION,
  INFERRED_SIDECAR_ANNOTATION,
  inferPodSpec,
  podFromSpecAnnotation,
} from './spec';
export {
  DEFAULT_NODE_TIMINGS,
  KUBELET_DEFAULTS,
  MAX_CONTAINER_RESTART_PERIOD_RANGE_MS,
  crashLoopBackOffPeriods,
  resolveTimings,
  type NodeTimings,
} from './timings';
export {
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  evictionDueAt,
  explainEviction,
  tolerationFor,
  type NodeNotReadyCause,
  type NodeReadiness,
} from './eviction';
export {
  DeadlineExceededMessage,
  DeadlineExceededReason,
  generateAPIPodStatus,
  hasAnyActiveRegularContainerStarted,
  nodeLifecycleReady,
  podsMarking,
  sortPodIPs,
  type GenerateAPIPodStatusInput,
  type GenerateAPIPodStatusResult,
  type HostIPsSource,
  type PodStatusWhy,
} from './status';
export { canonicalIP, hostNetworkPodIPs, ipFamily, nodeHostIPs, parseIPSloppy } from './ip';
export { explainPhase, phaseExplanation } from './explain-phase';
export { explainContainerState, type ContainerContext } from './explain-container';
export {
  explainContainersReady,
  explainPodInitialized,
  explainPodReady,
  explainPodReadyToStartContainers,
} from './explain-conditions';
export {
  NODE_CONDITION,
  NodeStatusNeverUpdatedMessage,
  NodeStatusNeverUpdatedReason,
  NodeStatusUnknownMessage,
  NodeStatusUnknownReason,
  aggregateMessage,
  formatRuntimeCondition,
  generateNodeConditions,
  type NodeConditionsInput,
  type NodeConditionsResult,
} from './node';
export {
  DEFAULT_EVICTION_HARD,
  SIGNALS_BY_CONDITION,
  judge,
  type EvictionThresholds,
  type PressureCondition,
  type Signal,
  type Threshold,
} from './pressure';
export {
  CONTAINER_MACHINE,
  KUBELET_CAUSES,
  MACHINES,
  NODE_READY_MACHINE,
  POD_PHASE_MACHINE,
  containerStateName,
  findEdge,
  isLegalTransition,
  validateTransition,
  type ContainerStateName,
  type Driver,
  type Edge,
  type KubeletCause,
  type NodeReadyState,
  type PodPhaseState,
  type StateMachine,
  type TransitionVerdict,
} from './machines';
export { WHY, why, type WhyId, type WhyParams } from './why';
export {
  DEFAULT_KUBELET_VERSION,
  GATE_HISTORY,
  KUBELET_VERSION_SOURCES,
  NEWEST_KUBELET_MINOR,
  OLDEST_KUBELET_MINOR,
  REDUCED_CRASH_LOOP_BACKOFF,
  configuredKubeletVersion,
  crashLoopBackOffFor,
  explainKubeletVersion,
  gateDefault,
  gatesForMinor,
  kubeletFeatures,
  minorOf,
  parseKubeletVersion,
  parseKubeletVersionSettings,
  resolveKubeletVersion,
  ruleMinorOf,
  type KubeletFeatures,
  type KubeletVersion,
  type KubeletVersionSettings,
  type KubeletVersionSource,
} from './version';
export { InitContainerRestartPolicyForbidden, kubeletAdmissionRejection } from './admission';
