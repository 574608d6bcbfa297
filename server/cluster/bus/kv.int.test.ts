import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { newEpoch } from '../envelope';
import { heartbeatOf } from '../testing';
import { readLive, watchLive } from './kv';
import { BusPublisher } from './publisher';
import { busFixture } from './testing/fixture';

const fx = busFixture();

describe('the KV of heartbeats and node states', () => {
  it('keeps the latest heartbeat and state per node in KV and refuses a foreign entry', async () => {
    const bus = await fx.connect('live');
    const b = new BusPublisher(bus);
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
    const nc = await connect({ servers: fx.nats.url });
    nc.publish(
      `$KV.PODSCOPE_LIVE_live.${bus.names.heartbeatKey('d')}`,
      JSON.stringify(heartbeatOf('other', 'd', epoch, 1)),
    );
    await nc.flush();
    await nc.close();
    await new Promise((r) => setTimeout(r, 200));
    const live = await readLive(bus);
    expect([...live.heartbeats.keys()].sort()).toEqual(['a.b', 'c']);
    expect(live.heartbeats.get('a.b')?.seq).toBe(7);
    expect(live.states.get('c')?.view.name).toBe('c');
    expect(bus.refusals.total('foreign-cluster')).toBe(1);

    const ac = new AbortController();
    const seen: string[] = [];
    const watching = (async () => {
      for await (const e of watchLive(bus, ac.signal)) {
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
});
