/**
 * The three state machines Podscope animates, as data: the container state (Waiting / Running /
 * Terminated), the pod phase (Pending / Running / Succeeded / Failed — getPhase never yields
 * Unknown, and the kubelet never moves a pod out of a terminal phase) and the node's Ready condition
 * (True / False / Unknown).
 *
 * Each edge names what drives it: CRI events as lib/timeline/events.ts names them, or causes on the
 * kubelet's (or node controller's) side. Self-edges are legal where the state keeps its name but
 * its meaning changes (a new reason, a new attempt between two relists). The engine validates and
 * labels transitions with findEdge / validateTransition; the UI draws `states` and `edges`.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { CriEventType } from '../timeline/events';
import { isObj } from './util';
import type { WhyId } from './why';

/** Causes that are not CRI events: decisions of the kubelet or the node lifecycle controller. */
export const KUBELET_CAUSES = [
  'BackOffStarted',
  'BackOffExpired',
  'SyncError',
  'SyncErrorCleared',
  'PodTerminal',
  'DeadlineExceeded',
  'PLEGUnhealthy',
  'RuntimeStatusStale',
  'GracePeriodExpired',
  /** A startup or readiness probe's result crossed its threshold (the prober's decision). */
  'ProbeResult',
] as const;
export type KubeletCause = (typeof KUBELET_CAUSES)[number];
export type Driver = CriEventType | KubeletCause;

export interface Edge<S extends string> {
  /** Stable id, also the catalogue key `machine.<machine>.<id>` of its label. */
  id: string;
  from: S;
  to: S;
  drivers: readonly Driver[];
  why: WhyId;
}

export interface StateMachine<S extends string> {
  id: 'container' | 'podPhase' | 'nodeReady';
  states: readonly S[];
  initial: S;
  /** States with no way out. */
  terminal: readonly S[];
  edges: readonly Edge<S>[];
}

export type ContainerStateName = 'waiting' | 'running' | 'terminated';
export type PodPhaseState = 'Pending' | 'Running' | 'Succeeded' | 'Failed';
export type NodeReadyState = 'True' | 'False' | 'Unknown';

const e = <S extends string>(
  id: string,
  from: S,
  to: S,
  drivers: readonly Driver[],
  why: WhyId,
): Edge<S> => ({
  id,
  from,
  to,
  drivers,
  why,
});

export const CONTAINER_MACHINE: StateMachine<ContainerStateName> = {
  id: 'container',
  states: ['waiting', 'running', 'terminated'],
  initial: 'waiting',
  terminal: [],
  edges: [
    e('started', 'waiting', 'running', ['ContainerStarted'], 'machine.container.started'),
    e('exited', 'running', 'terminated', ['ContainerExited'], 'machine.container.exited'),
    e(
      'failedToStart',
      'waiting',
      'terminated',
      ['ContainerExited', 'ContainerRemoved'],
      'machine.container.failedToStart',
    ),
    e(
      'restarting',
      'terminated',
      'waiting',
      ['ContainerCreated', 'BackOffStarted', 'SyncError'],
      'machine.container.restarting',
    ),
    e('restarted', 'terminated', 'running', ['ContainerStarted'], 'machine.container.restarted'),
    e('lost', 'running', 'waiting', ['ContainerRemoved', 'SyncError'], 'machine.container.lost'),
    e(
      'reasonChanged',
      'waiting',
      'waiting',
      [
        'ContainerCreated',
        'ContainerRemoved',
        'BackOffStarted',
        'BackOffExpired',
        'SyncError',
        'SyncErrorCleared',
      ],
      'machine.container.reasonChanged',
    ),
    e('replaced', 'running', 'running', ['ContainerStarted'], 'machine.container.replaced'),
    e(
      'exitedAgain',
      'terminated',
      'terminated',
      ['ContainerExited'],
      'machine.container.exitedAgain',
    ),
  ],
};

