/**
 * The kubelet's container reasons, named as upstream names them — the one home of this
 * vocabulary in Podscope (the rules, the driver, the API-server hints and the console import it).
 *
 * Upstream (kubernetes/kubernetes, read at the commits listed in docs/kubelet-semantics.md):
 * - pkg/kubelet/images/types.go: ErrImagePullBackOff, ErrImageInspect, ErrImagePull,
 *   ErrImageNeverPull, ErrInvalidImageName, ErrRegistryUnavailable, ErrSignatureValidationFailed;
 * - pkg/kubelet/kuberuntime/kuberuntime_container.go: ErrCreateContainerConfig,
 *   ErrPreCreateHook, ErrCreateContainer, ErrPreStartHook, ErrPostStartHook;
 * - pkg/kubelet/container/sync_result.go: ErrRunContainer, ErrCrashLoopBackOff,
 *   ErrCreatePodSandbox, ErrConfigPodSandbox, ErrKillPodSandbox;
 * - pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses: ContainerCreating,
 *   PodInitializing; pkg/kubelet/container/runtime.go: ContainerReasonStatusUnknown;
 * - terminated reasons come from the runtime (containerd's CRI plugin: Completed, Error,
 *   OOMKilled, StartError).
 */

// ── waiting: image pulls (pkg/kubelet/images/types.go) ──────────────────────
export const ErrImagePull = 'ErrImagePull';
export const ErrImagePullBackOff = 'ImagePullBackOff';
export const ErrImageNeverPull = 'ErrImageNeverPull';
export const ErrInvalidImageName = 'InvalidImageName';
export const ErrImageInspect = 'ImageInspectError';
export const ErrRegistryUnavailable = 'RegistryUnavailable';
export const ErrSignatureValidationFailed = 'SignatureValidationFailed';

// ── waiting: starting a container (kuberuntime_container.go, sync_result.go) ─
export const ErrCrashLoopBackOff = 'CrashLoopBackOff';
export const ErrCreateContainerConfig = 'CreateContainerConfigError';
export const ErrCreateContainer = 'CreateContainerError';
export const ErrPreCreateHook = 'PreCreateHookError';
export const ErrPreStartHook = 'PreStartHookError';
export const ErrPostStartHook = 'PostStartHookError';
export const ErrRunContainer = 'RunContainerError';
export const ErrCreatePodSandbox = 'CreatePodSandboxError';
export const ErrConfigPodSandbox = 'ConfigPodSandboxError';
export const ErrKillPodSandbox = 'KillPodSandboxError';

// ── waiting: the default reasons of convertToAPIContainerStatuses ───────────
export const ContainerCreating = 'ContainerCreating';
export const PodInitializing = 'PodInitializing';

// ── terminated ──────────────────────────────────────────────────────────────
/** kubecontainer.ContainerReasonStatusUnknown: a container that could not be located. */
export const ContainerReasonStatusUnknown = 'ContainerStatusUnknown';
/** containerd's completeExitReason, errorExitReason, oomExitReason. */
export const CompleteExitReason = 'Completed';
export const ErrorExitReason = 'Error';
export const OOMExitReason = 'OOMKilled';
/** containerd: the container was created but its start failed (exit code 128). */
export const StartErrorReason = 'StartError';

/** Image pull failures the kubelet reports as waiting reasons. */
export const IMAGE_PULL_REASONS: ReadonlySet<string> = new Set([
  ErrImagePull,
  ErrImagePullBackOff,
  ErrImageNeverPull,
  ErrInvalidImageName,
  ErrImageInspect,
  ErrRegistryUnavailable,
  ErrSignatureValidationFailed,
]);

/**
 * Waiting reasons only the kubelet's sync produces (its reason cache; the CRI cannot report
 * them). Each means something went wrong: an error or a back-off.
 */
export const SYNC_ERROR_REASONS: ReadonlySet<string> = new Set([
  ErrCrashLoopBackOff,
  ...IMAGE_PULL_REASONS,
  ErrCreateContainerConfig,
  ErrCreateContainer,
  ErrPreCreateHook,
  ErrPreStartHook,
  ErrPostStartHook,
  ErrRunContainer,
  ErrCreatePodSandbox,
  ErrConfigPodSandbox,
  ErrKillPodSandbox,
]);
