/**
 * Feature gates that change the rules in lib/kubelet, keyed by their upstream names.
 *
 * Defaults follow pkg/features/kube_features.go (kubernetes/kubernetes, master as stored, the
 * 1.35/1.36 gate table): ContainerRestartRules is beta and on since 1.35;
 * RestartAllContainersOnContainerExits is alpha (1.35) and off; PodReadyToStartContainersCondition
 * is beta and on since 1.29; PodObservedGenerationTracking is GA and locked on since 1.35;
 * ChangeContainerStatusOnKubeletRestart is off.
 */
export const DEFAULT_FEATURE_GATES = {
  ContainerRestartRules: true,
  RestartAllContainersOnContainerExits: false,
  PodReadyToStartContainersCondition: true,
  PodObservedGenerationTracking: true,
  ChangeContainerStatusOnKubeletRestart: false,
} as const;

export type FeatureGateName = keyof typeof DEFAULT_FEATURE_GATES;

/** Gate name → enabled. Absent gates take the upstream default; unknown names are ignored. */
export type FeatureGates = Readonly<Partial<Record<FeatureGateName, boolean>>> &
  Readonly<Record<string, boolean | undefined>>;

export function enabled(gates: FeatureGates | undefined, name: FeatureGateName): boolean {
  const value: unknown = gates?.[name];
  return typeof value === 'boolean' ? value : DEFAULT_FEATURE_GATES[name];
}
