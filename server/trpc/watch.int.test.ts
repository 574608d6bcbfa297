/**
 * cluster.watch over real HTTP SSE: snapshot then deltas, each with an `id:`; a subscriber
 * dropped mid-stream resumes from Last-Event-ID with no gap and no duplicate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { decode } from '@/lib/timeline/codec';
import { batchEvents, WireDecoder } from '@/lib/timeline/wire';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { openStore } from '@/server/timeline-db';
import { appRouter } from './root';
import { testContext } from './testing/context';
import type { WatchMessage } from './routers/cluster';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function setup() {
  const store = openStore({ path: ':memory:' });
  const engine = new Engine({
    store: engineStore(store),
    timings: DEFAULT_ENGINE_TIMINGS,
    dial: () => ({}) as RuntimeClient,
    log: () => undefined,
  });
  const server = createHTTPServer({
    router: appRouter,
    createContext: () => testContext({ engine }),
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.close();
    store.close();
  });
  const port = () => (server.address() as AddressInfo).port;
  const emit = (n: number) => {
    const batch: UnsequencedEvent[] = [];
    for (let i = 0; i < n; i++)
      batch.push({
        kind: 'cri',
        type: 'RelistFailed',
        source: 'relist',
        node: 'n',
        t: Date.now(),
        detail: { i },
      });
    engine.record(batch);
  };
  return { engine, store, port, emit };
}

interface Frame {
  id: string;
  data: WatchMessage;
}

/** Reads SSE frames until `stop` says so, then aborts the connection. */
async function readFrames(
  url: string,
  stop: (frames: Frame[]) => boolean,
  lastEventId?: string,
): Promise<Frame[]> {
  const ac = new AbortController();
  const res = await fetch(url, {
    signal: ac.signal,
    headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {},
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const frames: Frame[] = [];
  let buffer = '';
  const text = new TextDecoder();
  try {
    while (!stop(frames)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += text.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const raw = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: ?(.*)$/m.exec(raw)?.[1];
        const data = /^data: ?(.*)$/m.exec(raw)?.[1];
        if (id === undefined || data === undefined) continue;
        frames.push({ id, data: decode<WatchMessage>(data) });
        if (stop(frames)) break;
      }
    }
  } finally {
    ac.abort();
  }
  return frames;
}

const seqsOf = (frames: Frame[]) =>
  frames.flatMap((f) => (f.data.type === 'events' ? f.data.events.map((e) => e.seq) : []));

describe('cluster.watch over SSE', () => {
  it('starts with a snapshot, then streams events tracked by seq', async () => {
    const s = await setup();
    s.emit(3);
    const url = `http://127.0.0.1:${s.port()}/cluster.watch`;
    // Two more once the snapshot arrived (a timer raced the subscription on a busy machine).
    let emitted = false;
    const frames = await readFrames(url, (f) => {
      if (!emitted && f.length > 0) {
        emitted = true;
        s.emit(2);
      }
      return seqsOf(f).includes(5);
    });
    expect(frames[0]?.data.type).toBe('snapshot');
    expect(frames[0]?.id).toBe('3');
    expect(seqsOf(frames)).toEqual([4, 5]);
    expect(frames.at(-1)?.id).toBe('5');
  });

  it('resumes a dropped subscriber from Last-Event-ID with no gap and no duplicate', async () => {
    const s = await setup();
    s.emit(10);
    const url = `http://127.0.0.1:${s.port()}/cluster.watch`;
    const timer = setInterval(() => s.emit(3), 20);
    cleanups.push(() => clearInterval(timer));
    const first = await readFrames(url, (f) => seqsOf(f).length >= 9);
    const lastId = first.at(-1)?.id ?? '';
    // Events keep coming while the subscriber is away.
    await new Promise((r) => setTimeout(r, 150));
    const second = await readFrames(url, (f) => seqsOf(f).length >= 30, lastId);
    clearInterval(timer);
    expect(second[0]?.data.type).toBe('events');
    const all = [...seqsOf(first), ...seqsOf(second)];
    const start = all[0] ?? 0;
    expect(all).toEqual(all.map((_, i) => start + i));
  });

  it.each([1, 2] as const)(
    'streams the lean wire (version %i) to a reader that asks for it, coalesced, decoding to the recorded events',
    async (version) => {
      const s = await setup();
      s.emit(2);
      const url = `http://127.0.0.1:${s.port()}/cluster.watch?input=${encodeURIComponent(JSON.stringify({ wire: version }))}`;
      const decoder = new WireDecoder();
      const got: unknown[] = [];
      let wireFrames = 0;
      let emitted = false;
      const seen = (f: Frame[]) => {
        for (const fr of f.splice(0)) {
          if (fr.data.type === 'snapshot') decoder.seed(fr.data.state);
          else {
            expect(fr.data.type).toBe('wire');
            // A reader of before (wire: 1) gets the frames it can read.
            expect(fr.data.type === 'wire' && fr.data.v).toBe(version);
            wireFrames++;
            got.push(...batchEvents(decoder, fr.data));
          }
        }
      };
      await readFrames(url, (f) => {
        seen(f);
        if (!emitted) {
          emitted = true;
          // Three commits in a row: one SSE message.
          for (let i = 0; i < 3; i++) s.emit(2);
        }
        return got.length >= 6;
      });
      expect(got).toEqual(s.store.eventsAfter(2, 100));
      expect(wireFrames).toBe(1);
    },
  );

  it('answers a foreign or future id with a fresh snapshot', async () => {
    const s = await setup();
    s.emit(2);
    const frames = await readFrames(
      `http://127.0.0.1:${s.port()}/cluster.watch`,
      (f) => f.length >= 1,
      '999',
    );
    expect(frames[0]?.data.type).toBe('snapshot');
  });
});
