/**
 * What one signed-in user may see of the timeline: pods (and everything about them) only in the
 * namespaces they may read (server/security/viewer.ts); nodes and node-level events stay,
 * because a node's conditions are not a namespace's secret and the diagram draws pods inside
 * their nodes. The same filter serves the diagram (states), the log and the timeline (events)
 * and exports, so no view shows what another hides.
 *
 * An event is shown only when its pod's namespace is known and readable: a pod whose namespace
 * the filter has not seen (its PodAdded not yet folded in) is hidden, not guessed. A user who
 * may read every namespace needs no filter: callers skip it (UserAccess.allNamespaces).
 */
import type { Drift } from '../drift/types';
import type { TimelineEvent } from './events';
import type { ClusterState, NodeView } from './state';

export type NamespacePredicate = (namespace: string) => boolean;

export class VisibilityFilter {
  /** pod uid → namespace, from states and PodAdded events seen so far. */
  private readonly namespaceOf = new Map<string, string>();

  constructor(private readonly canRead: NamespacePredicate) {}

  /** Learns the pods of a state (call with the state a stream or range starts from). */
  learn(state: ClusterState): void {
    for (const node of Object.values(state.nodes))
      for (const pod of Object.values(node.pods)) this.namespaceOf.set(pod.uid, pod.namespace);
  }

  /** The state with the pods of unreadable namespaces removed (a new object; the input is kept). */
  state(state: ClusterState): ClusterState {
    this.learn(state);
    const nodes: Record<string, NodeView> = {};
    for (const [name, node] of Object.entries(state.nodes)) {
      const pods: NodeView['pods'] = {};
      for (const [uid, pod] of Object.entries(node.pods)) {
        if (this.canRead(pod.namespace)) pods[uid] = pod;
      }
      nodes[name] = { ...node, pods };
      if (node.drift) nodes[name].drift = this.drift(node.drift);
    }
    return { ...state, nodes };
  }

  /** Whether `e` may be shown; learns namespaces from PodAdded events as they pass. */
  allows(e: TimelineEvent): boolean {
    if (e.kind === 'pod' && e.type === 'PodAdded' && e.pod) {
      this.namespaceOf.set(e.podUid, e.pod.namespace);
    }
    if (e.kind === 'k8s') {
      const ns = e.involvedObject.namespace;
      if (ns) return this.canRead(ns);
      if (e.podUid) return this.podVisible(e.podUid);
      return true; // cluster-scoped: a Node's events
    }
    if (e.kind === 'node') return true;
    const uid = e.podUid;
    if (uid === undefined) return true; // node-level CRI events: relist failures, runtime conditions
    return this.podVisible(uid);
  }

  /**
   * The events that may be shown, in order. A node's drift list can name pods (a pod the API
   * server binds to the node that the runtime lacks): those of unreadable namespaces are cut from
   * a copy of the event.
   */
  events<E extends TimelineEvent>(events: readonly E[]): E[] {
    const out: E[] = [];
    for (const e of events) {
      if (!this.allows(e)) continue;
      out.push(e.kind === 'node' && e.drift ? { ...e, drift: this.drift(e.drift) } : e);
    }
    return out;
  }

  /** A node's drift entries about pods the user may see (and the node's own). */
  drift(list: readonly Drift[]): Drift[] {
    return list.filter((d) => {
      const ns = d.pod?.includes('/') ? d.pod.slice(0, d.pod.indexOf('/')) : undefined;
      if (ns !== undefined) return this.canRead(ns);
      return d.podUid === undefined || this.podVisible(d.podUid);
    });
  }

  /** Namespaces a state and events mention (to decide before filtering them). */
  static namespaces(
    state: ClusterState | undefined,
    events: readonly TimelineEvent[] = [],
  ): Set<string> {
    const out = new Set<string>();
    for (const node of Object.values(state?.nodes ?? {})) {
      for (const pod of Object.values(node.pods)) out.add(pod.namespace);
      for (const d of node.drift ?? [])
        if (d.pod?.includes('/')) out.add(d.pod.split('/')[0] ?? '');
    }
    for (const e of events) {
      if (e.kind === 'pod' && e.type === 'PodAdded' && e.pod) out.add(e.pod.namespace);
      else if (e.kind === 'k8s' && e.involvedObject.namespace) out.add(e.involvedObject.namespace);
      else if (e.kind === 'node' && e.drift)
        for (const d of e.drift) if (d.pod?.includes('/')) out.add(d.pod.split('/')[0] ?? '');
    }
    out.delete('');
    return out;
  }

  /** Whether the filter knows (or the events teach) the namespace of every pod they are about. */
  knowsPodsOf(events: readonly TimelineEvent[]): boolean {
    const added = new Set<string>();
    for (const e of events) {
      if (e.kind === 'pod' && e.type === 'PodAdded') added.add(e.podUid);
      else if (e.kind === 'node' || (e.kind === 'k8s' && e.involvedObject.namespace)) continue;
      else if (e.podUid !== undefined && !this.namespaceOf.has(e.podUid) && !added.has(e.podUid))
        return false;
    }
    return true;
  }

  private podVisible(uid: string): boolean {
    const ns = this.namespaceOf.get(uid);
    return ns !== undefined && this.canRead(ns);
  }
}
