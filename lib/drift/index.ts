export * from './types';
export * from './options';
export * from './api';
export {
  collectFindings,
  classify,
  classifyAll,
  detectClusterDrift,
  type DetectInput,
} from './detect';
export { DriftTracker } from './tracker';
export { driftEvents, sameDrift, allDrift } from './patches';
