/**
 * The panel's view of the rule book's state machines (lib/kubelet/machines.ts): which machine
 * each layer uses, the tone of each state in the palette, and how its name is shown.
 */
import {
  MACHINES as KUBELET_MACHINES,
  type Driver,
  type StateMachine,
} from '@/lib/kubelet/machines';
import type { WhyId } from '@/lib/kubelet/why';
import type { Layer } from '@/components/data/entity';
import type { Tone } from '@/components/visual/palette';

export type MachineId = StateMachine<string>['id'];

export interface MachineState {
  /** The machine's own state id (container states are lower case, as in V1ContainerState). */
  id: string;
  /** As the API and kubectl print it: Waiting, Running, Pending, True … */
  label: string;
  tone: Tone;
  terminal: boolean;
}

export interface MachineEdge {
  id: string;
  from: string;
  to: string;
  drivers: readonly Driver[];
  why: WhyId;
}

export interface Machine {
  id: MachineId;
  states: MachineState[];
  edges: MachineEdge[];
}

const TONES: Record<string, Tone> = {
  waiting: 'pending',
  running: 'ok',
  terminated: 'done',
  Pending: 'pending',
  Running: 'ok',
  Succeeded: 'done',
  Failed: 'failed',
  True: 'ok',
  False: 'failed',
  Unknown: 'unknown',
};

const label = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

function view(m: StateMachine<string>): Machine {
  return {
    id: m.id,
    states: m.states.map((id) => ({
      id,
      label: label(id),
      tone: TONES[id] ?? 'unknown',
      terminal: m.terminal.includes(id),
    })),
    edges: m.edges.map((e) => ({
      id: e.id,
      from: e.from,
      to: e.to,
      drivers: e.drivers,
      why: e.why,
    })),
  };
}

/** The machine each drawn layer moves through. */
export const MACHINE_OF: Record<Layer, Machine> = {
  container: view(KUBELET_MACHINES.container),
  pod: view(KUBELET_MACHINES.podPhase),
  node: view(KUBELET_MACHINES.nodeReady),
};
