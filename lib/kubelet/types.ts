/** Small shared vocabulary of lib/kubelet (API enum values exactly as the API spells them). */
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

export const POD_PHASES: readonly PodPhase[] = ['Pending', 'Running', 'Succeeded', 'Failed'];

export const isTerminalPhase = (phase: unknown): phase is 'Succeeded' | 'Failed' =>
  phase === 'Succeeded' || phase === 'Failed';

/** Pod condition types the kubelet writes (pkg/kubelet/types/pod_status.go plus status/generate.go). */
export const POD_CONDITION = {
  PodScheduled: 'PodScheduled',
  Ready: 'Ready',
  Initialized: 'Initialized',
  ContainersReady: 'ContainersReady',
  PodReadyToStartContainers: 'PodReadyToStartContainers',
  DisruptionTarget: 'DisruptionTarget',
  AllContainersRestarting: 'AllContainersRestarting',
  PodResizeInProgress: 'PodResizeInProgress',
  PodResizePending: 'PodResizePending',
} as const;
