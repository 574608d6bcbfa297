export {
  KubeView,
  type KubeViewOptions,
  type KubeViewStatus,
  type KubeChange,
  type SandboxJoin,
} from './view';
export {
  computeSnapshotDrift,
  withDrift,
  SnapshotDriftError,
  type SnapshotDrift,
  type SnapshotDriftOptions,
} from './snapshot';
export { loadKubeConfig, KubeConfigError, type KubeConfigSource } from './config';
export { podHints, syncErrorsOf } from './hints';
export { toTimelineEvent, containerOf, type NewK8sEvent } from './events';
export type { ReflectorStatus } from './reflector';
export {
  DriftBridge,
  type DriftSource,
  type TimelineSink,
  type DriftBridgeOptions,
} from './bridge';
