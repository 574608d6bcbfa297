import { afterEach, describe, expect, it } from 'vitest';
import { node, pod } from '@/lib/overview/testing/fixtures';
import type { NodeView } from '@/lib/timeline/state';
import { OverviewIndex } from './index';
import { StateSource } from './testing/source';
import { OverviewWatcher } from './watcher';

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()?.();
});

const ZONE = 'topology.kubernetes.io/zone';

/** `nodes` nodes of `pods` pods; every 100th pod crash-loops, namespaces ns-0 … ns-9. */
function cluster(nodes: number, pods: number): NodeView[] {
  return Array.from({ length: nodes }, (_, i) =>
    node({
      name: `node-${i}`,
      labels: { [ZONE]: `zone-${i % 3}` },
      pods: Array.from({ length: pods }, (_, j) => {
        const k = i * pods + j;
        return pod({
          uid: `u-${k}`,
          name: `app-${k}`,
          namespace: `ns-${k % 10}`,
          ...(k % 100 === 0 ? { containers: ['CrashLoopBackOff'], ready: false } : {}),
        });
      }),
    }),
  );
}

function start(nodes: NodeView[]) {
  const source = new StateSource(nodes);
  const index = new OverviewIndex(source.api(), { clock: () => 1_000 });
  index.refresh();
  stops.push(() => index.stop());
  return { source, index };
}

describe('OverviewIndex at 5,000 nodes × 30 pods', () => {
  it('holds every node and pod, answers searches, pages, and recomputes only what changed', () => {
    const { source, index } = start(cluster(5_000, 30));
    expect(index.entries).toHaveLength(5_000);
    const agg = index.aggregates(ZONE);
    expect(agg.nodes).toBe(5_000);
    expect(agg.pods).toBe(150_000);
    expect(agg.podsByHealth.failing).toBe(1_500);
    expect(agg.groups.map((g) => g.value)).toEqual(['zone-0', 'zone-1', 'zone-2']);
    expect(agg.reasons[0]).toEqual({
      reason: 'CrashLoopBackOff',
      pods: 1_500,
      nodes: 1_500,
      namespaces: 1,
    });

    const all = index.search('');
    expect(all.total).toBe(150_000);
    expect(all.hits).toHaveLength(50);
    expect(all.hits[0]?.health).toBe('failing');
    expect(all.cells).toHaveLength(5_000);
    const next = index.search('', { cursor: all.next });
    expect(next.hits[0]?.pod).not.toBe(all.hits[0]?.pod);

    const crash = index.search('ns:ns-0 reason:CrashLoopBackOff');
    expect(crash.total).toBe(1_500);
    expect(index.search('node:node-42').hits).toEqual([
      expect.objectContaining({ kind: 'node', node: 'node-42', cell: 42 }),
    ]);
    const named = index.search('app-4242');
    expect(named.total).toBe(11);
    expect(named.hits.map((h) => h.pod)).toContain('app-4242');

    // One node changes: its entry is new, every other entry is the same object.
    const before = [...index.entries];
    const revision = index.revision;
    const old = source.state.nodes['node-7'] as NodeView;
    const crashed = pod({
      uid: 'u-210',
      name: 'app-210',
      namespace: 'ns-0',
      containers: ['ImagePullBackOff'],
      ready: false,
    });
    source.set({
      'node-7': { ...old, pods: { ...old.pods, 'u-210': { ...crashed, node: 'node-7' } } },
    });
    index.refresh();
    expect(index.revision).toBe(revision + 1);
    const changed = index.entries.filter((e, i) => e !== before[i]).map((e) => e.facts.name);
    expect(changed).toEqual(['node-7']);
    // Within it, only the changed pod's row is new.
    const newRows = index.entries[7]?.rows.filter((r, i) => r !== before[7]?.rows[i]);
    expect(newRows?.map((r) => r.uid)).toEqual(['u-210']);
    expect(index.aggregates().podsByHealth.failing).toBe(1_501);
    expect(index.search('reason:ImagePullBackOff').total).toBe(1);
  });
});

