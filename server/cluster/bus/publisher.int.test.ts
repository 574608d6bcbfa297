import { describe, expect, it } from 'vitest';
import { newEpoch } from '../envelope';
import { eventsMessage } from '../testing';
import { BusPublisher } from './publisher';
import { ReplicaReader, type Delivered } from './reader';
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

describe('publishing to the bus', () => {
  it('drops a republished (node, epoch, seq) and keeps node names with dots apart', async () => {
    const bus = await fx.connect('dedup');
    const b = new BusPublisher(bus);
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
    expect(await bus.lastStreamSeq()).toBe(first.streamSeq + 2);
    const reader = new ReplicaReader(bus);
    const one = await take(reader.tail(1, { node: 'ip-10-0-0-1.ec2.internal' }), 2);
    expect(one.map((d) => d.message.node)).toEqual([
      'ip-10-0-0-1.ec2.internal',
      'ip-10-0-0-1.ec2.internal',
    ]);
  });
});
