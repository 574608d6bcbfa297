/**
 * The per-node engine alone — no store, no bus, no façade — as a cluster-mode agent runs it:
 * it numbers its own events, names causes within a batch, and holds the node's full state.
 */
import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { createNodeEngine } from './node-engine';
import { DEFAULT_ENGINE_TIMINGS } from '../timings';
import { memoryRuntime } from '../testing/memory-runtime';

function rig(seq?: () => number) {
  const batches: TimelineEvent[][] = [];
  const engine = createNodeEngine({
    name: 'n1',
    client: memoryRuntime(),
    timings: DEFAULT_ENGINE_TIMINGS,
    clock: { now: () => 2_500 },
    onEvents: (batch) => batches.push(batch),
    ...(seq ? { seq } : {}),
  });
  return { engine, batches, events: () => batches.flat() };
}

describe('createNodeEngine', () => {
  it('derives a node with no store and no bus, numbering its own events from 1', async () => {
    const r = rig();
    expect(r.events().map((e) => e.type)).toEqual(['NodeAdded']);
    await r.engine.watcher.once();
    const events = r.events();
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // The view it holds is the fold of what it emitted.
    expect(r.engine.view()).toEqual(reduceAll(emptyState(), events).nodes.n1);
    const pod = r.engine.view()?.pods.u1;
    expect(pod?.status.containerStatuses?.map((c) => [c.name, c.restartCount])).toEqual([
      ['app', 1],
    ]);
    expect(pod?.why.phase).toBeDefined();
  });

  it('names as cause an earlier CRI event of the same batch', async () => {
    const r = rig();
    await r.engine.watcher.once();
    const relist = r.batches.find((b) => b.some((e) => e.kind === 'cri' && e.podUid === 'u1'));
    if (!relist) throw new Error('no relist batch');
    const added = relist.find((e) => e.kind === 'pod' && e.type === 'PodAdded');
    expect(added?.cause).toBeDefined();
    const cause = relist.find((e) => e.seq === added?.cause);
    expect(cause?.kind).toBe('cri');
    expect(cause && cause.seq < (added?.seq ?? 0)).toBe(true);
  });

  it('numbers with the allocator it is given, and folds events recorded by others', async () => {
    let next = 100;
    const r = rig(() => next++);
    await r.engine.watcher.once();
    expect(r.events()[0]?.seq).toBe(100);
    r.engine.observe([
      {
        kind: 'node',
        type: 'NodeUpdated',
        node: 'n1',
        t: 3_000,
        seq: next++,
        drift: [
          {
            kind: 'kubeletNotReporting',
            node: 'n1',
            field: 'lease.spec.renewTime',
            api: null,
            runtime: null,
            status: 'drift',
            why: { id: 'drift.kubeletNotReporting' },
          },
        ],
      },
      { kind: 'node', type: 'NodeUpdated', node: 'other', t: 3_000, seq: next++, endpoint: 'x' },
    ]);
    expect(r.engine.view()?.drift).toHaveLength(1);
  });

  it('stops without having started', () => {
    const r = rig();
    expect(() => r.engine.stop()).not.toThrow();
  });

  describe('the kubelet version of the node', () => {
    const conditionTypes = (e: ReturnType<typeof createNodeEngine>) =>
      e.view()?.pods.u1?.status.conditions?.map((c) => c.type);
    const make = (o: { kubeletVersion?: string; reported?: () => string | undefined }) =>
      createNodeEngine({
        name: 'n1',
        client: memoryRuntime(),
        timings: DEFAULT_ENGINE_TIMINGS,
        clock: { now: () => 2_500 },
        onEvents: () => undefined,
        ...(o.kubeletVersion !== undefined ? { kubeletVersion: o.kubeletVersion } : {}),
        ...(o.reported
          ? {
              providers: [
                {
                  name: 'apiserver' as const,
                  hintsFor: () => undefined,
                  kubeletVersionFor: (node: string) => (node === 'n1' ? o.reported?.() : undefined),
                },
              ],
            }
          : {}),
      });

    it('unknown: the newest minor, said to be the default', async () => {
      const e = make({});
      await e.watcher.once();
      expect(e.view()?.kubelet).toEqual({ value: '1.36', source: 'default' });
      expect(conditionTypes(e)?.[0]).toBe('PodReadyToStartContainers');
    });

    it('configured 1.28: no PodReadyToStartContainers (the gate is alpha and off in 1.28)', async () => {
      const e = make({ kubeletVersion: 'v1.28.9' });
      await e.watcher.once();
      expect(e.view()?.kubelet).toEqual({ value: '1.28', source: 'flag', reported: 'v1.28.9' });
      expect(conditionTypes(e)).toEqual([
        'Initialized',
        'Ready',
        'ContainersReady',
        'PodScheduled',
      ]);
    });

    it('the API server’s report wins over the flag, and a change re-derives every pod', async () => {
      let reported = 'v1.28.5';
      const e = make({ kubeletVersion: '1.33', reported: () => reported });
      await e.watcher.once();
      expect(e.view()?.kubelet).toEqual({
        value: '1.28',
        source: 'api-server',
        reported: 'v1.28.5',
      });
      expect(conditionTypes(e)).not.toContain('PodReadyToStartContainers');
      reported = 'v1.30.1';
      await e.watcher.once();
      expect(e.view()?.kubelet).toEqual({
        value: '1.30',
        source: 'api-server',
        reported: 'v1.30.1',
      });
      expect(conditionTypes(e)).toContain('PodReadyToStartContainers');
    });
  });
});
