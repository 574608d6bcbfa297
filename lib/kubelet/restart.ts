/**
 * Restart rules: which containers the kubelet restarts.
 *
 * Ports of upstream, names kept:
 * - pkg/api/v1/pod/util.go — IsRestartableInitContainer, IsContainerRestartable,
 *   ContainerShouldRestart, findMatchingContainerRestartRule (kubernetes/kubernetes master as stored,
 *   the ContainerRestartRules era; RestartAllContainers handling per KUBELET-SEMANTICS.md §1, which
 *   the TestPodPhaseWithRestartAllContainers table of kubelet_pods_test.go @ 001a80e9 requires).
 * - pkg/kubelet/container/helpers.go — ShouldContainerBeRestarted (stored text).
 */
import type {
  V1Container,
  V1ContainerRestartRule,
  V1Pod,
  V1PodSpec,
} from '@kubernetes/client-node';
import { enabled, type FeatureGates } from './gates';
import { findContainerStatusByName } from './records';
import type { RuntimePodStatus } from './runtime';
import { asArray, int32, isObj, specOf, str } from './util';

/** A sidecar: an init container whose own restartPolicy is Always. */
export function isRestartableInitContainer(container: V1Container | undefined): boolean {
  return isObj(container) && container.restartPolicy === 'Always';
}

/**
 * findMatchingContainerRestartRule: the first rule whose exit-code clause matches. `In` matches a
 * listed code, `NotIn` an unlisted one; rules with another operator or no clause never match.
 */
export function findMatchingContainerRestartRule(
  container: V1Container,
  exitCode: number,
): V1ContainerRestartRule | undefined {
  for (const rule of asArray(container.restartPolicyRules)) {
    if (!isObj(rule) || !isObj(rule.exitCodes)) continue;
    const matched = asArray(rule.exitCodes.values).some((code) => code === exitCode);
    if (rule.exitCodes.operator === 'In' && matched) return rule;
    if (rule.exitCodes.operator === 'NotIn' && !matched) return rule;
  }
  return undefined;
}

/**
 * IsContainerRestartable: could this container ever be restarted (a Restart rule, a container
 * policy other than Never, or a pod policy other than Never).
 */
export function isContainerRestartable(
  spec: V1PodSpec | undefined,
  container: V1Container,
): boolean {
  if (typeof container.restartPolicy === 'string') {
    if (asArray(container.restartPolicyRules).some((r) => isObj(r) && r.action === 'Restart')) {
      return true;
    }
    return container.restartPolicy !== 'Never';
  }
  return str(spec?.restartPolicy) !== 'Never';
}

/**
 * ContainerShouldRestart: rules first (in order), then the container's restartPolicy, then the
 * pod's. An unknown or empty pod policy defaults to Always, as the API does.
 * A matching RestartAllContainers rule restarts the container when that gate is on.
 */
export function containerShouldRestart(
  container: V1Container,
  spec: V1PodSpec | undefined,
  exitCode: number,
  gates?: FeatureGates,
): boolean {
  const code = int32(exitCode);
  if (typeof container.restartPolicy === 'string') {
    const rule = findMatchingContainerRestartRule(container, code);
    if (rule?.action === 'Restart') return true;
    if (
      rule?.action === 'RestartAllContainers' &&
      enabled(gates, 'RestartAllContainersOnContainerExits')
    ) {
      return true;
    }
    switch (container.restartPolicy) {
      case 'Always':
        return true;
      case 'OnFailure':
        return code !== 0;
      case 'Never':
        return false;
      default:
      // fall back to the pod-level policy
    }
  }
  switch (str(spec?.restartPolicy)) {
    case 'Never':
      return false;
    case 'OnFailure':
      return code !== 0;
    default:
      return true;
  }
}

/**
 * ShouldContainerBeRestarted: will the next SyncPod (re)start this container? Never for a pod being
 * deleted; yes when the runtime has no record, or the newest one is created or unknown; no while it
 * runs; for an exited one, the restart policy decides (container-level first, as the kubelet does
 * for sidecars and with ContainerRestartRules).
 */
export function shouldContainerBeRestarted(
  container: V1Container,
  pod: V1Pod | undefined,
  runtime: RuntimePodStatus | undefined,
  gates?: FeatureGates,
): boolean {
  if (isObj(pod) && isObj(pod.metadata) && pod.metadata.deletionTimestamp != null) return false;
  const status = findContainerStatusByName(runtime, str(container.name));
  if (!status) return true;
  switch (status.state) {
    case 'running':
      return false;
    case 'exited':
      return containerShouldRestart(container, specOf(pod).spec, int32(status.exitCode), gates);
    case 'created':
    case 'unknown':
      return true;
    default:
      // a state outside the enum (bad input) reads as unknown
      return true;
  }
}
