/**
 * Scripted clusters for development, the offline demo (`?source=demo`) and tests. Every fixture
 * is a timeline (initial state + events) produced by folding events through the shared reducer.
 */
export { createDemoTimeline, createDemoWorld, DEMO_NODES, type DemoWorld } from './fixtures/demo';
export { generateScaleCluster, type ScaleOptions } from './fixtures/scale';
export { ClusterScript } from './fixtures/script';
export { PodActor, type PodPlan, type ContainerPlan, type Behaviour } from './fixtures/pod-actor';
