import { describe, expect, it } from 'vitest';
import { WHY, type WhyId } from './why';
import { writerOf, writersOf } from './writers';

describe('writerOf', () => {
  it('the kubelet writes pod phase, pod conditions, container states and its node conditions', () => {
    expect(writerOf({ id: 'phase.running.allStarted' })).toBe('kubelet');
    expect(writerOf({ id: 'condition.ready.true' })).toBe('kubelet');
    expect(writerOf({ id: 'container.waiting.crashLoop' })).toBe('kubelet');
    expect(writerOf({ id: 'node.ready.networkNotReady' })).toBe('kubelet');
    expect(writerOf({ id: 'node.pressure.true' })).toBe('kubelet');
    // The kubelet's Ready stands on a node it reports NotReady.
    expect(writerOf({ id: 'condition.ready.kubeletReportsNodeNotReady' })).toBe('kubelet');
    expect(writerOf({ id: 'condition.ready.nodeUnknownNotMarked' })).toBe('kubelet');
  });

  it('the node lifecycle controller writes Unknown node conditions and the pods it marks', () => {
    expect(writerOf({ id: 'node.ready.kubeletSilent' })).toBe('nodeLifecycleController');
    expect(writerOf({ id: 'node.pressure.nodeUnknown' })).toBe('nodeLifecycleController');
    expect(writerOf({ id: 'condition.ready.nodeNotReady' })).toBe('nodeLifecycleController');
    expect(writerOf({ id: 'condition.ready.markedOnBinding' })).toBe('nodeLifecycleController');
  });

  it('the taint-eviction controller writes the eviction; drift and machine edges have no writer', () => {
    expect(writerOf({ id: 'pod.eviction.due' })).toBe('taintEvictionController');
    expect(writerOf({ id: 'drift.condition.mismatch' })).toBeUndefined();
    expect(writerOf({ id: 'machine.container.started' })).toBeUndefined();
    expect(writerOf(undefined)).toBeUndefined();
    expect(writerOf({ id: 3 as unknown as string })).toBeUndefined();
  });

  it('every value explanation lib/kubelet emits has a writer', () => {
    // node.kubelet.* explain which kubelet version's rules Podscope applies: no field upstream.
    const values = (Object.keys(WHY) as WhyId[]).filter(
      (id) =>
        !id.startsWith('machine.') &&
        !id.startsWith('node.network.') &&
        !id.startsWith('node.kubelet.'),
    );
    expect(values.filter((id) => writerOf({ id }) === undefined)).toEqual([]);
  });

  it('writersOf keys each known writer by its entry', () => {
    expect(
      writersOf({
        Ready: { id: 'condition.ready.nodeNotReady' },
        ContainersReady: { id: 'condition.containersReady.true' },
        x: { id: 'drift.phase.mismatch' },
      }),
    ).toEqual({ Ready: 'nodeLifecycleController', ContainersReady: 'kubelet' });
  });
});
