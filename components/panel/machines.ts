/**
 * The three state machines the panel draws — container (Waiting / Running / Terminated), pod
 * phase (Pending / Running / Succeeded / Failed) and node Ready (True / False / Unknown) — with
 * what drives each edge: a CRI event type from lib/timeline, or a kubelet-side cause.
 *
 * Stand-in until lib/kubelet/machines.ts (the rule book's own machines) lands; the panel reads
 * only `MACHINES`, so switching over is this one file.
 */
import type { CriEventType } from '@/lib/timeline/events';
import type { Tone } from '@/components/visual/palette';

export type MachineId = 'container' | 'pod' | 'node';

export interface MachineState {
  /** As the API prints it: Waiting, Running, Terminated / Pending, Running … / True, False, Unknown. */
  id: string;
  tone: Tone;
  /** Terminal states have no way out (a pod never leaves Succeeded or Failed). */
  terminal?: boolean;
}

export interface MachineEdge {
  from: string;
  to: string;
  /** What moves the entity along this edge: CRI events, or kubelet-side causes. */
  cri: CriEventType[];
  kubelet?: string[];
}

export interface Machine {
  id: MachineId;
  states: MachineState[];
  edges: MachineEdge[];
}

export const MACHINES: Record<MachineId, Machine> = {
  container: {
    id: 'container',
    states: [
      { id: 'Waiting', tone: 'pending' },
      { id: 'Running', tone: 'ok' },
      { id: 'Terminated', tone: 'done' },
    ],
    edges: [
      { from: 'Waiting', to: 'Running', cri: ['ContainerStarted'] },
      { from: 'Running', to: 'Terminated', cri: ['ContainerExited'] },
      { from: 'Terminated', to: 'Waiting', cri: [], kubelet: ['CrashLoopBackOff', 'restart'] },
      { from: 'Terminated', to: 'Running', cri: ['ContainerStarted'] },
      { from: 'Waiting', to: 'Terminated', cri: ['ContainerExited'], kubelet: ['StartError'] },
      {
        from: 'Running',
        to: 'Waiting',
        cri: ['ContainerRemoved'],
        kubelet: ['ContainerStatusUnknown'],
      },
    ],
  },
  pod: {
    id: 'pod',
    states: [
      { id: 'Pending', tone: 'pending' },
      { id: 'Running', tone: 'ok' },
      { id: 'Succeeded', tone: 'done', terminal: true },
      { id: 'Failed', tone: 'failed', terminal: true },
    ],
    edges: [
      { from: 'Pending', to: 'Running', cri: ['ContainerStarted'] },
      { from: 'Pending', to: 'Succeeded', cri: ['ContainerExited'] },
      { from: 'Pending', to: 'Failed', cri: ['ContainerExited'] },
      { from: 'Running', to: 'Succeeded', cri: ['ContainerExited'] },
      {
        from: 'Running',
        to: 'Failed',
        cri: ['ContainerExited'],
        kubelet: ['activeDeadlineSeconds', 'eviction'],
      },
      { from: 'Running', to: 'Pending', cri: ['ContainerRemoved', 'SandboxNotReady'] },
    ],
  },
  node: {
    id: 'node',
    states: [
      { id: 'True', tone: 'ok' },
      { id: 'False', tone: 'failed' },
      { id: 'Unknown', tone: 'unknown' },
    ],
    edges: [
      { from: 'True', to: 'False', cri: ['RuntimeConditionChanged'] },
      { from: 'False', to: 'True', cri: ['RuntimeConditionChanged'] },
      {
        from: 'True',
        to: 'Unknown',
        cri: ['RelistFailed'],
        kubelet: ['node-monitor-grace-period'],
      },
      {
        from: 'False',
        to: 'Unknown',
        cri: ['RelistFailed'],
        kubelet: ['node-monitor-grace-period'],
      },
      { from: 'Unknown', to: 'True', cri: ['RelistRecovered'] },
      { from: 'Unknown', to: 'False', cri: ['RelistRecovered'] },
    ],
  },
};

export function findEdge(machine: Machine, from: string, to: string): MachineEdge | undefined {
  return machine.edges.find((e) => e.from === from && e.to === to);
}
