import { describe, expect, it } from 'vitest';
import { emptyState, reduce, type ClusterState } from '@/lib/timeline';
import { decodeSnapshot, encodeSnapshot } from './snapshot';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';

function bigState(): ClusterState {
  const workload = new SyntheticWorkload({ seed: 12, nodes: 3, podsPerNode: 8 });
  let state = emptyState();
  let seq = 0;
  for (const batch of workload.batches(2_000))
    for (const e of batch) state = reduce(state, { ...e, seq: ++seq });
  return state;
}

describe('snapshot codec', () => {
  it('keeps small states as plain JSON', () => {
    const encoded = encodeSnapshot(emptyState());
    expect(encoded.codec).toBe('json');
    expect(encoded.body.toString('utf8')).toBe('{"seq":0,"t":0,"nodes":{}}');
    expect(decodeSnapshot(encoded.codec, encoded.body)).toEqual(emptyState());
  });

  it('gzips large states and round-trips them, Dates included', () => {
    const state = bigState();
    const encoded = encodeSnapshot(state);
    expect(encoded.codec).toBe('json+gzip');
    expect(encoded.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const back = decodeSnapshot(encoded.codec, encoded.body);
    expect(back).toEqual(state);
    const pod = Object.values(Object.values(back.nodes)[0]?.pods ?? {})[0];
    expect(pod?.status.conditions?.[0]?.lastTransitionTime).toBeInstanceOf(Date);
  });

  it('refuses an unknown codec', () => {
    expect(() => decodeSnapshot('zstd', Buffer.from('x'))).toThrow('unknown snapshot codec "zstd"');
  });
});
