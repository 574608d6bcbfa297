import { describe, expect, it } from 'vitest';
import { lastSeqOf, MAX_EVENTS_PER_MESSAGE, type BusMessage } from '@/server/cluster/envelope';
import { criEvents } from '@/server/cluster/testing';
import { Outbox } from './outbox';

const id = { cluster: 'c', node: 'n', epoch: 'abc-12345678' };

function drain(o: Outbox): BusMessage[] {
  const out: BusMessage[] = [];
  for (let m = o.take(); m; m = o.take()) {
    out.push(m);
    o.done();
  }
  return out;
}

/** The seqs the messages cover, in order, each exactly once. */
function covered(ms: BusMessage[]): number[] {
  const seqs: number[] = [];
  for (const m of ms) for (let s = m.seq; s <= lastSeqOf(m); s++) seqs.push(s);
  return seqs;
}

describe('agent outbox', () => {
  it('keeps a batch in one message and splits long ones at the message limit', () => {
    const o = new Outbox(id);
    o.add(criEvents('n', 1, 3));
    o.add(criEvents('n', 4, MAX_EVENTS_PER_MESSAGE + 10));
    const ms = drain(o);
    expect(ms.map((m) => (m.type === 'events' ? m.events.length : 0))).toEqual([
      3,
      MAX_EVENTS_PER_MESSAGE,
      10,
    ]);
    expect(covered(ms)).toEqual(
      Array.from({ length: MAX_EVENTS_PER_MESSAGE + 13 }, (_, i) => i + 1),
    );
    expect(o.stats).toMatchObject({ queuedMessages: 0, queuedBytes: 0, droppedEvents: 0, gaps: 0 });
  });

  it('past its memory cap drops the oldest and says so with one gap message, seqs stay contiguous', () => {
    const o = new Outbox(id, 20_000);
    for (let i = 0; i < 100; i++) o.add(criEvents('n', i * 5 + 1, 5));
    expect(o.stats.queuedBytes).toBeLessThanOrEqual(20_000);
    expect(o.stats.droppedEvents).toBeGreaterThan(0);
    const ms = drain(o);
    expect(ms[0]?.type).toBe('gap');
    expect(ms.filter((m) => m.type === 'gap')).toHaveLength(1); // merged into one
    expect(covered(ms)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    const gap = ms[0] as Extract<BusMessage, { type: 'gap' }>;
    expect(gap.lost).toEqual({ from: 1, to: o.stats.droppedEvents });
    expect(o.stats.gaps).toBe(1);
  });

  it('never drops the message being published; a failed publish takes the same message again', () => {
    const o = new Outbox(id, 5_000);
    o.add(criEvents('n', 1, 2));
    const inFlight = o.take();
    for (let i = 0; i < 50; i++) o.add(criEvents('n', 3 + i * 2, 2));
    expect(o.take()).toBe(inFlight); // not done: the same again
    o.done();
    const rest = drain(o);
    expect(rest[0]?.type).toBe('gap');
    expect(covered([inFlight as BusMessage, ...rest])).toEqual(
      Array.from({ length: 102 }, (_, i) => i + 1),
    );
  });

  it('wakes a waiting publisher', async () => {
    const o = new Outbox(id);
    let woke = false;
    const waiting = o.ready().then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    o.add(criEvents('n', 1, 1));
    await waiting;
    expect(woke).toBe(true);
  });
});
