/**
 * The writer's reading loop with a fake reader and timeline (writer.int.test.ts runs it on a real
 * nats-server and PostgreSQL): what a pull that ends with an error had delivered is committed.
 */
import { describe, expect, it } from 'vitest';
import type { ReplicaReader, WriterFeed } from './bus/reader';
import { encodeMessage, newEpoch, type BusMessage } from './envelope';
import { parseBusMessage } from './parse';
import { eventsMessage } from './testing';
import type { ClusterTimeline, PreparedInsert, StoredMessage } from './timeline/timeline';
import { summaryOf } from './envelope';
import { ClusterWriter } from './writer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fakeMsg(seq: number, message: BusMessage) {
  const m = {
    subject: `ev.${message.node}`,
    data: encodeMessage(message),
    seq,
    info: { pending: 0 },
    acked: 0,
  };
  return Object.assign(m, {
    ack: () => void m.acked++,
    term: () => undefined,
    working: () => undefined,
    nak: () => undefined,
  });
}

describe('timeline writer (fake reader)', () => {
  it('commits and acknowledges what a pull delivered before it ended with an error', async () => {
    const epoch = newEpoch();
    const msgs = [1, 2, 3].map((seq) => fakeMsg(seq, eventsMessage('c', 'n', epoch, seq, 1, 1)));
    let fetches = 0;
    const consumer = {
      fetch: () => {
        fetches++;
        const first = fetches === 1;
        return (async function* () {
          if (!first) return await sleep(10);
          yield* msgs;
          throw new Error('heartbeats missed');
        })();
      },
    };
    const feed = {
      fetch: () => Promise.resolve(consumer.fetch()),
      accept: (batch: readonly { subject: string; data: Uint8Array }[]) =>
        Promise.resolve(
          batch.map(({ subject, data }) => {
            const parsed = parseBusMessage(data, 'c', subject.slice(3));
            return parsed.ok ? summaryOf(parsed.value) : undefined;
          }),
        ),
    } as unknown as WriterFeed;
    const reader = {
      bus: { nc: { isClosed: () => false, flush: () => Promise.resolve() } },
      writerFeed: () => Promise.resolve(feed),
    } as unknown as ReplicaReader;
    const written: StoredMessage[][] = [];
    const timeline = {
      where: 'fake',
      prepareInsert: (messages: readonly StoredMessage[]) => ({
        count: messages.length,
        days: new Set(),
        messages,
      }),
      insertPrepared: (batch: PreparedInsert & { messages: StoredMessage[] }) => {
        written.push(batch.messages);
        return Promise.resolve(batch.count);
      },
    } as unknown as ClusterTimeline;
    const logs: string[] = [];
    const w = new ClusterWriter({ reader, timeline, log: (l) => logs.push(l) }).start();
    try {
      const deadline = Date.now() + 10_000;
      while (w.stats.messages < 3 && Date.now() < deadline) await sleep(10);
    } finally {
      await w.stop();
    }
    expect(w.stats.messages).toBe(3);
    expect(w.stats.inserted).toBe(3);
    expect(msgs.map((m) => m.acked)).toEqual([1, 1, 1]);
    // Each message stored as it was read: its stream seq and its bytes.
    expect(written.flat().map((s) => [s.streamSeq, s.body])).toEqual(
      msgs.map((m) => [m.seq, m.data]),
    );
    expect(logs.join('\n')).toMatch(/a fetch ended early after 3 messages: heartbeats missed/);
  });
});
