/**
 * A shareable incident timeline as a value: self-contained (the state at `from` plus every event
 * up to `to`), so it replays anywhere with the shared reducer and no server. FORMAT.md documents
 * the JSON form; this is what parsing returns and serializing takes.
 */
import type { RuntimeInfo } from '../../kubelet/runtime';
import type { TimelineEvent } from '../events';
import type { ClusterState } from '../state';

export const TIMELINE_FORMAT = 'podscope.timeline';
export const TIMELINE_VERSION = 1;

export interface TimelineAnnotation {
  /** Epoch ms within [from, to]. */
  t: number;
  /** The entity it is about, in the UI's data-id form (node name, pod uid, `<pod uid>/<container>`). */
  entity?: string;
  text: string;
  author?: string;
}

export interface TimelineSourceNode {
  name: string;
  endpoint?: string;
  runtime?: RuntimeInfo;
}

/** Where the file came from: informational only, replay does not read it. */
export interface TimelineSource {
  /** Version of the Podscope that wrote the file. */
  podscope: string;
  /** How it was made: saved from the console, `podscope record`, or re-exported after an import. */
  kind?: 'saved' | 'recorded' | 'exported';
  nodes: TimelineSourceNode[];
}

export interface TimelineFile {
  format: typeof TIMELINE_FORMAT;
  version: typeof TIMELINE_VERSION;
  title: string;
  notes: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms: the initial state is the state at this moment. */
  from: number;
  /** Epoch ms, inclusive: the last event's timeline time is at or before it. */
  to: number;
  source: TimelineSource;
  annotations: TimelineAnnotation[];
  initialState: ClusterState;
  /** Every event after the initial state, ascending seq, each with its original seq. */
  events: TimelineEvent[];
}
