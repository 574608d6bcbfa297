import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { demoTimeline } from '@/components/data/testing/demo';
import type { TimelineEvent } from '@/lib/timeline/events';
import { describeEvent, podNameIndex } from './describe';
import { eventAbout, eventReason, filterOptions, matchesFilter, EMPTY_FILTER } from './filter';
import { isBookkeeping } from './phrases';

const tl = demoTimeline();
const [node1, , node3] = tl.nodes;
const final = reduceAll(tl.initial, tl.events);
const pods = Object.values(final.nodes).flatMap((n) => Object.values(n.pods));
// The demo's crash loop: payments-worker's `worker` exits 1 after 4 s (server/demo/workload.ts).
const api = pods.find((p) => p.name.startsWith('payments-worker-'));
const apiId = `${api?.uid}/worker`;
const names = podNameIndex(tl.events, pods);

describe('event log filters', () => {
  it('narrows by node, kind and reason', () => {
    const crash = tl.events.filter((e) =>
      matchesFilter(e, { ...EMPTY_FILTER, reason: 'CrashLoopBackOff' }),
    );
    expect(crash.length).toBeGreaterThan(2);
    expect(crash.every((e) => eventReason(e) === 'CrashLoopBackOff')).toBe(true);
    const n3 = tl.events.filter((e) =>
      matchesFilter(e, { ...EMPTY_FILTER, node: node3, kind: 'node' }),
    );
    expect(n3.length).toBeGreaterThan(0);
    expect(n3.every((e) => e.node === node3 && e.kind === 'node')).toBe(true);
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
    expect(o.nodes).toEqual(tl.nodes);
    expect(o.reasons).toEqual(
      expect.arrayContaining([
        'CrashLoopBackOff',
        'OOMKilled',
        'ErrImagePull',
        'ImagePullBackOff',
        'Completed',
        'Error',
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
      container: 'worker',
      entity: apiId,
      pod: `shop/${api?.name}`,
    });
    const cri = tl.events.find(
      (e) => e.kind === 'cri' && e.type === 'ContainerExited' && e.podUid === api?.uid,
    );
    if (!cri) throw new Error('no cri');
    expect(describeEvent(cri, (u) => names.get(u)).change).toBe(
      'ContainerExited attempt=0 exitCode=1 reason=Error image=podscope.local/busybox:1',
    );
    // The demo's nodes stay Ready; a node losing contact, as the node controller records it.
    const unknown: TimelineEvent = {
      seq: 1,
      t: tl.end,
      kind: 'node',
      type: 'NodeConditionChanged',
      node: node1 ?? '',
      condition: {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
      from: 'True',
    };
    expect(describeEvent(unknown, () => undefined)).toMatchObject({
      change: expect.stringMatching(/: True → Unknown$/),
      tone: 'unknown',
      entity: node1,
    });
  });

  it('keeps the names of pods that are gone', () => {
    const removed = tl.events.find((e) => e.kind === 'pod' && e.type === 'PodRemoved');
    if (!removed || removed.kind !== 'pod') throw new Error('no removal');
    // The orders rollout (every 5 min) replaces the pod and deletes the old one.
    expect(names.get(removed.podUid)).toMatch(/^shop\/orders-/);
  });
});
