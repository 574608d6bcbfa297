import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Msg } from '@nats-io/transport-node';
import { connectBus, type BusConnection } from '@/server/cluster/bus/connection';
import { startNats, type NatsInstance } from '@/test/cluster/harness';
import { PipelinedPublisher, type PubAck } from './pipelined-publisher';

let nats: NatsInstance;
let bus: BusConnection;

beforeAll(async () => {
  nats = await startNats();
  bus = await connectBus({ servers: nats.url, cluster: 'pub', log: () => {} });
});
afterAll(async () => {
  await bus?.close();
  await nats?.destroy();
});

const subject = () => bus.names.eventSubject('node-a');

function publishAll(
  pub: PipelinedPublisher,
  items: { data: Uint8Array; id: string }[],
  to = subject(),
) {
  return Promise.all(
    items.map(
      ({ data, id }) =>
        new Promise<PubAck>((resolve, reject) =>
          pub.publish(to, data, id, (err, ack) => (err ? reject(err) : resolve(ack as PubAck))),
        ),
    ),
  );
}

describe('PipelinedPublisher', () => {
  it('publishes every message once, in order, and reads each acknowledgement', async () => {
    const pub = new PipelinedPublisher(bus.nc);
    try {
      const before = (await bus.jsm.streams.info(bus.names.stream)).state.last_seq;
      const items = Array.from({ length: 2_000 }, (_, i) => ({
        data: new TextEncoder().encode(`message ${i}`),
        id: `order/${i}`,
      }));
      const acks = await publishAll(pub, items);
      expect(acks.map((a) => a.seq)).toEqual(items.map((_, i) => before + i + 1));
      expect(acks.every((a) => !a.duplicate)).toBe(true);
      expect(pub.inFlight).toBe(0);
      const stored = await bus.jsm.streams.getMessage(bus.names.stream, { seq: before + 1_000 });
      expect(stored?.string()).toBe('message 999');
      expect(stored?.header.get('Nats-Msg-Id')).toBe('order/999');
    } finally {
      pub.close();
    }
  });

  it('says when JetStream already has the message id, and stores nothing more', async () => {
    const pub = new PipelinedPublisher(bus.nc);
    try {
      const [first] = await publishAll(pub, [{ data: new Uint8Array([1]), id: 'dup/1' }]);
      const [again] = await publishAll(pub, [{ data: new Uint8Array([1]), id: 'dup/1' }]);
      expect(again).toEqual({ seq: first?.seq, duplicate: true });
      expect((await bus.jsm.streams.info(bus.names.stream)).state.last_seq).toBe(first?.seq);
    } finally {
      pub.close();
    }
  });

  it('fails a publish to a subject no stream takes, with the reason', async () => {
    const pub = new PipelinedPublisher(bus.nc);
    try {
      await expect(
        publishAll(pub, [{ data: new Uint8Array([1]), id: 'x/1' }], 'nobody.listens.here'),
      ).rejects.toThrow(/no JetStream stream takes this subject/);
    } finally {
      pub.close();
    }
  });

  it('fails a publish that is not acknowledged in time, and every one waiting when closed', async () => {
    const pub = new PipelinedPublisher(bus.nc, 300);
    await nats.stop();
    try {
      const late = publishAll(pub, [{ data: new Uint8Array([1]), id: 'late/1' }]);
      await expect(late).rejects.toThrow(/no PubAck within 300 ms/);
      const waiting = publishAll(pub, [{ data: new Uint8Array([2]), id: 'late/2' }]);
      pub.close();
      await expect(waiting).rejects.toThrow(/publisher closed/);
    } finally {
      await nats.start();
    }
  });

  it('reads a refusal and a reply that is not a PubAck as errors', () => {
    const reply = (body: string, code = 0) =>
      ({ string: () => body, headers: code ? { code } : undefined }) as unknown as Msg;
    expect(PipelinedPublisher.ackOf(reply('{"stream":"S","seq":7}'))).toEqual({
      seq: 7,
      duplicate: false,
    });
    expect(
      PipelinedPublisher.ackOf(
        reply('{"error":{"code":400,"description":"message size exceeds maximum allowed"}}'),
      ),
    ).toEqual(new Error('JetStream refused the message: message size exceeds maximum allowed'));
    expect(PipelinedPublisher.ackOf(reply('<html>'))).toEqual(new Error('not a PubAck: <html>'));
    expect(PipelinedPublisher.ackOf(reply('{}'))).toEqual(new Error('not a PubAck: {}'));
    expect(PipelinedPublisher.ackOf(reply('', 503))).toEqual(
      new Error('no JetStream stream takes this subject (503 no responders)'),
    );
  });
});
