/**
 * An EngineApi for the overview's unit tests: a state the test sets, a real EventBus. Only what
 * the index reads (snapshot, subscribe) is implemented; anything else fails loudly.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState, NodeView } from '@/lib/timeline/state';
import type { EngineApi } from '@/server/engine/api';
import { EventBus } from '@/server/engine/bus';

export class StateSource {
  state: ClusterState;
  snapshots = 0;
  readonly bus = new EventBus();

  constructor(nodes: NodeView[]) {
    this.state = { seq: 1, t: 1, nodes: Object.fromEntries(nodes.map((n) => [n.name, n])) };
  }

  /** Replaces (or with undefined removes) nodes, as a fold would, and announces it. */
  set(changes: Record<string, NodeView | undefined>): void {
    const nodes = { ...this.state.nodes };
    for (const [name, view] of Object.entries(changes)) {
      if (view) nodes[name] = view;
      else delete nodes[name];
    }
    const seq = this.state.seq + 1;
    this.state = { seq, t: seq, nodes };
    const event: TimelineEvent = { kind: 'node', type: 'NodeUpdated', seq, t: seq, node: 'x' };
    this.bus.publish([event]);
  }

  api(): EngineApi {
    const missing = (name: string) => () => {
      throw new Error(`StateSource has no ${name}`);
    };
    return {
      snapshot: () => {
        this.snapshots++;
        return this.state;
      },
      subscribe: (signal) => this.bus.subscribe(signal),
      eventsAfter: missing('eventsAfter'),
      oldestSeq: missing('oldestSeq'),
      range: missing('range'),
      stateAt: missing('stateAt'),
      nodes: missing('nodes'),
      connect: missing('connect'),
      disconnect: missing('disconnect'),
      health: missing('health'),
      metrics: missing('metrics'),
      endpointAllowed: missing('endpointAllowed'),
    };
  }
}
