/**
 * The kubelet's own admission of a pod, where it depends on the node's kubelet version.
 *
 * With SidecarContainers off (1.28's default; version.ts) the kubelet refuses a pod that has an
 * init container with `restartPolicy: Always`: pkg/kubelet/lifecycle/predicate.go returns reason
 * `InitContainerRestartPolicyForbidden` (the constant, "the pod … uses a restart policy other than
 * Always for some of its init containers", is in every stored predicate.go since; kubelet.go
 * lists it among admissionRejectionReasons), and kubelet.go rejectPod posts the pod Failed with
 * that reason and the message `Pod was rejected: ` + the predicate's message (read in the newest
 * stored kubelet.go). The predicate's own message, `Init container "<name>" may not have a
 * non-default restartPolicy`, is the 1.28 text as recalled; no stored 1.28–1.32 predicate.go was
 * found to check it against.
 *
 * A rejected pod never gets a sandbox. The rule is for pods the API server binds to a node whose
 * runtime has nothing of them yet (the no-sandbox path); a pod whose containers run shows what
 * the runtime shows.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { enabled, type FeatureGates } from './gates';
import { isRestartableInitContainer } from './restart';
import { asArray, isObj } from './util';

export const InitContainerRestartPolicyForbidden = 'InitContainerRestartPolicyForbidden';

/** The status rejectPod posts when this kubelet would not admit the pod; undefined when it would. */
export function kubeletAdmissionRejection(
  pod: V1Pod | undefined,
  gates: FeatureGates | undefined,
): Pick<V1PodStatus, 'phase' | 'reason' | 'message'> | undefined {
  if (enabled(gates, 'SidecarContainers')) return undefined;
  const spec = isObj(pod) && isObj(pod.spec) ? pod.spec : undefined;
  const sidecar = asArray(spec?.initContainers).find((c) => isRestartableInitContainer(c));
  if (!sidecar) return undefined;
  return {
    phase: 'Failed',
    reason: InitContainerRestartPolicyForbidden,
    message: `Pod was rejected: Init container "${String(sidecar.name)}" may not have a non-default restartPolicy`,
  };
}
