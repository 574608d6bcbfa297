/** server/sim: simulated CRI nodes (real gRPC servers over proto/runtime/v1). See CATALOGUE.md. */
export { startSimNode, startSimCluster } from './node';
export type { ListenerMode, SimCluster, SimClusterOptions, SimNode, SimNodeOptions } from './node';
export { createClock, DEFAULT_MANUAL_START } from './clock/clock';
export type { ClockConfig, SimClock, TimerHandle } from './clock/clock';
export { createRandom } from '@/lib/random';
export type { Random } from '@/lib/random';
export { Faults } from './faults';
export type { ErrorFault, FaultConfig, LatencySpec, RpcName } from './faults';
export { SimRuntime } from './runtime/model';
export type { ContainerRecord, EventsMode, SandboxRecord, SimCondition } from './runtime/model';
export { StatsView, DEFAULT_CAPACITY } from './runtime/stats';
export type { NodeCapacity, NodePressure } from './runtime/stats';
export { RawListener } from './listener';
export { BUSYBOX_IMAGE, CATALOGUE, SANDBOX_IMAGE } from './runtime/catalogue';
export type { CatalogueEntry } from './runtime/catalogue';
