import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNats, type NatsInstance } from '@/test/cluster/harness';
import { openBus, PARSED_KEPT, TAIL_WAIT_WINDOW, type ClusterBus, type Delivered } from './bus';
import { encodeMessage, messageId, newEpoch, summaryOf } from './envelope';
import { clusterNames } from './names';
import { eventsMessage, heartbeatOf } from './testing';

let nats: NatsInstance;
const open: ClusterBus[] = [];
const logs: string[] = [];

async function bus(cluster: string, limits?: Parameters<typeof openBus>[0]['limits']) {
  const b = await openBus({ servers: nats.url, cluster, limits, log: (l) => logs.push(l) });
  open.push(b);
  return b;
}

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

beforeAll(async () => {
  nats = await startNats();
});
afterAll(async () => {
  for (const b of open) await b.close();
  await nats?.destroy();
});

describe('cluster bus on nats-server', () => {
  it('creates the stream and KV idempotently, with age and size retention and a dedup window', async () => {
    const a = await bus('conf', {
      maxAgeMs: 3_600_000,
      maxBytes: 64 * 1024 * 1024,
      duplicateWindowMs: 60_000,
    });
    await a.ensure();
    const b = await bus('conf', {
      maxAgeMs: 7_200_000,
      maxBytes: 64 * 1024 * 1024,
      duplicateWindowMs: 60_000,
    });
    const info = await b.jsm.streams.info('PODSCOPE_EV_conf');
    expect(info.config.subjects).toEqual(['podscope.v1.conf.ev.>']);
    expect(info.config.max_age).toBe(7_200_000 * 1e6); // the later opener's limits
    expect(info.config.max_bytes).toBe(64 * 1024 * 1024);
    expect(info.config.discard).toBe('old');
    expect(info.config.duplicate_window).toBe(60_000 * 1e6);
    const kv = await b.jsm.streams.info('KV_PODSCOPE_LIVE_conf');
    expect(kv.config.max_msgs_per_subject).toBe(1);
  });

  it('drops a republished (node, epoch, seq) and keeps node names with dots apart', async () => {
    const b = await bus('dedup');
    const epoch = newEpoch();
    const m = eventsMessage('dedup', 'ip-10-0-0-1.ec2.internal', epoch, 1, 3);
    const first = await b.publish(m);
    const again = await b.publish(m);
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ streamSeq: first.streamSeq, duplicate: true });
    await b.publish(eventsMessage('dedup', 'ip-10-0-0-1', epoch, 1, 1));
    // same seq, new epoch: a new message
    await b.publish(
      eventsMessage('dedup', 'ip-10-0-0-1.ec2.internal', newEpoch(Date.now() + 1), 1, 1),
    );
    expect(await b.lastStreamSeq()).toBe(first.streamSeq + 2);
    const one = await take(b.tail(1, { node: 'ip-10-0-0-1.ec2.internal' }), 2);
    expect(one.map((d) => d.message.node)).toEqual([
      'ip-10-0-0-1.ec2.internal',
      'ip-10-0-0-1.ec2.internal',
    ]);
  });

  it('tails from any stream sequence exactly (a restarted reader resumes where it was)', async () => {
    const b = await bus('tail');
    const epoch = newEpoch();
    for (let i = 0; i < 20; i++)
      await b.publish(eventsMessage('tail', `n${i % 3}`, epoch, i + 1, 1));
    const from8 = await take(b.tail(8), 13);
    expect(from8.map((d) => d.streamSeq)).toEqual(Array.from({ length: 13 }, (_, i) => i + 8));
    expect(from8[0]?.message.seq).toBe(8);
  });

  it('refuses malformed and foreign messages with a counted, logged reason and never yields them', async () => {
    const b = await bus('refuse');
    const names = clusterNames('refuse');
    const nc = await connect({ servers: nats.url });
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
    await b.publish(eventsMessage('refuse', 'n1', epoch, 2, 1));
    const got = await take(b.tail(1), 1);
    expect(got.map((d) => [d.streamSeq, d.message.seq])).toEqual([[6, 2]]);
    expect(b.refusals.total('not-json')).toBe(1);
    expect(b.refusals.total('unknown-version')).toBe(1);
    expect(b.refusals.total('foreign-cluster')).toBe(1);
    expect(b.refusals.total('subject-mismatch')).toBe(2);
    expect(await b.refusals.registry.metrics()).toMatch(
      /podscope_cluster_refused_total\{reason="not-json",source="stream"\} 1/,
    );
    expect(
      logs.some((l) => /refused a message on podscope\.v1\.refuse\.ev\.n1: not-json/.test(l)),
    ).toBe(true);
  });

  it('keeps the latest heartbeat and state per node in KV and refuses a foreign entry', async () => {
    const b = await bus('live');
    const epoch = newEpoch();
    await b.putHeartbeat(heartbeatOf('live', 'a.b', epoch, 1));
    await b.putHeartbeat(heartbeatOf('live', 'a.b', epoch, 7));
    await b.putHeartbeat(heartbeatOf('live', 'c', epoch, 2));
    await b.putState({
      v: 1,
      cluster: 'live',
      node: 'c',
      epoch,
      seq: 2,
      t: 1,
      view: {
        name: 'c',
        endpoint: 'x',
        runtimeConditions: [],
        conditions: [],
        why: {},
        health: { relist: 'ok' } as never,
        pods: {},
      },
    });
    // a foreign cluster's heartbeat under our key
    const nc = await connect({ servers: nats.url });
    nc.publish(
      `$KV.PODSCOPE_LIVE_live.${b.names.heartbeatKey('d')}`,
      JSON.stringify(heartbeatOf('other', 'd', epoch, 1)),
    );
    await nc.flush();
    await nc.close();
    await new Promise((r) => setTimeout(r, 200));
    const live = await b.live();
    expect([...live.heartbeats.keys()].sort()).toEqual(['a.b', 'c']);
    expect(live.heartbeats.get('a.b')?.seq).toBe(7);
    expect(live.states.get('c')?.view.name).toBe('c');
    expect(b.refusals.total('foreign-cluster')).toBe(1);

    const ac = new AbortController();
    const seen: string[] = [];
    const watching = (async () => {
      for await (const e of b.watchLive(ac.signal)) {
        seen.push(`${e.kind}:${e.value.node}:${e.value.seq}`);
        if (seen.includes('hb:c:3')) ac.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    await b.putHeartbeat(heartbeatOf('live', 'c', epoch, 3));
    await watching;
    expect(seen).toContain('hb:a.b:7');
    expect(seen).toContain('hb:c:3');
  });

  it('retention drops the oldest messages by size and by age', async () => {
    const bySize = await bus('size', { maxBytes: 64 * 1024, duplicateWindowMs: 1_000 });
    const epoch = newEpoch();
    for (let i = 0; i < 200; i++)
      await bySize.publish(eventsMessage('size', 'n', epoch, i * 5 + 1, 5));
    const info = await bySize.jsm.streams.info(bySize.names.stream);
    expect(info.state.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(info.state.first_seq).toBeGreaterThan(1);
    expect(info.state.last_seq).toBe(200);

    const byAge = await bus('age', { maxAgeMs: 1_000, duplicateWindowMs: 1_000 });
    await byAge.publish(eventsMessage('age', 'n', epoch, 1, 1));
    const deadline = Date.now() + 10_000;
    while ((await byAge.jsm.streams.info(byAge.names.stream)).state.messages > 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('refuses an invalid cluster name before connecting', async () => {
    await expect(openBus({ servers: nats.url, cluster: 'Bad.Name' })).rejects.toThrow(/DNS label/);
  });

  it("shares a parse with the replica's other reader only when that reader is still to come, and near", async () => {
    const b = await bus('share');
    await b.live(); // loads the readers (as the view's tail and the writer do)
    const epoch = newEpoch();
    const subject = b.names.eventSubject('n');
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

  it("drops the verdicts of messages another replica's writer took once this writer is past them", async () => {
    const b = await bus('passed');
    await b.live();
    const epoch = newEpoch();
    const subject = b.names.eventSubject('n');
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
    const b = await bus('wait');
    await b.live();
    const epoch = newEpoch();
    for (let seq = 1; seq <= 6; seq++) await b.publish(eventsMessage('wait', 'n', epoch, seq, 1));
    const settled = (p: Promise<void>) => {
      let done = false;
      void p.then(() => (done = true));
      return async () => {
        await new Promise((r) => setTimeout(r, 50));
        return done;
      };
    };
    // No tail: nothing to wait for.
    expect(await settled(b.tailAt(3, 60_000))()).toBe(true);
    const tail = b.tail(1);
    expect((await tail.next()).value?.streamSeq).toBe(1);
    // Read already: at once. Ahead: until the tail reads it.
    expect(await settled(b.tailAt(1, 60_000))()).toBe(true);
    const at3 = settled(b.tailAt(3, 60_000));
    expect(await at3()).toBe(false);
    await tail.next();
    expect(await at3()).toBe(false);
    await tail.next();
    expect(await at3()).toBe(true);
    // Further behind than the window: the writer parses for itself.
    expect(await settled(b.tailAt(3 + TAIL_WAIT_WINDOW + 1, 60_000))()).toBe(true);
    // A stalled tail: the wait ends after its time, and none waits again…
    const started = Date.now();
    await b.tailAt(5, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await settled(b.tailAt(5, 60_000))()).toBe(true);
    // …until the tail has caught up with the writer.
    const subject = b.names.eventSubject('n');
    b.acceptForWriter(subject, encodeMessage(eventsMessage('wait', 'n', epoch, 4, 1)), 4);
    await tail.next(); // 4
    const at6 = settled(b.tailAt(6, 60_000));
    expect(await at6()).toBe(false);
    // A tail that stops lets its waiters go.
    await tail.return(undefined);
    expect(await at6()).toBe(true);
  });

  it("takes the tail's refusal for the writer without counting it twice", async () => {
    const b = await bus('refused');
    await b.live();
    const subject = b.names.eventSubject('n');
    const junk = new TextEncoder().encode('not json');
    expect(b.accept(subject, junk, 1)).toBeUndefined();
    expect(b.refusals.total('not-json')).toBe(1);
    expect(b.acceptForWriter(subject, junk, 1)).toBeUndefined();
    expect(b.refusals.total('not-json')).toBe(1);
    // Without the tail's verdict the writer parses, and counts, itself.
    expect(b.acceptForWriter(subject, junk, 2)).toBeUndefined();
    expect(b.refusals.total('not-json')).toBe(2);
  });
});
