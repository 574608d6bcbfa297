/**
 * overview.watch and overview.search on the embedded engine, over real HTTP SSE: the first
 * message is the overview (bounded by the node count, no pods), detail only for the nodes asked
 * for, a resume without gap or duplicate, a reader far behind gets a snapshot of its nodes, and
 * search answers with errors and pages rather than throwing or sending everything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pod } from '@/lib/overview/testing/fixtures';
import { decode } from '@/lib/timeline/codec';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import type { RuntimeClient } from '@/server/engine/relist/runtime-client';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { OverviewIndex } from '@/server/overview/index';
import { EVERYTHING, type Viewer } from '@/server/security/viewer';
import { openStore } from '@/server/timeline-db';
import { appRouter, createCaller } from './root';
import { DETAIL_BACKFILL_PAGES } from './routers/cluster';
import type { OverviewWatchMessage } from './routers/overview';
import { testContext } from './testing/context';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function setup(nodes: number, podsPerNode: number, viewer: Viewer = EVERYTHING) {
  const store = openStore({ path: ':memory:' });
  const engine = new Engine({
    store: engineStore(store),
    timings: DEFAULT_ENGINE_TIMINGS,
    dial: () => ({}) as RuntimeClient,
    log: () => undefined,
  });
  const w = new SyntheticWorkload({ seed: 7, nodes, podsPerNode });
  engine.record(w.startAll());
  const names = Object.keys(engine.snapshot().nodes);
  const server = createHTTPServer({
    router: appRouter,
    createContext: () => testContext({ engine, viewer }),
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    OverviewIndex.of(engine).stop();
    server.close();
    store.close();
  });
  const port = () => (server.address() as AddressInfo).port;
  /** `n` CRI events on `node` (they reach the detail of that node only). */
  const emit = (node: string, n: number) => {
    const batch: UnsequencedEvent[] = [];
    for (let i = 0; i < n; i++)
      batch.push({
        kind: 'cri',
        type: 'RelistFailed',
        source: 'relist',
        node,
        t: Date.now(),
        detail: { i },
      });
    engine.record(batch);
  };
  const caller = createCaller(testContext({ engine, viewer }));
  return { engine, store, port, emit, names, caller };
}

interface Frame {
  id: string;
  bytes: number;
  data: OverviewWatchMessage;
}

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
        frames.push({ id, bytes: data.length, data: decode<OverviewWatchMessage>(data) });
        if (stop(frames)) break;
      }
    }
  } finally {
    ac.abort();
  }
  return frames;
}

