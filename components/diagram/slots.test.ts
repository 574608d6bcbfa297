import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import { demoTimeline } from '@/components/data/testing/demo';
import { assignSlots, EMPTY_SLOTS, type SlotBook } from './slots';

const tl = demoTimeline();
const T0 = tl.start;
const node2 = tl.nodes[1] ?? '';
const at = (t: number): ClusterState =>
  reduceAll(
    tl.initial,
    tl.events.filter((e) => e.t <= t),
  );

const slotsOf = (book: SlotBook, node: string) => [...(book.get(node)?.entries() ?? [])];

describe('pod slots', () => {
  it('fills a fresh node in namespace/name order', () => {
    const s = at(T0 + 30_000);
    const book = assignSlots(EMPTY_SLOTS, s);
    const node = s.nodes[node2];
    const order = slotsOf(book, node2)
      .sort((a, b) => a[1] - b[1])
      .map(([uid]) => `${node?.pods[uid]?.namespace}/${node?.pods[uid]?.name}`);
    expect(order).toEqual([...order].sort());
    expect(order.length).toBeGreaterThan(1);
    expect(new Set(slotsOf(book, node2).map(([, i]) => i)).size).toBe(order.length);
  });

  it('keeps every surviving pod in its slot as pods come and go, and reuses freed slots', () => {
    let book = EMPTY_SLOTS;
    const history = new Map<string, number>();
    let reused = false;
    for (let t = T0; t <= tl.end; t += 5_000) {
      const s = at(t);
      const before = book;
      book = assignSlots(book, s);
      for (const [node, pods] of book) {
        const used = [...pods.values()];
        expect(new Set(used).size).toBe(used.length);
        for (const [uid, slot] of pods) {
          const prev = before.get(node)?.get(uid);
          if (prev !== undefined) expect(slot).toBe(prev);
          const key = `${node}:${slot}`;
          if (prev === undefined && history.has(key)) reused = true;
          history.set(key, 1);
        }
        expect(pods.size).toBe(Object.keys(s.nodes[node]?.pods ?? {}).length);
      }
    }
    // Pods are replaced (the orders rollout) and pruned (a Job's old runs): their slots get reused.
    expect(reused).toBe(true);
  });

  it('returns the same book when nothing moved (cheap re-renders)', () => {
    const s = at(T0 + 60_000);
    const book = assignSlots(EMPTY_SLOTS, s);
    expect(assignSlots(book, s)).toBe(book);
  });
});
