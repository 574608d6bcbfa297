/**
 * The parse sharing between a replica's two readers of the stream (ParseSharing, reader.ts) on
 * its own: which reader parses, what the other takes, what is kept and for how long, and when the
 * writer waits for the tail. reader.int.test.ts runs the reader itself on a real nats-server.
 */
import { describe, expect, it } from 'vitest';
import { encodeMessage, messageId, newEpoch, summaryOf } from '../envelope';
import { clusterNames } from '../names';
import { Refusals } from '../refusals';
import { eventsMessage } from '../testing';
import { PARSED_KEPT, ParseSharing, TAIL_WAIT_WINDOW } from './reader';

function sharing(cluster: string) {
  const names = clusterNames(cluster);
  const refusals = new Refusals(() => {});
  return { names, refusals, share: new ParseSharing({ names, refusals }) };
}

/** A probe of a promise: whether it has settled 50 ms after the call. */
const settled = (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  return async () => {
    await new Promise((r) => setTimeout(r, 50));
    return done;
  };
};

describe('ParseSharing', () => {
  it('shares a parse with the other reader only when that reader is still to come, and near', () => {
    const { names, share: b } = sharing('share');
    const epoch = newEpoch();
    const subject = names.eventSubject('n');
    const msg = (seq: number) => eventsMessage('share', 'n', epoch, seq, 2, 1_000);
    const data = (seq: number) => encodeMessage(msg(seq));
    const id = (seq: number) => messageId(msg(seq));
    // The view's tail first, the writer behind: the writer takes the tail's verdict, not a parse.
    const first = b.accept(subject, data(1), 1);
    expect(first).toBeDefined();
    expect(b.keptParses).toBe(0);
    expect(b.keptVerdicts).toBe(1);
    expect(b.acceptForWriter(subject, data(1), 1, id(1))).toEqual(summaryOf(msg(1)));
    expect(b.keptVerdicts).toBe(0);
    // The writer ahead: the tail takes its parse.
    const ahead = b.accept(subject, data(5), 5, 'writer');
    expect(b.keptParses).toBe(1);
    expect(b.accept(subject, data(5), 5)).toBe(ahead);
    expect(b.keptParses).toBe(0);
    expect(b.keptVerdicts).toBe(0); // the writer has been there
    // The writer far ahead of the tail: nothing kept for a tail that comes too late.
    const far = 5 + PARSED_KEPT + 1;
    const writerFar = b.acceptForWriter(subject, data(far), far, id(far));
    expect(writerFar).toEqual(summaryOf(msg(far)));
    expect(b.keptParses).toBe(0);
    expect(b.accept(subject, data(far), far)?.seq).toBe(far);
    // A reader second to a message keeps nothing (the other has passed it).
    b.accept(subject, data(far - 1), far - 1);
    expect(b.keptVerdicts).toBe(0);
    // Other bytes, or another message id, under a kept sequence are parsed, never taken for it.
    b.accept(subject, data(far + 1), far + 1);
    b.accept(subject, data(far + 2), far + 2);
    expect(b.keptVerdicts).toBe(2);
    const other = encodeMessage(eventsMessage('share', 'n', epoch, far + 3, 3, 1_000));
    expect(b.acceptForWriter(subject, other, far + 1)).toMatchObject({ seq: far + 3, count: 3 });
    expect(b.acceptForWriter(subject, data(far + 2), far + 2, 'n/other/1')).toEqual(
      summaryOf(msg(far + 2)),
    );
    expect(b.keptVerdicts).toBe(0);
  });

  it("drops the verdicts of messages another replica's writer took once this writer is past them", () => {
    const { names, share: b } = sharing('passed');
    const epoch = newEpoch();
    const subject = names.eventSubject('n');
    const data = (seq: number) => encodeMessage(eventsMessage('passed', 'n', epoch, seq, 1, 1_000));
    const last = 3 * PARSED_KEPT;
    for (let seq = 1; seq <= last; seq++) b.accept(subject, data(seq), seq);
    expect(b.keptVerdicts).toBe(last);
    // This replica's writer gets every other message (two replicas share the writers' consumer).
    for (let seq = 2; seq <= last; seq += 2)
      expect(b.acceptForWriter(subject, data(seq), seq)?.seq).toBe(seq);
    // Left: the other writer's messages within PARSED_KEPT of this writer's position.
    expect(b.keptVerdicts).toBe(PARSED_KEPT / 2);
  });

  it('lets the writer wait for the tail: until it reads the sequence, or at most a while, and only while a tail runs', async () => {
    const { names, share: b } = sharing('wait');
    const epoch = newEpoch();
    const subject = names.eventSubject('n');
    const read = (seq: number) =>
      b.accept(subject, encodeMessage(eventsMessage('wait', 'n', epoch, seq, 1)), seq);
    // No tail: nothing to wait for.
    expect(await settled(b.tailAt(3, 60_000))()).toBe(true);
    b.tailStarted();
    read(1);
    // Read already: at once. Ahead: until the tail reads it.
    expect(await settled(b.tailAt(1, 60_000))()).toBe(true);
    const at3 = settled(b.tailAt(3, 60_000));
    expect(await at3()).toBe(false);
    expect(b.waitingForTail).toBe(1);
    read(2);
    expect(await at3()).toBe(false);
    read(3);
    expect(await at3()).toBe(true);
    expect(b.waitingForTail).toBe(0);
    // Further behind than the window: the writer parses for itself.
    expect(await settled(b.tailAt(3 + TAIL_WAIT_WINDOW + 1, 60_000))()).toBe(true);
    // A stalled tail: the wait ends after its time, and none waits again…
    const started = Date.now();
    await b.tailAt(5, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await settled(b.tailAt(5, 60_000))()).toBe(true);
    // …until the tail has caught up with the writer.
    b.acceptForWriter(subject, encodeMessage(eventsMessage('wait', 'n', epoch, 4, 1)), 4);
    read(4);
    const at6 = settled(b.tailAt(6, 60_000));
    expect(await at6()).toBe(false);
    // A tail that stops lets its waiters go.
    b.tailEnded();
    expect(await at6()).toBe(true);
  });

  it("takes the tail's refusal for the writer without counting it twice", () => {
    const { names, refusals, share: b } = sharing('refused');
    const subject = names.eventSubject('n');
    const junk = new TextEncoder().encode('not json');
    expect(b.accept(subject, junk, 1)).toBeUndefined();
    expect(refusals.total('not-json')).toBe(1);
    expect(b.acceptForWriter(subject, junk, 1)).toBeUndefined();
    expect(refusals.total('not-json')).toBe(1);
    // Without the tail's verdict the writer parses, and counts, itself.
    expect(b.acceptForWriter(subject, junk, 2)).toBeUndefined();
    expect(refusals.total('not-json')).toBe(2);
  });
});
