/**
 * The log's indexes over the buffered events, kept up to date instead of rebuilt. podNameIndex: the log and the timeline look pod names up
 * on every update of the stream, and at 10,000 pods and tens of thousands of buffered events a
 * rebuild per animation frame costs more than the frame. The index only changes when a PodAdded
 * event arrives or pods come or go, so between those it is the same Map (memos keyed on it
 * hold), and it is always equal to podNameIndex(events, pods of `state`).
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { describeEvent, podNameIndex, type Row } from './describe';
import { eventReason } from './filter';

export class PodNames {
  private events: readonly TimelineEvent[] | undefined;
  private scanned = 0;
  /** Each node's pods record as last looked at, and its pod uids. */
  private seen = new Map<string, { pods: object; uids: Set<string> }>();
  private nodes: ClusterState['nodes'] | undefined;
  private index: Map<string, string> = new Map();

  /** The index for `events` (the buffer's, appended in place) and the pods of `state`. */
  get(events: readonly TimelineEvent[], state: ClusterState): ReadonlyMap<string, string> {
    let dirty = false;
    if (events !== this.events || events.length < this.scanned) {
      // A new array: the buffer was reset or trimmed. Start over.
      this.events = events;
      this.scanned = 0;
      dirty = true;
    }
    for (; this.scanned < events.length; this.scanned++) {
      const e = events[this.scanned];
      if (e?.kind === 'pod' && e.type === 'PodAdded' && e.pod) dirty = true;
    }
    if (state.nodes !== this.nodes) {
      this.nodes = state.nodes;
      if (this.membershipChanged(state.nodes)) dirty = true;
    }
    if (dirty) {
      this.index = podNameIndex(
        events,
        Object.values(state.nodes).flatMap((n) => Object.values(n.pods)),
      );
    }
    return this.index;
  }

  /** Whether any node's set of pods differs from last time (status changes do not count). */
  private membershipChanged(nodes: ClusterState['nodes']): boolean {
    let changed = false;
    const names = Object.keys(nodes);
    if (names.length !== this.seen.size) changed = true;
    for (const name of names) {
      const node = nodes[name];
      if (!node) continue;
      const prev = this.seen.get(name);
      if (prev && prev.pods === node.pods) continue;
      const uids = Object.keys(node.pods);
      const same =
        prev !== undefined && prev.uids.size === uids.length && uids.every((u) => prev.uids.has(u));
      if (!same) changed = true;
      this.seen.set(name, { pods: node.pods, uids: same && prev ? prev.uids : new Set(uids) });
    }
    if (changed)
      for (const name of [...this.seen.keys()])
        if (!Object.prototype.hasOwnProperty.call(nodes, name)) this.seen.delete(name);
    return changed;
  }
}

/**
 * filterOptions(events) kept up to date: new events only add values, so the menus' lists are
 * the same arrays until a node or reason is seen for the first time.
 */
export class LogOptions {
  private events: readonly TimelineEvent[] | undefined;
  private scanned = 0;
  private nodes = new Set<string>();
  private reasons = new Set<string>();
  private value: { nodes: string[]; reasons: string[] } = { nodes: [], reasons: [] };

  get(events: readonly TimelineEvent[]): { nodes: string[]; reasons: string[] } {
    let dirty = false;
    if (events !== this.events || events.length < this.scanned) {
      this.events = events;
      this.scanned = 0;
      this.nodes = new Set();
      this.reasons = new Set();
      dirty = true;
    }
    for (; this.scanned < events.length; this.scanned++) {
      const e = events[this.scanned];
      if (!e) continue;
      if (!this.nodes.has(e.node)) {
        this.nodes.add(e.node);
        dirty = true;
      }
      const r = eventReason(e);
      if (r && !this.reasons.has(r)) {
        this.reasons.add(r);
        dirty = true;
      }
    }
    if (dirty) {
      const sort = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
      this.value = { nodes: sort(this.nodes), reasons: sort(this.reasons) };
    }
    return this.value;
  }
}

/**
 * describeEvent, remembered per event for the same names: a row that stays on screen keeps the
 * same Row object, so the memoised LogRow does not re-render as the log moves on.
 */
export class RowCache {
  private rows = new WeakMap<TimelineEvent, { names: ReadonlyMap<string, string>; row: Row }>();

  get(e: TimelineEvent, names: ReadonlyMap<string, string>): Row {
    const hit = this.rows.get(e);
    if (hit && hit.names === names) return hit.row;
    const row = describeEvent(e, (uid) => names.get(uid));
    this.rows.set(e, { names, row });
    return row;
  }
}
