import { describe, expect, it } from 'vitest';
import { newEpoch } from '../envelope';
import { eventsMessage } from '../testing';
import { connectBus } from './connection';
import { provision } from './provision';
import { BusPublisher } from './publisher';
import { busFixture } from './testing/fixture';

const fx = busFixture();

describe('the bus provisioned on nats-server', () => {
  it('creates the stream and KV idempotently, with age and size retention and a dedup window', async () => {
    const a = await fx.connect('conf', {
      maxAgeMs: 3_600_000,
      maxBytes: 64 * 1024 * 1024,
      duplicateWindowMs: 60_000,
    });
    await provision(a);
    const b = await fx.connect('conf', {
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

  it('retention drops the oldest messages by size and by age', async () => {
    const bySize = await fx.connect('size', { maxBytes: 64 * 1024, duplicateWindowMs: 1_000 });
    const epoch = newEpoch();
    const sized = new BusPublisher(bySize);
    for (let i = 0; i < 200; i++)
      await sized.publish(eventsMessage('size', 'n', epoch, i * 5 + 1, 5));
    const info = await bySize.jsm.streams.info(bySize.names.stream);
    expect(info.state.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(info.state.first_seq).toBeGreaterThan(1);
    expect(info.state.last_seq).toBe(200);

    const byAge = await fx.connect('age', { maxAgeMs: 1_000, duplicateWindowMs: 1_000 });
    await new BusPublisher(byAge).publish(eventsMessage('age', 'n', epoch, 1, 1));
    const deadline = Date.now() + 10_000;
    while ((await byAge.jsm.streams.info(byAge.names.stream)).state.messages > 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('refuses an invalid cluster name before connecting', async () => {
    await expect(
      connectBus({ servers: fx.nats.url, cluster: 'Bad.Name', log: () => {} }),
    ).rejects.toThrow(/DNS label/);
  });
});
