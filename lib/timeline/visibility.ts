/**
 * What one signed-in user may see of the timeline: pods (and everything about them) only in the
 * namespaces they may read (server/security/kube/access.ts); nodes and node-level events stay,
 * because a node's conditions are not a namespace's secret and the diagram draws pods inside
 * their nodes. The same filter serves the diagram (states), the log and the timeline (events)
 * and exports, so no view shows what another hides.
 *
 * An event is shown only when its pod's namespace is known and readable: a pod whose namespace
 * the filter has not seen (its PodAdded not yet folded in) is hidden, not guessed. A user who
 * may read every namespace needs no filter: callers skip it (UserAccess.allNamespaces).
 */
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

  events<E extends TimelineEvent>(events: readonly E[]): E[] {
    return events.filter((e) => this.allows(e));
  }

  private podVisible(uid: string): boolean {
    const ns = this.namespaceOf.get(uid);
    return ns !== undefined && this.canRead(ns);
  }
}