describe('OverviewIndex', () => {
  it('refreshes once for a burst of batches, and a search sees the latest state', async () => {
    const { source, index } = start(cluster(3, 2));
    index.start();
    const snapshots = source.snapshots;
    for (let i = 0; i < 20; i++)
      source.set({ 'node-1': node({ name: 'node-1', ready: 'Unknown' }) });
    await new Promise((r) => setTimeout(r, 120));
    expect(source.snapshots - snapshots).toBeLessThanOrEqual(3);
    expect(index.aggregates().nodesByReady.Unknown).toBe(1);
    source.set({ 'node-2': node({ name: 'node-2', ready: 'False' }) });
    expect(index.search('nodeready:false').hits.map((h) => h.node)).toEqual(['node-2']);
  });

  it('a node removed keeps its index as gone, a new one is appended', () => {
    const { source, index } = start(cluster(3, 1));
    source.set({ 'node-1': undefined, 'node-9': node({ name: 'node-9' }) });
    index.refresh();
    expect(index.entries.map((e) => [e.facts.name, e.gone ?? false])).toEqual([
      ['node-0', false],
      ['node-1', true],
      ['node-2', false],
      ['node-9', false],
    ]);
    expect(index.aggregates().nodes).toBe(3);
    expect(index.search('node:node-1').hits).toEqual([]);
  });

  it('groups nodes that lose contact together into one change', () => {
    const nodes = cluster(10, 1);
    const { source, index } = start(nodes);
    source.set(
      Object.fromEntries(
        nodes
          .slice(0, 6)
          .map((n) => [n.name, { ...n, conditions: [{ type: 'Ready', status: 'Unknown' }] }]),
      ),
    );
    index.refresh();
    const groups = index.changes.list();
    expect(groups.map((g) => g.group).sort()).toEqual([0, 1, 2].map((z) => `${ZONE}=zone-${z}`));
    expect(groups).toHaveLength(3);
    expect(groups.every((g) => g.count === 2 && g.to === 'Unknown')).toBe(true);
    const first = groups[0];
    expect(index.search(first?.query ?? '').hits.map((h) => h.kind)).toEqual(['node', 'node']);
  });
});

describe('OverviewWatcher', () => {
  it('the first message carries no pods and is bounded by the node count', () => {
    const { index } = start(cluster(1_000, 10));
    const first = new OverviewWatcher(index, undefined, ZONE).first();
    const json = JSON.stringify(first);
    expect(JSON.stringify(first.cells)).not.toContain('app-');
    expect(first.attention.items.length).toBeLessThanOrEqual(50);
    expect(json.length).toBeLessThan(1_000 * 60 + 20_000);
    expect(first.cells.names).toHaveLength(1_000);
    expect(first.cells.labels[ZONE]?.values).toEqual(['zone-0', 'zone-1', 'zone-2']);
  });

  it('a delta carries the changed cells only, then nothing until the next change', () => {
    const { source, index } = start(cluster(5, 2));
    const w = new OverviewWatcher(index, undefined, undefined);
    w.first();
    expect(w.delta()).toBeUndefined();
    source.set({
      'node-3': node({ name: 'node-3', ready: 'False' }),
      'node-8': node({ name: 'node-8' }),
    });
    index.refresh();
    const d = w.delta();
    expect(d?.cells.index).toEqual([3, 5]);
    expect(d?.cells.names).toEqual(['node-8']);
    expect(d?.cells.ready).toEqual(['False', 'True']);
    expect(d?.aggregates?.nodes).toBe(6);
    expect(w.delta()).toBeUndefined();
  });

  it('a viewer who may not read a namespace gets cells and counts without its pods', () => {
    const { source, index } = start(cluster(2, 10));
    const w = new OverviewWatcher(index, (ns) => ns !== 'ns-0', undefined);
    const first = w.first();
    expect(first.cells.pods).toEqual([9, 9]);
    // The crash-looping pod 0 is in ns-0: hidden, so node-0's cell is ok.
    expect(first.cells.health).toEqual([1, 1]);
    expect(first.aggregates.pods).toBe(18);
    expect(first.aggregates.namespaces.some((n) => n.namespace === 'ns-0')).toBe(false);
    expect(first.attention.total).toBe(0);
    const old = source.state.nodes['node-1'] as NodeView;
    source.set({ 'node-1': { ...old, pods: {} } });
    index.refresh();
    expect(w.delta()?.cells).toMatchObject({ index: [1], pods: [0] });
    expect(index.search('', { canRead: (ns) => ns !== 'ns-0' }).total).toBe(9);
  });
});
