/**
 * Feature gates that change the rules in lib/kubelet, keyed by their upstream names.
 *
 * DEFAULT_FEATURE_GATES are the newest supported minor's defaults (pkg/features/kube_features.go,
 * kubernetes/kubernetes, the 1.35/1.36 gate table): ContainerRestartRules is beta and on since
 * 1.35; RestartAllContainersOnContainerExits is alpha (1.35) and off; PodReadyToStartContainersCondition
 * is beta and on since 1.29; PodObservedGenerationTracking is GA and locked on since 1.35;
 * ChangeContainerStatusOnKubeletRestart is off; SidecarContainers is GA (1.33); KubeletCrashLoopBackOffMax
 * is beta and on since 1.35; ReduceDefaultCrashLoopBackOffDecay is alpha (1.33) and off.
 * version.ts has every gate's default per minor (1.28 on), which a node's kubelet version selects.
 */
export const DEFAULT_FEATURE_GATES = {
  ContainerRestartRules: true,
  RestartAllContainersOnContainerExits: false,
  PodReadyToStartContainersCondition: true,
  PodObservedGenerationTracking: true,
  ChangeContainerStatusOnKubeletRestart: false,
  SidecarContainers: true,
  KubeletCrashLoopBackOffMax: true,
  ReduceDefaultCrashLoopBackOffDecay: false,
} as const;

export type FeatureGateName = keyof typeof DEFAULT_FEATURE_GATES;

/** Gate name → enabled. Absent gates take the upstream default; unknown names are ignored. */
export type FeatureGates = Readonly<Partial<Record<FeatureGateName, boolean>>> &
  Readonly<Record<string, boolean | undefined>>;

export function enabled(gates: FeatureGates | undefined, name: FeatureGateName): boolean {
  const value: unknown = gates?.[name];
  return typeof value === 'boolean' ? value : DEFAULT_FEATURE_GATES[name];
}
