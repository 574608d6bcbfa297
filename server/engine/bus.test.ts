import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/timeline/events';
import { EventBus } from './bus';

const ev = (seq: number): TimelineEvent => ({
  seq,
  t: seq,
  node: 'n',
  kind: 'cri',
  type: 'RelistFailed',
  source: 'relist',
});

describe('EventBus', () => {
  it('delivers batches in order to each subscriber', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe();
    bus.publish([ev(1), ev(2)]);
    bus.publish([ev(3)]);
    const got: number[] = [];
    for await (const batch of sub) {
      got.push(...batch.map((e) => e.seq));
      if (got.length === 3) break;
    }
    expect(got).toEqual([1, 2, 3]);
    expect(bus.size).toBe(0);
  });

  it('never blocks the publisher: a slow subscriber overflows and is told to resume', async () => {
    const bus = new EventBus(2);
    const sub = bus.subscribe();
    bus.publish([ev(1), ev(2)]);
    bus.publish([ev(3)]);
    expect(sub.overflowed).toBe(true);
    expect(bus.dropped).toBe(1);
    const batches: TimelineEvent[][] = [];
    for await (const b of sub) batches.push(b);
    expect(batches).toEqual([]);
  });

  it('detaches on abort', async () => {
    const bus = new EventBus();
    const ac = new AbortController();
    const sub = bus.subscribe(ac.signal);
    const done = (async () => {
      for await (const _ of sub) {
        /* drain */
      }
    })();
    ac.abort();
    await done;
    expect(bus.size).toBe(0);
  });
});
