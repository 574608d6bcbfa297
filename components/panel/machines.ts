/**
 * The panel's view of the rule book's state machines (lib/kubelet/machines.ts): which machine
 * each layer uses, the tone of each state in the palette, and how its name is shown.
 *
 * The container's drawing splits the rule book's Running in two, as the prober does: `running`
 * (started and ready) and `unready` — Running but not ready: its startup probe has not succeeded
 * yet (started=false) or its readiness probe has not, or no longer (ready=false). The rule book
 * (and the walkthroughs' questions, which ask for the V1ContainerState) keep the three states.
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
  /**
   * Drawn from a message (`ui.panel.machineState.<key>`) instead of `label`: one key per
   * readiness the state stands for, the first the default.
   */
  labelKeys?: Readonly<Partial<Record<UnreadyKind, string>>>;
}

/** Why a running container is not ready, as the diagram's `data-ready` says it. */
export type UnreadyKind = 'notready' | 'notstarted';

/** The drawn container state for a running container that is not ready. */
export const UNREADY = 'unready';

export interface MachineEdge {
  id: string;
  from: string;
  to: string;
  drivers: readonly Driver[];
  why: WhyId;
}

export interface Machine {
  id: MachineId;
  /** The readiness split of the container machine is laid out on its own (machine-layout.ts). */
  readiness?: true;
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

/** The machine each drawn layer moves through, as the rule book has it. */
export const MACHINE_OF: Record<Layer, Machine> = {
  container: view(KUBELET_MACHINES.container),
  pod: view(KUBELET_MACHINES.podPhase),
  node: view(KUBELET_MACHINES.nodeReady),
};

const edge = (
  id: string,
  from: string,
  to: string,
  drivers: readonly Driver[],
  why: WhyId,
): MachineEdge => ({ id, from, to, drivers, why });

/**
 * The container machine with Running split by readiness: every rule-book edge into or out of
 * `running` is drawn for both halves (a container can start, exit, restart or vanish ready or
 * not), and the prober moves between them.
 */
function withReadiness(m: Machine): Machine {
  const split = (id: string) => (id === 'running' ? ['running', UNREADY] : [id]);
  const edges: MachineEdge[] = [];
  for (const e of m.edges) {
    if (e.from === 'running' && e.to === 'running') {
      edges.push(e);
      continue;
    }
    for (const from of split(e.from))
      for (const to of split(e.to)) {
        if (from === e.from && to === e.to) edges.push(e);
        else if (e.id === 'started' && to === UNREADY)
          edges.push(
            edge('startedUnready', from, to, e.drivers, 'machine.container.startedUnready'),
          );
        else edges.push({ ...e, id: `${e.id}.${from}.${to}`, from, to });
      }
  }
  edges.push(
    edge('becameReady', UNREADY, 'running', ['ProbeResult'], 'machine.container.becameReady'),
    edge('becameUnready', 'running', UNREADY, ['ProbeResult'], 'machine.container.becameUnready'),
    edge(
      'stillUnready',
      UNREADY,
      UNREADY,
      ['ProbeResult', 'ContainerStarted'],
      'machine.container.stillUnready',
    ),
  );
  const states = m.states.flatMap((s) =>
    s.id === 'running'
      ? [
          s,
          {
            ...s,
            id: UNREADY,
            label: 'Running, not ready',
            labelKeys: { notready: 'notReady', notstarted: 'notStarted' },
          },
        ]
      : [s],
  );
  return { ...m, readiness: true, states, edges };
}

/** The machines the panel draws: the container's with its readiness split. */
export const PANEL_MACHINE_OF: Record<Layer, Machine> = {
  ...MACHINE_OF,
  container: withReadiness(MACHINE_OF.container),
};