const watchUrl = (port: number, path: string, input: object) =>
  `http://127.0.0.1:${port}/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;

/** The detail events in the frames. */
const detailOf = (frames: Frame[]) =>
  frames.flatMap((f) => (f.data.type === 'events' ? f.data.events : []));

describe('overview.watch over SSE', () => {
  it('sends the overview first (no pods, bounded), then the detail of the nodes asked for only', async () => {
    const s = await setup(1_000, 3);
    const [a = '', b = '', c = ''] = s.names;
    let emitted = false;
    const frames = await readFrames(watchUrl(s.port(), 'overview.watch', { nodes: [a] }), (f) => {
      if (!emitted && f.length >= 2) {
        emitted = true;
        s.emit(b, 2);
        s.emit(a, 2);
        s.emit(c, 1);
      }
      return detailOf(f).length >= 2;
    });
    const [first, snapshot] = frames;
    expect(first?.id).toBe('0');
    if (first?.data.type !== 'overview') throw new Error('no overview first');
    expect(first.data.cells.names).toHaveLength(1_000);
    expect(first.data.aggregates.pods).toBe(3_000);
    expect(JSON.stringify(first.data.cells)).not.toMatch(/"uid"|containerStatuses/);
    // Tens of bytes per node (JSON, before compression), whatever the pods.
    expect(first.bytes).toBeLessThan(1_000 * 80);
    if (snapshot?.data.type !== 'snapshot') throw new Error('no detail snapshot');
    expect(Object.keys(snapshot.data.state.nodes)).toEqual([a]);
    expect(snapshot.id).toBe(String(snapshot.data.state.seq));
    expect(new Set(detailOf(frames).map((e) => e.node))).toEqual(new Set([a]));
  });

  it('resumes from Last-Event-ID: the overview again, then the detail with no gap and no duplicate', async () => {
    const s = await setup(20, 2);
    const [a = '', b = ''] = s.names;
    const url = watchUrl(s.port(), 'overview.watch', { nodes: [a] });
    const timer = setInterval(() => {
      s.emit(a, 2);
      s.emit(b, 1);
    }, 20);
    cleanups.push(() => clearInterval(timer));
    const first = await readFrames(url, (f) => detailOf(f).length >= 6);
    const lastId = first.at(-1)?.id ?? '';
    await new Promise((r) => setTimeout(r, 150));
    const second = await readFrames(url, (f) => detailOf(f).length >= 20, lastId);
    clearInterval(timer);
    expect(second[0]?.data.type).toBe('overview');
    expect(second.some((f) => f.data.type === 'snapshot')).toBe(false);
    const seqs = [...detailOf(first), ...detailOf(second)].map((e) => e.seq);
    const lo = seqs[0] ?? 0;
    const hi = seqs.at(-1) ?? 0;
    const recorded = s.store
      .eventsAfter(lo - 1, 100_000)
      .filter((e) => e.node === a && e.seq <= hi)
      .map((e) => e.seq);
    expect(seqs).toEqual(recorded);
  });

  it('a reader far behind gets a snapshot of its nodes, not the backlog', async () => {
    const s = await setup(5, 1);
    const [a = '', b = ''] = s.names;
    const url = watchUrl(s.port(), 'overview.watch', { nodes: [a] });
    const first = await readFrames(url, (f) => f.some((x) => x.data.type === 'snapshot'));
    const lastId = first.at(-1)?.id ?? '';
    for (let i = 0; i < DETAIL_BACKFILL_PAGES + 1; i++) s.emit(b, 2_000);
    s.emit(a, 1);
    const second = await readFrames(url, (f) => f.some((x) => x.data.type === 'snapshot'), lastId);
    expect(second.map((f) => f.data.type)).toEqual(['overview', 'snapshot']);
    const snap = second[1]?.data;
    expect(snap?.type === 'snapshot' && Object.keys(snap.state.nodes)).toEqual([a]);
  });

  it('a reader that asks for nodes it does not hold gets their snapshot', async () => {
    const s = await setup(5, 1);
    const [a = '', b = ''] = s.names;
    const first = await readFrames(watchUrl(s.port(), 'overview.watch', { nodes: [a] }), (f) =>
      f.some((x) => x.data.type === 'snapshot'),
    );
    const lastId = first.at(-1)?.id ?? '';
    const url = watchUrl(s.port(), 'overview.watch', { nodes: [a, b], held: [a] });
    const second = await readFrames(url, (f) => f.some((x) => x.data.type === 'snapshot'), lastId);
    const snap = second.find((f) => f.data.type === 'snapshot')?.data;
    expect(snap?.type === 'snapshot' && Object.keys(snap.state.nodes).sort()).toEqual(
      [a, b].sort(),
    );
  });

  it('sends deltas of the changed cells only', async () => {
    const s = await setup(50, 1);
    const a = s.names[3] ?? '';
    let changed = false;
    const frames = await readFrames(watchUrl(s.port(), 'overview.watch', {}), (f) => {
      if (!changed && f.length >= 1) {
        changed = true;
        s.engine.record([
          {
            kind: 'node',
            type: 'NodeConditionChanged',
            node: a,
            t: Date.now(),
            condition: { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' },
          },
        ]);
      }
      return f.some((x) => x.data.type === 'overview-delta');
    });
    const delta = frames.find((f) => f.data.type === 'overview-delta')?.data;
    if (delta?.type !== 'overview-delta') throw new Error('no delta');
    expect(delta.cells.index).toEqual([3]);
    expect(delta.cells.ready).toEqual(['Unknown']);
    expect(delta.aggregates?.nodesByReady.Unknown).toBe(1);
  });
});

describe('overview.search', () => {
  it('pages a query that matches every pod; a query that does not parse answers with its error', async () => {
    const s = await setup(100, 30);
    const all = await s.caller.overview.search({ q: '' });
    expect(all.total).toBe(3_000);
    expect(all.hits).toHaveLength(50);
    const page2 = await s.caller.overview.search({ q: '', cursor: all.next });
    expect(page2.hits[0]?.uid).not.toBe(all.hits[0]?.uid);
    const bad = await s.caller.overview.search({ q: 'ns:default colour:red' });
    expect(bad.error?.at).toBe(11);
    expect(bad.hits).toEqual([]);
    const huge = await s.caller.overview.search({ q: 'x'.repeat(5_000) });
    expect(huge.error?.message).toContain('longer');
    const members = await s.caller.overview.members({ changeId: 'gone' });
    expect(members.error?.message).toContain('no change group');
  });

  it('a viewer sees the namespaces they may read only', async () => {
    const s = await setup(10, 10);
    const [a = ''] = s.names;
    const secret = pod({ uid: 'secret-1', name: 'vault-0', namespace: 'secret', node: a });
    s.engine.record([
      { kind: 'pod', type: 'PodAdded', node: a, podUid: secret.uid, pod: secret, t: Date.now() },
    ]);
    const viewer: Viewer = {
      ...EVERYTHING,
      name: 'alice',
      seesAll: () => Promise.resolve(false),
      readable: () => Promise.resolve((ns) => ns === 'default'),
    };
    const alice = createCaller(testContext({ engine: s.engine, viewer }));
    expect((await s.caller.overview.search({ q: 'vault' })).total).toBe(1);
    expect((await alice.overview.search({ q: 'vault' })).total).toBe(0);
    expect((await alice.overview.search({ q: '' })).total).toBe(100);
  });
});

describe('cluster.watch with nodes', () => {
  it('streams the detail of those nodes only', async () => {
    const s = await setup(5, 1);
    const [a = '', b = ''] = s.names;
    let emitted = false;
    const frames = await readFrames(watchUrl(s.port(), 'cluster.watch', { nodes: [b] }), (f) => {
      if (!emitted && f.length >= 1) {
        emitted = true;
        s.emit(a, 1);
        s.emit(b, 1);
      }
      return detailOf(f).length >= 1;
    });
    const snap = frames[0]?.data;
    expect(snap?.type === 'snapshot' && Object.keys(snap.state.nodes)).toEqual([b]);
    expect(detailOf(frames).map((e) => e.node)).toEqual([b]);
  });
});
