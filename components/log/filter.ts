/**
 * Which events the log shows: filters by node, pod, kind and reason, and — while something is
 * selected — only the events about that entity and what it contains (a node's pods, a pod's
 * containers). Bookkeeping updates stay out unless asked for. The same predicate drives
 * "previous / next event" in the timeline.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { TimelineEvent } from '@/lib/timeline/events';
import { isBookkeeping } from './phrases';

export const EVENT_KINDS = ['container', 'pod', 'node', 'cri', 'k8s'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface LogFilter {
  node?: string;
  /** Pod uid. */
  pod?: string;
  kind?: EventKind;
  reason?: string;
  /** While something is selected, show only its events (on unless the user widens the log). */
  followSelection: boolean;
  /** Also show the timeline's bookkeeping updates (off unless asked for). */
  bookkeeping?: boolean;
}

export const EMPTY_FILTER: LogFilter = { followSelection: true };

export const isEventKind = (v: unknown): v is EventKind =>
  typeof v === 'string' && (EVENT_KINDS as readonly string[]).includes(v);

const statusReason = (s: V1ContainerStatus | undefined) =>
  s?.state?.waiting?.reason ?? s?.state?.terminated?.reason;

/** The Kubernetes reason an event carries, if any (CrashLoopBackOff, OOMKilled, NodeStatusUnknown …). */
export function eventReason(e: TimelineEvent): string | undefined {
  let r: string | undefined;
  switch (e.kind) {
    case 'container':
      r = statusReason(e.status);
      break;
    case 'pod':
      r = e.condition?.reason ?? (e.type === 'PodAdded' ? e.pod?.status.reason : undefined);
      break;
    case 'node':
      r = e.condition?.reason;
      break;
    case 'cri': {
      const v = e.detail?.reason;
      r = typeof v === 'string' ? v : undefined;
      break;
    }
    case 'k8s':
      r = e.reason;
      break;
  }
  return r ? r : undefined;
}

/** The pod uid an event is about, if any. */
export function eventPod(e: TimelineEvent): string | undefined {
  return e.kind === 'node' ? undefined : e.podUid;
}

/** The container name an event is about, if any. */
export function eventContainer(e: TimelineEvent): string | undefined {
  if (e.kind === 'container') return e.name;
  if (e.kind === 'cri' || e.kind === 'k8s') return e.container;
  return undefined;
}

/** Whether `e` is about the entity with data-id `id` or something inside it. */
export function eventAbout(
  e: TimelineEvent,
  id: string,
  layer: 'node' | 'pod' | 'container',
): boolean {
  switch (layer) {
    case 'node':
      return e.node === id;
    case 'pod':
      return eventPod(e) === id;
    case 'container': {
      const slash = id.indexOf('/');
      const pod = id.slice(0, slash);
      const name = id.slice(slash + 1);
      // Pod-wide CRI events (sandbox) also shape what a container does, but they are not about it.
      return eventPod(e) === pod && eventContainer(e) === name;
    }
  }
}

export function matchesFilter(
  e: TimelineEvent,
  f: LogFilter,
  selection?: { id: string; layer: 'node' | 'pod' | 'container' },
): boolean {
  if (f.node && e.node !== f.node) return false;
  if (f.pod && eventPod(e) !== f.pod) return false;
  if (f.kind && e.kind !== f.kind) return false;
  if (f.reason && eventReason(e) !== f.reason) return false;
  if (!f.bookkeeping && isBookkeeping(e)) return false;
  if (f.followSelection && selection && !eventAbout(e, selection.id, selection.layer)) return false;
  return true;
}

/** The distinct values a filter menu offers, from the events at hand. */
export function filterOptions(events: readonly TimelineEvent[]): {
  nodes: string[];
  reasons: string[];
} {
  const nodes = new Set<string>();
  const reasons = new Set<string>();
  for (const e of events) {
    nodes.add(e.node);
    const r = eventReason(e);
    if (r) reasons.add(r);
  }
  const sort = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { nodes: sort(nodes), reasons: sort(reasons) };
}