export const POD_PHASE_MACHINE: StateMachine<PodPhaseState> = {
  id: 'podPhase',
  states: ['Pending', 'Running', 'Succeeded', 'Failed'],
  initial: 'Pending',
  terminal: ['Succeeded', 'Failed'],
  edges: [
    e(
      'started',
      'Pending',
      'Running',
      ['ContainerStarted', 'ContainerExited', 'BackOffStarted'],
      'machine.podPhase.started',
    ),
    e(
      'succeededEarly',
      'Pending',
      'Succeeded',
      ['ContainerExited', 'PodTerminal'],
      'machine.podPhase.succeededEarly',
    ),
    e(
      'failedEarly',
      'Pending',
      'Failed',
      ['ContainerExited', 'PodTerminal', 'DeadlineExceeded'],
      'machine.podPhase.failedEarly',
    ),
    e(
      'succeeded',
      'Running',
      'Succeeded',
      ['ContainerExited', 'PodTerminal'],
      'machine.podPhase.succeeded',
    ),
    e(
      'failed',
      'Running',
      'Failed',
      ['ContainerExited', 'PodTerminal', 'DeadlineExceeded'],
      'machine.podPhase.failed',
    ),
    e(
      'reinitializing',
      'Running',
      'Pending',
      ['SandboxReady', 'SandboxNotReady', 'ContainerRemoved', 'SyncError'],
      'machine.podPhase.reinitializing',
    ),
  ],
};

export const NODE_READY_MACHINE: StateMachine<NodeReadyState> = {
  id: 'nodeReady',
  states: ['True', 'False', 'Unknown'],
  initial: 'Unknown',
  terminal: [],
  edges: [
    e(
      'notReady',
      'True',
      'False',
      ['RuntimeConditionChanged', 'PLEGUnhealthy', 'RuntimeStatusStale'],
      'machine.nodeReady.notReady',
    ),
    e(
      'ready',
      'False',
      'True',
      ['RuntimeConditionChanged', 'RelistRecovered'],
      'machine.nodeReady.ready',
    ),
    e('lost', 'True', 'Unknown', ['RelistFailed', 'GracePeriodExpired'], 'machine.nodeReady.lost'),
    e(
      'lostWhileNotReady',
      'False',
      'Unknown',
      ['RelistFailed', 'GracePeriodExpired'],
      'machine.nodeReady.lostWhileNotReady',
    ),
    e('back', 'Unknown', 'True', ['RelistRecovered'], 'machine.nodeReady.back'),
    e(
      'backNotReady',
      'Unknown',
      'False',
      ['RelistRecovered', 'RuntimeConditionChanged'],
      'machine.nodeReady.backNotReady',
    ),
  ],
};

export const MACHINES = {
  container: CONTAINER_MACHINE,
  podPhase: POD_PHASE_MACHINE,
  nodeReady: NODE_READY_MACHINE,
} as const;

/** The edge from → to, if the machine has one. */
export function findEdge<S extends string>(
  machine: StateMachine<S>,
  from: string,
  to: string,
): Edge<S> | undefined {
  return machine.edges.find((edge) => edge.from === from && edge.to === to);
}

export type TransitionVerdict<S extends string> =
  | { legal: true; edge: Edge<S>; driverMatches: boolean }
  | { legal: false; reason: 'unknownState' | 'fromTerminal' | 'noEdge' };

/**
 * Is from → to a transition the machine allows? With a driver, also says whether that driver is one
 * the edge names (an unexpected driver does not make a legal edge illegal; it is reported).
 */
export function validateTransition<S extends string>(
  machine: StateMachine<S>,
  from: string,
  to: string,
  driver?: Driver,
): TransitionVerdict<S> {
  const states = machine.states as readonly string[];
  if (!states.includes(from) || !states.includes(to))
    return { legal: false, reason: 'unknownState' };
  const edge = findEdge(machine, from, to);
  if (!edge) {
    return {
      legal: false,
      reason: (machine.terminal as readonly string[]).includes(from) ? 'fromTerminal' : 'noEdge',
    };
  }
  return {
    legal: true,
    edge,
    driverMatches: driver === undefined || edge.drivers.includes(driver),
  };
}

export const isLegalTransition = <S extends string>(
  machine: StateMachine<S>,
  from: string,
  to: string,
): boolean => validateTransition(machine, from, to).legal;

/** The container machine's state of a V1ContainerStatus (a status with no state reads as waiting). */
export function containerStateName(status: V1ContainerStatus | undefined): ContainerStateName {
  const st = isObj(status) && isObj(status.state) ? status.state : undefined;
  if (isObj(st?.running)) return 'running';
  if (isObj(st?.terminated)) return 'terminated';
  return 'waiting';
}
