/**
 * The overview's counts (Aggregates) and its "needs attention" ranking, kept incrementally: a
 * node's contribution is added when it appears and taken away before it changes, so a change
 * costs what the node holds, not what the cluster holds. Pure.
 */
import { HEALTH, healthName, type NodeFacts, type PodRow } from './cells';
import {
  GROUP_BY_READY,
  POD_HEALTH,
  TOP_ATTENTION,
  TOP_NAMESPACES,
  TOP_REASONS,
  type Aggregates,
  type AttentionItem,
  type PodHealth,
  type ReadyValue,
} from './wire';

const zeroReady = (): Record<ReadyValue, number> => ({ True: 0, False: 0, Unknown: 0, '': 0 });
const zeroHealth = (): Record<PodHealth, number> => ({
  empty: 0,
  ok: 0,
  pending: 0,
  warning: 0,
  failing: 0,
});

/** Per key a multiset count (how many pods each node/namespace adds to a reason). */
class Counts {
  readonly of = new Map<string, number>();
  add(key: string, n: number): void {
    const v = (this.of.get(key) ?? 0) + n;
    if (v === 0) this.of.delete(key);
    else this.of.set(key, v);
  }
}

interface ReasonTally {
  pods: number;
  nodes: Counts;
  namespaces: Counts;
}

interface NamespaceTally {
  pods: number;
  failing: number;
  warning: number;
  pending: number;
}

/** What one node contributes (kept so it can be taken away again). */
export interface NodeEntry {
  facts: NodeFacts;
  rows: readonly PodRow[];
  gone?: boolean;
}

export class Tally {
  nodes = 0;
  pods = 0;
  containers = 0;
  readonly nodesByReady = zeroReady();
  readonly podsByHealth = zeroHealth();
  private readonly phases = new Counts();
  private readonly reasons = new Map<string, ReasonTally>();
  private readonly namespaces = new Map<string, NamespaceTally>();

  /** Adds (sign 1) or takes away (sign -1) one node and its rows. */
  apply(entry: NodeEntry, sign: 1 | -1): void {
    if (entry.gone) return;
    this.nodes += sign;
    this.nodesByReady[entry.facts.ready] += sign;
    for (const r of entry.rows) {
      this.pods += sign;
      this.containers += sign * r.containers;
      this.podsByHealth[healthName(r.health)] += sign;
      this.phases.add(r.phase || 'Unknown', sign);
      if (r.reason) {
        let t = this.reasons.get(r.reason);
        if (!t) {
          t = { pods: 0, nodes: new Counts(), namespaces: new Counts() };
          this.reasons.set(r.reason, t);
        }
        t.pods += sign;
        t.nodes.add(r.node, sign);
        t.namespaces.add(r.namespace, sign);
        if (t.pods === 0) this.reasons.delete(r.reason);
      }
      let ns = this.namespaces.get(r.namespace);
      if (!ns) {
        ns = { pods: 0, failing: 0, warning: 0, pending: 0 };
        this.namespaces.set(r.namespace, ns);
      }
      ns.pods += sign;
      if (r.health === HEALTH.failing) ns.failing += sign;
      else if (r.health === HEALTH.warning) ns.warning += sign;
      else if (r.health === HEALTH.pending) ns.pending += sign;
      if (ns.pods === 0) this.namespaces.delete(r.namespace);
    }
    // A node's own reason (NodeNotReady, MemoryPressure) counts its node, no pods.
    if (entry.facts.reason) {
      let t = this.reasons.get(entry.facts.reason);
      if (!t) {
        t = { pods: 0, nodes: new Counts(), namespaces: new Counts() };
        this.reasons.set(entry.facts.reason, t);
      }
      t.nodes.add(entry.facts.name, sign);
      if (t.pods === 0 && t.nodes.of.size === 0) this.reasons.delete(entry.facts.reason);
    }
  }

  /** The counts, with `groups` per value of `groupKey` over `entries` (none without a key). */
  aggregates(entries: Iterable<NodeEntry>, groupKey?: string): Aggregates {
    const reasons = [...this.reasons]
      .map(([reason, t]) => ({
        reason,
        pods: t.pods,
        nodes: t.nodes.of.size,
        namespaces: t.namespaces.of.size,
      }))
      .sort((a, b) => b.pods - a.pods || b.nodes - a.nodes || cmp(a.reason, b.reason))
      .slice(0, TOP_REASONS);
    const namespaces = [...this.namespaces]
      .map(([namespace, t]) => ({ namespace, ...t }))
      .sort(
        (a, b) =>
          b.failing - a.failing ||
          b.warning - a.warning ||
          b.pending - a.pending ||
          b.pods - a.pods ||
          cmp(a.namespace, b.namespace),
      )
      .slice(0, TOP_NAMESPACES);
    return {
      nodes: this.nodes,
      pods: this.pods,
      containers: this.containers,
      nodesByReady: { ...this.nodesByReady },
      podsByHealth: { ...this.podsByHealth },
      podsByPhase: Object.fromEntries(
        [...this.phases.of].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])),
      ),
      reasons,
      namespaces,
      groups: groupKey ? groupsOf(entries, groupKey) : [],
    };
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The most groups an Aggregates carries (a label with a value per node would be one per node). */
export const MAX_GROUPS = 200;

