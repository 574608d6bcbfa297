/**
 * Does the pod need a new sandbox? Port of PodSandboxChanged from
 * pkg/kubelet/kuberuntime/util/util.go (kubernetes/kubernetes; the stored text returns
 * (changed, attempt, sandboxID); master after PR #135300, Nov 2025, also returns a reason string,
 * which is what PodReadyToStartContainers now carries as its message).
 *
 * Message texts: "no pod sandbox exists" and "pod sandbox has no IP address" are quoted from
 * PR #135300; the other three constants were not in the sources available here, so their wording
 * follows the kubelet's log lines for the same branches (marked below).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { NamespaceMode, RuntimeSandbox } from './runtime';
import { asArray, isObj, specOf, str } from './util';

/** pkg/kubelet/types: PodSandboxNotReadyReason and the PodSandboxNotReadyMsg* constants. */
export const PodSandboxNotReadyReason = 'PodSandboxNotReady';
export const PodSandboxNotReadyMsgNoPodSandbox = 'no pod sandbox exists';
/** Wording reconstructed (upstream log: "Multiple sandboxes are ready for Pod"). */
export const PodSandboxNotReadyMsgMultipleSandboxes = 'multiple pod sandboxes are ready';
/** Wording reconstructed (upstream log: "No ready sandbox for pod can be found"). */
export const PodSandboxNotReadyMsgSandboxNotReady = 'pod sandbox is not ready';
/** Wording reconstructed (upstream log: "Sandbox for pod has changed"). */
export const PodSandboxNotReadyMsgNetworkNamespaceMode =
  'pod sandbox network namespace mode has changed';
export const PodSandboxNotReadyMsgNoIPAddress = 'pod sandbox has no IP address';

export type SandboxChangeCause =
  'noSandbox' | 'multipleReady' | 'notReady' | 'networkNamespaceMode' | 'noIP';

export interface SandboxDecision {
  changed: boolean;
  cause?: SandboxChangeCause;
  message?: string;
  /** Attempt number the next sandbox would get. */
  attempt: number;
  sandbox?: RuntimeSandbox;
  readyCount: number;
}

/** NetworkNamespaceForPod: NODE for hostNetwork pods, POD otherwise. */
export const networkNamespaceForPod = (pod: V1Pod | undefined): NamespaceMode =>
  specOf(pod).spec.hostNetwork === true ? 'NODE' : 'POD';

export function podSandboxChanged(
  pod: V1Pod | undefined,
  sandboxes: readonly RuntimeSandbox[],
): SandboxDecision {
  const list = asArray(sandboxes).filter((s) => isObj(s));
  const first = list[0];
  if (!first) {
    return {
      changed: true,
      cause: 'noSandbox',
      message: PodSandboxNotReadyMsgNoPodSandbox,
      attempt: 0,
      readyCount: 0,
    };
  }
  const readyCount = list.filter((s) => s.state === 'ready').length;
  const next =
    (typeof first.attempt === 'number' && Number.isFinite(first.attempt) ? first.attempt : 0) + 1;
  const changed = (cause: SandboxChangeCause, message: string): SandboxDecision => ({
    changed: true,
    cause,
    message,
    attempt: next,
    sandbox: first,
    readyCount,
  });
  if (readyCount > 1) return changed('multipleReady', PodSandboxNotReadyMsgMultipleSandboxes);
  if (first.state !== 'ready') return changed('notReady', PodSandboxNotReadyMsgSandboxNotReady);
  // An uninspected sandbox reports no namespace options; the proto default for the mode is POD.
  if ((first.networkMode ?? 'POD') !== networkNamespaceForPod(pod)) {
    return changed('networkNamespaceMode', PodSandboxNotReadyMsgNetworkNamespaceMode);
  }
  if (
    specOf(pod).spec.hostNetwork !== true &&
    isObj(first.network) &&
    str(first.network.ip) === ''
  ) {
    return changed('noIP', PodSandboxNotReadyMsgNoIPAddress);
  }
  return { changed: false, attempt: next - 1, sandbox: first, readyCount };
}
