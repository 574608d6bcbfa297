/**
 * What must not differ between two recordings of the same seeded run (error texts with real-time
 * figures and socket paths may): each event's sequence, time, kind and the facts it sets.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import type { Recording } from '../types';

export function eventShape(e: TimelineEvent) {
  const base = { seq: e.seq, t: e.t, kind: e.kind, type: e.type };
  if (e.kind === 'container')
    return { ...base, pod: e.podUid, name: e.name, to: e.to, status: e.status };
  if (e.kind === 'pod') return { ...base, pod: e.podUid, phase: e.phase, condition: e.condition };
  if (e.kind === 'node') return { ...base, condition: e.condition };
  if (e.kind === 'cri') return { ...base, pod: e.podUid, container: e.container };
  return base;
}

/** A walkthrough recording's shape: its steps, its pods and its events' shapes. */
export function recordingShape(r: Recording) {
  return { steps: r.steps, pods: r.pods, events: r.events.map(eventShape) };
}
