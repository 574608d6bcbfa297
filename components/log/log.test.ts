import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { createDemoTimeline } from '@/components/data/fixtures/demo';
import { describeEvent, podNameIndex } from './describe';
import { eventAbout, eventReason, filterOptions, matchesFilter, EMPTY_FILTER } from './filter';
import { isBookkeeping } from './phrases';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);
const tl = createDemoTimeline({ start: T0, durationMs: 13 * 60_000 });
const final = reduceAll(tl.initial, tl.events);
const pods = Object.values(final.nodes).flatMap((n) => Object.values(n.pods));
const api = pods.find((p) => p.name.startsWith('api-'));
const apiId = `${api?.uid}/api`;
const names = podNameIndex(tl.events, pods);

describe('event log filters', () => {
  it('narrows by node, kind and reason', () => {
    const crash = tl.events.filter((e) =>
      matchesFilter(e, { ...EMPTY_FILTER, reason: 'CrashLoopBackOff' }),
    );
    expect(crash.length).toBeGreaterThan(2);
    expect(crash.every((e) => eventReason(e) === 'CrashLoopBackOff')).toBe(true);
    const n3 = tl.events.filter((e) =>
      matchesFilter(e, { ...EMPTY_FILTER, node: 'demo-node-3', kind: 'node' }),
    );
    expect(n3.length).toBeGreaterThan(0);
    expect(n3.every((e) => e.node === 'demo-node-3' && e.kind === 'node')).toBe(true);
  });

  it('follows the selection: a container’s own events, a pod’s and its containers’, a node’s', () => {
    const sel = tl.events.filter((e) =>
      matchesFilter(e, EMPTY_FILTER, { id: apiId, layer: 'container' }),
    );
    expect(sel.length).toBeGreaterThan(5);
    expect(sel.every((e) => eventAbout(e, apiId, 'container'))).toBe(true);
    expect(sel.some((e) => e.kind === 'cri' && e.type === 'ContainerExited')).toBe(true);
    const pod = tl.events.filter((e) =>
      matchesFilter(e, EMPTY_FILTER, { id: api?.uid ?? '', layer: 'pod' }),
    );
    expect(pod.length).toBeGreaterThan(sel.length);
    const wide = tl.events.filter((e) =>
      matchesFilter(
        e,
        { followSelection: false, bookkeeping: true },
        { id: apiId, layer: 'container' },
      ),
    );
    expect(wide).toHaveLength(tl.events.length);
  });

  it('leaves bookkeeping out unless asked for, and steps over it too', () => {
    const book = tl.events.filter(isBookkeeping);
    expect(book.length).toBeGreaterThan(0);
    // Bookkeeping is pod and node updates only, never a transition.
    expect(book.every((e) => e.type === 'PodUpdated' || e.type === 'NodeUpdated')).toBe(true);
    const shown = tl.events.filter((e) => matchesFilter(e, EMPTY_FILTER));
    expect(shown).toHaveLength(tl.events.length - book.length);
    expect(shown.some(isBookkeeping)).toBe(false);
  });

  it('offers the nodes and reasons present', () => {
    const o = filterOptions(tl.events);
    expect(o.nodes).toEqual(['demo-node-1', 'demo-node-2', 'demo-node-3']);
    expect(o.reasons).toEqual(
      expect.arrayContaining([
        'CrashLoopBackOff',
        'OOMKilled',
        'ImagePullBackOff',
        'Completed',
        'NodeStatusUnknown',
      ]),
    );
  });
});

describe('log rows', () => {
  it('say what changed in Kubernetes terms, with the tone of the new state', () => {
    const exit = tl.events.find(
      (e) => e.kind === 'container' && e.podUid === api?.uid && e.to === 'terminated',
    );
    if (!exit) throw new Error('no exit');
    const row = describeEvent(exit, (u) => names.get(u));
    expect(row).toMatchObject({
      change: 'Running → Terminated',
      reason: 'Error',
      tone: 'failed',
      container: 'api',
      entity: apiId,
      pod: `default/${api?.name}`,
    });
    const cri = tl.events.find(
      (e) => e.kind === 'cri' && e.type === 'ContainerExited' && e.podUid === api?.uid,
    );
    if (!cri) throw new Error('no cri');
    expect(describeEvent(cri, (u) => names.get(u)).change).toBe(
      'ContainerExited exit_code=1 reason=Error',
    );
    const unknown = tl.events.find(
      (e) =>
        e.kind === 'node' && e.type === 'NodeConditionChanged' && e.condition?.status === 'Unknown',
    );
    if (!unknown) throw new Error('no outage');
    expect(describeEvent(unknown, () => undefined)).toMatchObject({
      change: expect.stringMatching(/: True → Unknown$/),
      tone: 'unknown',
      entity: 'demo-node-3',
    });
  });

  it('keeps the names of pods that are gone', () => {
    const removed = tl.events.find((e) => e.kind === 'pod' && e.type === 'PodRemoved');
    if (!removed || removed.kind !== 'pod') throw new Error('no removal');
    expect(names.get(removed.podUid)).toMatch(/^batch\/report-/);
  });
});
