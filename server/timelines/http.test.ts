import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTimelineBytes, serializeTimelineFile } from '@/lib/timeline/file';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { ManualClock, tempDir } from '@/server/timeline-db/testing/testkit';
import { ImportGate } from './gate';
import { contentDisposition, handleExport, handleImport, readLimited } from './http';
import { TimelinesService } from './service';
import { savedInStore } from './storage';

const START = Date.UTC(2025, 0, 1);
let tmp: ReturnType<typeof tempDir>;
let store: TimelineStore;
let service: TimelinesService;
let id: string;

beforeEach(async () => {
  tmp = tempDir('podscope-http-');
  store = openStore({ path: tmp.dir, clock: new ManualClock(START + 3_600_000) });
  for (const b of new SyntheticWorkload({
    seed: 5,
    nodes: 1,
    podsPerNode: 2,
    startT: START,
    stepMs: 500,
    batchMin: 2,
    batchMax: 6,
  }).batches(200))
    store.append(b);
  service = new TimelinesService(savedInStore(store));
  id = (
    await service.save({ title: '节点 node-1 NotReady', from: START + 1_000, to: START + 20_000 })
  ).id;
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

const url = (q = '') => new URL(`http://127.0.0.1/api/timelines/${id}/export${q}`);
const upload = (body: BodyInit, type = 'application/json', headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/api/timelines/import', {
    method: 'POST',
    body,
    headers: { 'content-type': type, ...headers },
  });

describe('GET /api/timelines/<id>/export', () => {
  it('downloads the file as an attachment', async () => {
    const res = await handleExport(service, id, url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="__-node-1-NotReady-.{8}\.podscope\.json"; filename\*=UTF-8''%E8%8A%82/,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(parseTimelineBytes(bytes).title).toBe('节点 node-1 NotReady');
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  });

  it('gzips with ?gzip=1', async () => {
    const res = await handleExport(service, id, url('?gzip=1'));
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(/\.podscope\.json\.gz"/);
    const plain = gunzipSync(Buffer.from(await res.arrayBuffer()));
    expect(plain.toString()).toBe(serializeTimelineFile(await service.exportFile(id)));
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await handleExport(service, 'nope', url());
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { error: { message: string } };
    expect(body.error.message).toBe('no saved timeline with id "nope"');
    expect((await handleExport(service, '../x', url())).status).toBe(400);
  });

  it('quotes file names safely', () => {
    expect(contentDisposition('a"b\\c.json')).toBe(
      `attachment; filename="a_b_c.json"; filename*=UTF-8''a%22b%5Cc.json`,
    );
  });
});

describe('POST /api/timelines/import', () => {
  it('stores a JSON or gzip upload and answers 201 with the id', async () => {
    const json = serializeTimelineFile(await service.exportFile(id));
    const a = await handleImport(service, upload(json));
    expect(a.status).toBe(201);
    const { id: copy } = (await a.json()) as { id: string };
    expect((await service.get(copy)).events).toEqual((await service.get(id)).events);
    const b = await handleImport(service, upload(gzipSync(json), 'application/gzip'));
    expect(b.status).toBe(201);
  });

  it('answers 400 with located issues and stores nothing', async () => {
    const before = (await service.list()).length;
    const res = await handleImport(
      service,
      upload('{"format":"podscope.timeline","version":1,"title":"x",}'),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { code: string; issues: { line: number; column: number }[] };
    };
    expect(body.error.code).toBe('MALFORMED_JSON');
    expect(body.error.issues[0]).toMatchObject({ line: 1, column: 55, byte: 54 });
    expect((await service.list()).length).toBe(before);
  });

  it('refuses simple (cross-site sendable) content types with 415', async () => {
    const res = await handleImport(service, upload('{}', 'text/plain'));
    expect(res.status).toBe(415);
  });

  it('refuses bodies over the limit with 413, by header or by counting', async () => {
    const declared = await handleImport(
      service,
      upload('{}', 'application/json', { 'content-length': String(60 * 1024 * 1024) }),
    );
    expect(declared.status).toBe(413);
    const big = new Request('http://127.0.0.1/', { method: 'POST', body: new Uint8Array(2048) });
    expect(await readLimited(big, 1024)).toBeUndefined();
    const small = new Request('http://127.0.0.1/', { method: 'POST', body: new Uint8Array(100) });
    expect((await readLimited(small, 1024))?.length).toBe(100);
  });

  it('runs at most the gate’s number of imports at once; one more is refused with 429 at once', async () => {
    const json = serializeTimelineFile(await service.exportFile(id));
    const gate = new ImportGate(2);
    // Two uploads whose bodies have not finished arriving hold both slots.
    const pending: (() => void)[] = [];
    const slow = () =>
      new Request('http://127.0.0.1/api/timelines/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
        body: new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode(json.slice(0, 10)));
            pending.push(() => {
              c.enqueue(new TextEncoder().encode(json.slice(10)));
              c.close();
            });
          },
        }),
      } as RequestInit);
    const a = handleImport(service, slow(), gate);
    const b = handleImport(service, slow(), gate);
    expect(gate.active).toBe(2);
    const third = await handleImport(service, upload(json), gate);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(
      /PODSCOPE_IMPORT_CONCURRENCY/,
    );
    for (const finish of pending) finish();
    expect((await a).status).toBe(201);
    expect((await b).status).toBe(201);
    expect(gate.active).toBe(0);
    expect((await handleImport(service, upload(json), gate)).status).toBe(201);
  });

  it('names the one import limit, 50 MiB, when refusing', async () => {
    const res = await handleImport(
      service,
      upload('{}', 'application/json', { 'content-length': String(51 * 1024 * 1024) }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      '50 MiB (52428800 bytes)',
    );
  });
});
