import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode, emptyState, reduce } from '@/lib/timeline';
import { fastDecode } from './decode';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';

/** fastDecode must give exactly what the codec's decode gives, Dates included. */
const TIME_KEYS = [
  'startedAt',
  'finishedAt',
  'lastTransitionTime',
  'lastHeartbeatTime',
  'startTime',
  'deletionTimestamp',
];

const timeLike = fc.oneof(
  fc
    .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    '2025-01-01T00:00:00Z',
    '2025-01-01T00:00:00.123456789+02:00',
    '2025-13-45T99:99:99Z', // RFC 3339 shape, not a real time
    '2025-01-01 00:00:00',
    'yesterday',
    '',
  ),
);

const keyed = fc.dictionary(
  fc.constantFrom(...TIME_KEYS, 'name', 'message', '0', '__proto__'),
  fc.oneof(timeLike, fc.integer(), fc.constant(null)),
);
const doc = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    keyed,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...TIME_KEYS, 'status', 'items'), tie('node'), { maxKeys: 4 }),
    timeLike,
    fc.jsonValue({ maxDepth: 2 }),
  ),
})).node;

describe('fastDecode', () => {
  it('agrees with decode on arbitrary JSON with time-like strings anywhere', () => {
    fc.assert(
      fc.property(doc, (value) => {
        const text = JSON.stringify(value);
        expect(fastDecode(text)).toStrictEqual(decode(text));
      }),
      { numRuns: 500, seed: 3 },
    );
  });

  it('agrees with decode on real events and states', () => {
    const workload = new SyntheticWorkload({ seed: 77, nodes: 2, podsPerNode: 4 });
    let state = emptyState();
    let seq = 0;
    for (const batch of workload.batches(2_000)) {
      for (const e of batch) {
        const text = encode({ ...e, seq: ++seq });
        expect(fastDecode(text)).toStrictEqual(decode(text));
        state = reduce(state, decode(text));
      }
    }
    const text = encode(state);
    const fast = fastDecode<typeof state>(text);
    expect(fast).toStrictEqual(decode(text));
    const pod = Object.values(Object.values(fast.nodes)[0]?.pods ?? {})[0];
    expect(pod?.status.conditions?.[0]?.lastTransitionTime).toBeInstanceOf(Date);
  });

  it('returns fresh Date objects (callers own what they decode)', () => {
    const text = '[{"startedAt":"2025-01-01T00:00:00Z"},{"startedAt":"2025-01-01T00:00:00Z"}]';
    const [a, b] = fastDecode<{ startedAt: Date }[]>(text);
    expect(a?.startedAt).toBeInstanceOf(Date);
    expect(a?.startedAt).not.toBe(b?.startedAt);
  });
});
