/**
 * Assembling a timeline file from what a store holds: the state at `from`, the events after it,
 * the annotations, and a description of the source.
 */
import type { TimelineEvent } from '../events';
import type { ClusterState } from '../state';
import {
  TIMELINE_FORMAT,
  TIMELINE_VERSION,
  type TimelineAnnotation,
  type TimelineFile,
  type TimelineSource,
  type TimelineSourceNode,
} from './types';

export interface BuildInput {
  title: string;
  notes?: string;
  createdAt: number;
  from: number;
  to: number;
  initialState: ClusterState;
  events: readonly TimelineEvent[];
  /** Extra fields (a store's ids, createdAt) are dropped. */
  annotations?: readonly TimelineAnnotation[];
  podscope: string;
  kind?: TimelineSource['kind'];
  /** Default: every node in the initial state or added by an event. */
  nodes?: TimelineSourceNode[];
}

export function buildTimelineFile(input: BuildInput): TimelineFile {
  const events = input.events
    .filter((e) => e.seq > input.initialState.seq)
    .slice()
    .sort((a, b) => a.seq - b.seq);
  const annotations = (input.annotations ?? [])
    .map((a): TimelineAnnotation => ({
      t: a.t,
      ...(a.entity !== undefined ? { entity: a.entity } : {}),
      text: a.text,
      ...(a.author !== undefined ? { author: a.author } : {}),
    }))
    .sort((a, b) => a.t - b.t);
  return {
    format: TIMELINE_FORMAT,
    version: TIMELINE_VERSION,
    title: input.title,
    notes: input.notes ?? '',
    createdAt: input.createdAt,
    from: input.from,
    to: input.to,
    source: {
      podscope: input.podscope,
      ...(input.kind ? { kind: input.kind } : {}),
      nodes: input.nodes ?? sourceNodes(input.initialState, events),
    },
    annotations,
    initialState: input.initialState,
    events,
  };
}

/** The nodes a timeline covers: those in the initial state, then those added later, by name. */
export function sourceNodes(
  initial: ClusterState,
  events: readonly TimelineEvent[],
): TimelineSourceNode[] {
  const nodes = new Map<string, TimelineSourceNode>();
  const note = (name: string, endpoint?: string, runtime?: TimelineSourceNode['runtime']) => {
    const known = nodes.get(name) ?? { name };
    nodes.set(name, {
      ...known,
      ...(endpoint ? { endpoint } : {}),
      ...(runtime ? { runtime } : {}),
    });
  };
  for (const n of Object.values(initial.nodes)) note(n.name, n.endpoint, n.runtime);
  for (const e of events) if (e.kind === 'node') note(e.node, e.endpoint, e.runtime);
  return [...nodes.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
