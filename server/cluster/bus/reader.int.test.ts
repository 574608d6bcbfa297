/**
 * The replica's reader on a real nats-server: the ordered tail, refusals, and the writers' feed
 * reading through the tail's parses (reader.test.ts has the parse sharing's rules on their own).
 */
import type { JsMsg } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { newEpoch, summaryOf } from '../envelope';
import { clusterNames } from '../names';
import { eventsMessage } from '../testing';
import { BusPublisher } from './publisher';
import { ReplicaReader, type Delivered, type WriterFeed } from './reader';
import { busFixture } from './testing/fixture';

const fx = busFixture();

async function take(it: AsyncGenerator<Delivered>, n: number, timeoutMs = 10_000) {
  const out: Delivered[] = [];
  const timer = setTimeout(() => void it.return(undefined), timeoutMs);
  for await (const d of it) {
    out.push(d);
    if (out.length >= n) break;
  }
  clearTimeout(timer);
  return out;
}

async function fetchAll(feed: WriterFeed, n: number): Promise<JsMsg[]> {
  const msgs: JsMsg[] = [];
  while (msgs.length < n)
    for await (const m of await feed.fetch({ max_messages: n - msgs.length, expires: 1_000 }))
      msgs.push(m);
  return msgs;
}

describe("the replica's reader on nats-server", () => {
  it('tails from any stream sequence exactly (a restarted reader resumes where it was)', async () => {
    const bus = await fx.connect('tail');
    const b = new BusPublisher(bus);
    const epoch = newEpoch();
    for (let i = 0; i < 20; i++)
      await b.publish(eventsMessage('tail', `n${i % 3}`, epoch, i + 1, 1));
    const from8 = await take(new ReplicaReader(bus).tail(8), 13);
    expect(from8.map((d) => d.streamSeq)).toEqual(Array.from({ length: 13 }, (_, i) => i + 8));
    expect(from8[0]?.message.seq).toBe(8);
  });

  it('refuses malformed and foreign messages with a counted, logged reason and never yields them', async () => {
    const bus = await fx.connect('refuse');
    const names = clusterNames('refuse');
    const nc = await connect({ servers: fx.nats.url });
    const raw = (subject: string, body: unknown) =>
      nc.publish(subject, typeof body === 'string' ? body : JSON.stringify(body));
    const epoch = newEpoch();
    const good = eventsMessage('refuse', 'n1', epoch, 1, 1);
    raw(names.eventSubject('n1'), '{not json');
    raw(names.eventSubject('n1'), { ...good, v: 9 });
    raw(names.eventSubject('n1'), { ...good, cluster: 'elsewhere' });
    raw(names.eventSubject('n2'), good); // n1's message on n2's subject
    raw('podscope.v1.refuse.ev.bad.token', good); // not a node subject (two tokens)
    await nc.flush();
    await nc.close();
    await new BusPublisher(bus).publish(eventsMessage('refuse', 'n1', epoch, 2, 1));
    const got = await take(new ReplicaReader(bus).tail(1), 1);
    expect(got.map((d) => [d.streamSeq, d.message.seq])).toEqual([[6, 2]]);
    const { refusals } = bus;
    expect(refusals.total('not-json')).toBe(1);
    expect(refusals.total('unknown-version')).toBe(1);
    expect(refusals.total('foreign-cluster')).toBe(1);
    expect(refusals.total('subject-mismatch')).toBe(2);
    expect(await refusals.registry.metrics()).toMatch(
      /podscope_cluster_refused_total\{reason="not-json",source="stream"\} 1/,
    );
    expect(
      fx.logs.some((l) => /refused a message on podscope\.v1\.refuse\.ev\.n1: not-json/.test(l)),
    ).toBe(true);
  });

  it("feeds the writer the tail's verdicts: a batch ahead of the tail waits for it, and nothing is counted twice", async () => {
    const bus = await fx.connect('feed');
    const publisher = new BusPublisher(bus);
    const epoch = newEpoch();
    const sent = [1, 2, 3, 4].map((seq) => eventsMessage('feed', 'n', epoch, seq, 2, 1_000));
    for (const m of sent) await publisher.publish(m);
    const nc = await connect({ servers: fx.nats.url });
    nc.publish(bus.names.eventSubject('n'), 'not json'); // stream seq 5
    await nc.flush();
    await nc.close();
    const reader = new ReplicaReader(bus);
    const feed = await reader.writerFeed({ tailWaitMs: 60_000 });
    const msgs = await fetchAll(feed, 5);
    // No tail runs: the writer parses for itself, at once.
    const alone = await feed.accept(msgs.slice(0, 1));
    expect(alone).toEqual([summaryOf(sent[0]!)]);
    // A tail at message 1: the batch 2..5 waits until the tail has read message 5.
    const stop = new AbortController();
    const tail = reader.tail(1, { signal: stop.signal });
    expect((await tail.next()).value?.streamSeq).toBe(1);
    let summaries: unknown[] | undefined;
    const accepting = feed.accept(msgs.slice(1)).then((s) => (summaries = s));
    await new Promise((r) => setTimeout(r, 100));
    expect(summaries).toBeUndefined();
    expect(reader.waitingForTail).toBe(1);
    for (let i = 2; i <= 4; i++) expect((await tail.next()).value?.streamSeq).toBe(i);
    // The refused message 5 is never yielded: the tail reads it as it waits for what comes next.
    const next = tail.next();
    await accepting;
    expect(reader.waitingForTail).toBe(0);
    expect(summaries).toEqual([...sent.slice(1).map((m) => summaryOf(m)), undefined]);
    // The tail counted the refusal; the writer took its verdict.
    expect(bus.refusals.total('not-json')).toBe(1);
    stop.abort();
    expect((await next).done).toBe(true);
  });
});
