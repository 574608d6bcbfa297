/** server/sim: simulated CRI nodes (real gRPC servers over proto/runtime/v1). See CATALOGUE.md. */
export { startSimNode, startSimCluster } from './node';
export type { ListenerMode, SimCluster, SimClusterOptions, SimNode, SimNodeOptions } from './node';
export { createClock, DEFAULT_MANUAL_START } from './clock';
export type { ClockConfig, SimClock, TimerHandle } from './clock';
export { createRandom } from '@/lib/random';
export type { Random } from '@/lib/random';
export { Faults } from './faults';
export type { ErrorFault, FaultConfig, LatencySpec, RpcName } from './faults';
export { SimRuntime } from './model';
export type { ContainerRecord, EventsMode, SandboxRecord, SimCondition } from './model';
export { StatsView, DEFAULT_CAPACITY } from './stats';
export type { NodeCapacity, NodePressure } from './stats';
export { RawListener } from './listener';
export { BUSYBOX_IMAGE, CATALOGUE, SANDBOX_IMAGE } from './catalogue';
export type { CatalogueEntry } from './catalogue';
