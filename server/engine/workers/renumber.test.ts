import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/timeline/events';
import { renumber } from './renumber';

const cri = (seq: number, node = 'a'): TimelineEvent => ({
  kind: 'cri',
  type: 'ContainerExited',
  source: 'relist',
  node,
  t: 1,
  seq,
});
const derived = (seq: number, cause?: number, node = 'a'): TimelineEvent => ({
  kind: 'pod',
  type: 'PodUpdated',
  node,
  podUid: 'u',
  t: 1,
  seq,
  ...(cause !== undefined ? { cause } : {}),
});

describe('renumber', () => {
  it('gives server-wide seqs in order and maps causes with them', () => {
    let next = 100;
    const out = renumber([cri(1), cri(2, 'b'), derived(3, 1), derived(4, 2, 'b')], () => ++next);
    expect(out.map((e) => e.seq)).toEqual([101, 102, 103, 104]);
    expect(out.map((e) => e.cause)).toEqual([undefined, undefined, 101, 102]);
  });

  it('drops what `keep` refuses without using a seq, and a cause it can no longer name', () => {
    let next = 0;
    const out = renumber(
      [cri(5, 'gone'), derived(6, 5), derived(7, 3)],
      () => ++next,
      (e) => e.node !== 'gone',
    );
    expect(out.map((e) => e.seq)).toEqual([1, 2]);
    expect(out.every((e) => !('cause' in e))).toBe(true);
  });
});
