/**
 * Global ids (global.ts): each event of a message gets streamSeq × 1024 + its index, a cause
 * inside the message becomes the cause's gid, one outside it is left out, and the message's own
 * events are not touched (the view and the writer share them).
 */
import { describe, expect, it } from 'vitest';
import { newEpoch } from './envelope';
import { adoptEvents, gidOf, globalEvents } from './global';
import { criEvents, eventsMessage } from './testing';

describe('globalEvents', () => {
  it('numbers events by stream seq, maps in-message causes and leaves outside ones out', () => {
    const events = criEvents('n', 10, 3, 1_000).map((e, i) =>
      i === 1 ? { ...e, cause: 10 } : i === 2 ? { ...e, cause: 4 } : e,
    );
    const msg = eventsMessage('c', 'n', newEpoch(), 10, 3, 1_000, events);
    const before = structuredClone(msg.events);
    const out = globalEvents(7, msg);
    expect(out.map((g) => [g.gid, g.nodeSeq, g.streamSeq, g.node])).toEqual([
      [gidOf(7, 0), 10, 7, 'n'],
      [gidOf(7, 1), 11, 7, 'n'],
      [gidOf(7, 2), 12, 7, 'n'],
    ]);
    expect(out.map((g) => g.event.seq)).toEqual([gidOf(7, 0), gidOf(7, 1), gidOf(7, 2)]);
    expect('cause' in (out[0]?.event ?? {})).toBe(false);
    expect(out[1]?.event).toEqual({ ...events[1], seq: gidOf(7, 1), cause: gidOf(7, 0) });
    // Seq 4 was in an earlier message: not guessed, left out (no key at all).
    expect(Object.keys(out[2]?.event ?? {})).not.toContain('cause');
    expect(out[2]?.event).toEqual({
      ...events[0],
      id: 'c-12',
      podUid: 'pod-n-5',
      seq: gidOf(7, 2),
    });
    expect(msg.events).toEqual(before);
    // The same message at the same stream seq: the same (shared) events.
    expect(globalEvents(7, msg)).toBe(out);
  });

  it("an adopted message's events get their global ids in place, with the same result", () => {
    const events = () =>
      criEvents('n', 10, 4, 1_000).map((e, i) =>
        i === 1 ? { ...e, cause: 10 } : i === 2 ? { ...e, cause: 4 } : e,
      );
    const epoch = newEpoch();
    const copied = globalEvents(7, eventsMessage('c', 'n', epoch, 10, 4, 1_000, events()));
    const msg = eventsMessage('c', 'n', epoch, 10, 4, 1_000, events());
    const own = [...msg.events];
    adoptEvents(msg);
    const out = globalEvents(7, msg);
    expect(out).toEqual(copied);
    // Stored as the same text (the timeline keeps each body as JSON): keys in the same order.
    expect(JSON.stringify(out)).toBe(JSON.stringify(copied));
    // No copy, but for the event whose cause (seq 4) lies outside the message: left out.
    expect(out.map((g, i) => g.event === own[i])).toEqual([true, true, false, true]);
    expect(Object.keys(out[2]?.event ?? {})).not.toContain('cause');
    expect(globalEvents(7, msg)).toBe(out);
    // The same message under another stream seq (republished): every gid moved, nothing shared.
    const again = globalEvents(9, msg);
    expect(again).toEqual(globalEvents(9, eventsMessage('c', 'n', epoch, 10, 4, 1_000, events())));
    expect(again.map((g) => g.event.seq)).toEqual([0, 1, 2, 3].map((i) => gidOf(9, i)));
    expect(again[1]?.event).toMatchObject({ cause: gidOf(9, 0) });
    expect(out.map((g) => g.event.seq)).toEqual([0, 1, 2, 3].map((i) => gidOf(7, i)));
  });
});
