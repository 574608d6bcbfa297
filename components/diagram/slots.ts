/**
 * Stable places for pods inside their node card. A pod keeps its slot for as long as it exists;
 * a pod that goes frees its slot; newcomers take the lowest free slots in namespace/name order.
 * So the diagram does not reshuffle when one pod in the middle comes or goes.
 */
import type { ClusterState, PodView } from '@/lib/timeline/state';

/** node name → pod uid → slot index. Treated as immutable. */
export type SlotBook = ReadonlyMap<string, ReadonlyMap<string, number>>;

export const EMPTY_SLOTS: SlotBook = new Map();

const byNamespaceName = (a: PodView, b: PodView) =>
  a.namespace === b.namespace
    ? a.name.localeCompare(b.name)
    : a.namespace.localeCompare(b.namespace);

/**
 * The pods record each node's slots were last checked against. The reducer shares a node's pods
 * record until one of its pods changes, so a node whose record is the same has the same pods
 * and keeps its slots without a look (a 10,000-pod cluster re-slots only the nodes that moved).
 */
const checkedAgainst = new WeakMap<ReadonlyMap<string, number>, object>();

export function assignSlots(prev: SlotBook, state: ClusterState): SlotBook {
  const next = new Map<string, ReadonlyMap<string, number>>();
  let changed = prev.size !== Object.keys(state.nodes).length;
  for (const [name, node] of Object.entries(state.nodes)) {
    const known = prev.get(name);
    if (known && checkedAgainst.get(known) === node.pods) {
      next.set(name, known);
      continue;
    }
    if (!known) changed = true;
    const old = known ?? new Map<string, number>();
    const pods = Object.values(node.pods);
    const kept = new Map<string, number>();
    for (const p of pods) {
      const slot = old.get(p.uid);
      if (slot !== undefined) kept.set(p.uid, slot);
    }
    const newcomers = pods.filter((p) => !kept.has(p.uid)).sort(byNamespaceName);
    if (newcomers.length === 0 && kept.size === old.size) {
      checkedAgainst.set(old, node.pods);
      next.set(name, old);
      continue;
    }
    changed = true;
    const taken = new Set(kept.values());
    let free = 0;
    for (const p of newcomers) {
      while (taken.has(free)) free++;
      kept.set(p.uid, free);
      taken.add(free);
    }
    checkedAgainst.set(kept, node.pods);
    next.set(name, kept);
  }
  return changed ? next : prev;
}
