/**
 * What the driver tells its listeners besides hints: the things a kubelet would record as Events
 * (Killing, preStop, Unhealthy, FailedPostStartHook, …) and the prober's result changes. The
 * engine puts them on the timeline with their causes (server/engine), tests and the scenario
 * runner read them directly.
 */
import type { HookNote } from './pod-worker/hooks';
import type { KillEvent } from './pod-worker/kill';
import type { ProbeNote } from './probes/manager';

export type DriverEvent =
  | KillEvent
  | ProbeNote
  | HookNote
  | {
      /** SyncPod refused a pod off the host network: the runtime's network is not ready (runtime-state.ts). */
      type: 'networkNotReady';
      message: string;
    }
  | {
      /** The kubelet's eviction manager evicted the pod (eviction.ts). */
      type: 'evictedByKubelet';
      message: string;
    }
  | {
      /** The taint-eviction controller deleted the pod from the API server (Driver.evict). */
      type: 'evicted';
      message: string;
    }
  | {
      /** Spec fields the stand-in does not implement (see unsupported.ts). */
      type: 'unsupported';
      fields: string[];
      message: string;
    };

export interface DriverNote {
  uid: string;
  /** Clock ms when it happened. */
  at: number;
  event: DriverEvent;
}
