/**
 * The engine's nodes: each watched node's loop (a NodeEngine in this thread, or a RemoteNode in a
 * relist worker), its endpoint and whether it is a lab, every endpoint ever watched, and what the
 * façade reads from them (summaries, relist ages, the node holding an endpoint).
 */
import { sameEndpoint } from '@/server/cri/endpoint';
import type { NodeSummary } from '../api';
import { NodeEngine } from './node-engine';
import type { RemoteNode } from '../workers/pool';

export interface WatchedNode {
  /** The node's loop: in this thread, or in a relist worker. */
  loop: NodeEngine | RemoteNode;
  endpoint: string;
  lab: boolean;
}

/** The node's engine when it runs in this thread. */
export const local = (n: WatchedNode): NodeEngine | undefined =>
  n.loop instanceof NodeEngine ? n.loop : undefined;

export class NodeTable {
  private readonly byName = new Map<string, WatchedNode>();
  /** Every endpoint ever watched (configured or connected), and whether it was a lab. */
  private readonly known = new Map<string, boolean>();

  get size(): number {
    return this.byName.size;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): WatchedNode | undefined {
    return this.byName.get(name);
  }

  set(name: string, node: WatchedNode): void {
    this.byName.set(name, node);
  }

  delete(name: string): void {
    this.byName.delete(name);
  }

  clear(): void {
    this.byName.clear();
  }

  entries(): IterableIterator<[string, WatchedNode]> {
    return this.byName.entries();
  }

  values(): IterableIterator<WatchedNode> {
    return this.byName.values();
  }

  /** The engines of the nodes in this thread. */
  *locals(): Generator<NodeEngine> {
    for (const n of this.byName.values()) {
      const engine = local(n);
      if (engine) yield engine;
    }
  }

  /** Remembers an endpoint as watched (the first time decides whether it is a lab). */
  remember(endpoint: string, lab: boolean): void {
    if (!this.known.has(endpoint)) this.known.set(endpoint, lab);
  }

  /** Whether the endpoint was ever watched, and as a lab or not. */
  knownLab(endpoint: string): boolean | undefined {
    return this.known.get(endpoint);
  }

  /** The node already watching this endpoint's socket, if any. */
  watcherOf(endpoint: string): string | undefined {
    for (const [name, n] of this.byName) if (sameEndpoint(n.endpoint, endpoint)) return name;
    return undefined;
  }

  summaries(): NodeSummary[] {
    return [...this.byName.entries()].map(([name, n]) => {
      const w = n.loop.watcher;
      return {
        name,
        endpoint: n.endpoint,
        lab: n.lab,
        connected: w.connected,
        mode: w.mode,
        ...(w.lastRelistAt !== undefined ? { lastRelistAt: w.lastRelistAt } : {}),
        ...(w.lastError !== undefined ? { lastError: w.lastError } : {}),
        skippedTicks: w.skipped,
        relists: w.relists,
      };
    });
  }

  /** Per node, ms since its last relist (null: none yet). */
  relistAges(now: number): Record<string, number | null> {
    const ages: Record<string, number | null> = {};
    for (const [name, n] of this.byName) {
      const last = n.loop.watcher.lastRelistAt;
      ages[name] = last === undefined ? null : now - last;
    }
    return ages;
  }
}