/** Counts per value of `key` (a GROUP_LABELS key, or GROUP_BY_READY); nodes without it: value ''. */
export function groupsOf(entries: Iterable<NodeEntry>, key: string): Aggregates['groups'] {
  const by = new Map<string, Aggregates['groups'][number]>();
  for (const e of entries) {
    if (e.gone) continue;
    const value =
      key === GROUP_BY_READY
        ? e.facts.ready
        : Object.hasOwn(e.facts.groups, key)
          ? (e.facts.groups[key] ?? '')
          : '';
    let g = by.get(value);
    if (!g) {
      g = { key, value, nodes: 0, nodesByReady: zeroReady(), podsByHealth: zeroHealth() };
      by.set(value, g);
    }
    g.nodes++;
    g.nodesByReady[e.facts.ready]++;
    for (const r of e.rows) g.podsByHealth[healthName(r.health)]++;
  }
  return [...by.values()]
    .sort((a, b) => b.nodes - a.nodes || cmp(a.value, b.value))
    .slice(0, MAX_GROUPS);
}

/** A node's attention items: itself when not Ready or under pressure, and its pods not ok. */
export function attentionOf(entry: NodeEntry): AttentionItem[] {
  if (entry.gone) return [];
  const out: AttentionItem[] = [];
  const f = entry.facts;
  if (f.ready !== 'True' || f.pressure !== 0) {
    out.push({
      kind: 'node',
      node: f.name,
      reason: f.reason || (f.ready ? `Ready=${f.ready}` : 'NoReadyCondition'),
      health: f.ready === 'True' ? 'warning' : 'failing',
      ...(f.since !== undefined ? { since: f.since } : {}),
    });
  }
  for (const r of entry.rows) {
    if (r.health <= HEALTH.ok) continue;
    out.push({
      kind: 'pod',
      node: r.node,
      namespace: r.namespace,
      pod: r.name,
      uid: r.uid,
      reason: r.reason,
      health: healthName(r.health),
      ...(r.since !== undefined ? { since: r.since } : {}),
    });
  }
  return out;
}

const HEALTH_RANK = Object.fromEntries(POD_HEALTH.map((h, i) => [h, i])) as Record<
  PodHealth,
  number
>;

/**
 * Attention order: worst health first; a node before its pods' kind at the same health; the
 * oldest first (unknown since last); then node, namespace, pod name.
 */
export function compareAttention(a: AttentionItem, b: AttentionItem): number {
  return (
    HEALTH_RANK[b.health] - HEALTH_RANK[a.health] ||
    (a.kind === b.kind ? 0 : a.kind === 'node' ? -1 : 1) ||
    (a.since ?? Infinity) - (b.since ?? Infinity) ||
    cmp(a.node, b.node) ||
    cmp(a.namespace ?? '', b.namespace ?? '') ||
    cmp(a.pod ?? '', b.pod ?? '')
  );
}

/** The first `limit` items in attention order, and how many there are in all. */
export function rankAttention(
  items: Iterable<AttentionItem>,
  limit = TOP_ATTENTION,
): { total: number; items: AttentionItem[] } {
  const top = new TopK<AttentionItem>(limit, compareAttention);
  let total = 0;
  for (const item of items) {
    total++;
    top.offer(item);
  }
  return { total, items: top.sorted() };
}

/**
 * The `k` smallest items by `compare`, without sorting everything: a sorted buffer that is cut
 * back to k whenever it doubles (amortised O(n log k)).
 */
export class TopK<T> {
  private buf: T[] = [];
  private worst: T | undefined;

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    if (this.k <= 0) return;
    if (this.worst !== undefined && this.compare(item, this.worst) >= 0) return;
    this.buf.push(item);
    if (this.buf.length >= this.k * 2) this.cut();
  }

  private cut(): void {
    this.buf.sort(this.compare);
    this.buf.length = Math.min(this.buf.length, this.k);
    if (this.buf.length === this.k) this.worst = this.buf[this.k - 1];
  }

  sorted(): T[] {
    this.cut();
    return this.buf.slice();
  }
}
