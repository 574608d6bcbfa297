/** Explanations for the pod conditions: the same inputs as the Generate* functions, returning the why. */
import type {
  V1ContainerStatus,
  V1Pod,
  V1PodCondition,
  V1PodStatus,
} from '@kubernetes/client-node';
import {
  containersReadyDecision,
  podInitializedDecision,
  podReadyDecision,
  podReadyToStartContainersDecision,
} from './conditions';
import type { Explanation } from './explanation';
import type { FeatureGates } from './gates';
import type { RuntimeSandbox } from './runtime';

export const explainContainersReady = (
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): Explanation =>
  containersReadyDecision(pod, oldPodStatus, containerStatuses, podPhase, gates).why;

export const explainPodReady = (
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  conditions: readonly V1PodCondition[] | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): Explanation =>
  podReadyDecision(pod, oldPodStatus, conditions, containerStatuses, podPhase, gates).why;

export const explainPodInitialized = (
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  containerStatuses: readonly V1ContainerStatus[] | undefined,
  podPhase: string,
  gates?: FeatureGates,
): Explanation => podInitializedDecision(pod, oldPodStatus, containerStatuses, podPhase, gates).why;

export const explainPodReadyToStartContainers = (
  pod: V1Pod,
  oldPodStatus: V1PodStatus | undefined,
  sandboxes: readonly RuntimeSandbox[],
  gates?: FeatureGates,
): Explanation => podReadyToStartContainersDecision(pod, oldPodStatus, sandboxes, gates).why;
