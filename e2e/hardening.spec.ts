/**
 * Issue 17, against a running server (`next start`, token mode, one simulated node), as an
 * attacker would try it:
 * - a page on a name rebound to 127.0.0.1 gets nothing (Host check); another site's page cannot
 *   change anything (Origin); a disconnected node can be connected again;
 * - one request cannot cost the server a lot: tRPC batches are capped and streamed as JSON lines,
 *   timeline.range pages by bytes with a cursor;
 * - saved timelines have a quota with a clear error;
 * - an unknown timeline id is a 404 everywhere, and no answer names a local path;
 * - an import of up to 50 MiB arrives whole, a larger one is refused naming the limit;
 * - the session cookie is not the token; token guesses are rate limited; an endpoint is watched
 *   under one name only; tRPC answers are not cached; only JSON reaches a procedure.
 * (The bind address and the configuration file's token: hardening-bind.spec.ts.)
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeTimelineFile } from '@/lib/timeline/file';
import { sampleFile } from '@/lib/timeline/file/testing';
import { startConsoleServer, type ConsoleServer } from './support/console-server';
import { rawRequest, trpcGet } from './support/http';

const PORT = Number(process.env.E2E_HARDENING_PORT ?? 3110);
const HOST = `127.0.0.1:${PORT}`;
const TOKEN = `hardening-${'t0ken'.repeat(4)}-${process.pid}`;
const AUTH = { authorization: `Bearer ${TOKEN}` };
const RANGE_MAX_BYTES = 16 * 1024;

let server: ConsoleServer | undefined;
let dataDir = '';

// Not serial: each item reports on its own. The rate-limit test stays last (it blocks this client).
test.describe.configure({ mode: 'default' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-hardening-'));
  server = await startConsoleServer({
    name: 'hardening',
    port: PORT,
    dataDir,
    env: {
      PODSCOPE_SIM_NODES: '1',
      PODSCOPE_TOKEN: TOKEN,
      PODSCOPE_RANGE_MAX_BYTES: String(RANGE_MAX_BYTES),
      PODSCOPE_SAVED_MAX_COUNT: '3',
    },
    headers: AUTH,
    timeoutMs: 90_000,
  });
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  rawRequest({ port: PORT, path, headers: { host: HOST, ...AUTH, ...headers } });

const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  rawRequest({
    port: PORT,
    path,
    method: 'POST',
    body,
    headers: { host: HOST, 'content-type': 'application/json', ...AUTH, ...headers },
  });

const data = (r: { body: string }) =>
  (JSON.parse(r.body) as { result: { data: unknown } }).result.data;

test('3. DNS rebinding: a request for another host name is refused, on every route', async () => {
  for (const path of [trpcGet('nodes.list'), '/en', '/api/trpc/cluster.watch', '/metrics']) {
    const r = await get(path, { host: `rebound.attacker.example:${PORT}` });
    expect(r.status, path).toBe(421);
    expect(r.body).toContain('PODSCOPE_ALLOWED_HOSTS');
  }
  // The server's own names still work.
  for (const host of [HOST, `localhost:${PORT}`]) {
    expect((await get(trpcGet('nodes.list'), { host })).status, host).toBe(200);
  }
});

test("3. another site's page cannot change state (Origin), the console's own can", async () => {
  const save = JSON.stringify({ title: 'from elsewhere', from: 0, to: Date.now() });
  for (const origin of ['http://attacker.example', `http://127.0.0.1:${PORT + 1}`, 'null']) {
    const r = await post('/api/trpc/timelines.save', save, { origin });
    expect(r.status, origin).toBe(403);
  }
  const own = await post('/api/trpc/timelines.save', save, { origin: `http://${HOST}` });
  expect(own.status).toBe(200);
  await post(
    '/api/trpc/timelines.delete',
    JSON.stringify({ id: (data(own) as { id: string }).id }),
  );
});

test('3 and 9. a disconnected node can be connected again; an endpoint is watched under one name only', async () => {
  const nodes = data(await get(trpcGet('nodes.list'))) as { name: string; endpoint: string }[];
  const node = nodes[0];
  expect(node).toBeDefined();
  if (!node) return;
  const again = await post(
    '/api/trpc/nodes.connect',
    JSON.stringify({ name: 'second-name', endpoint: node.endpoint }),
  );
  expect(again.status).toBe(409);
  expect(again.body).toContain(`already watched as ${node.name}`);

  expect(
    (await post('/api/trpc/nodes.disconnect', JSON.stringify({ name: node.name }))).status,
  ).toBe(200);
  const back = await post(
    '/api/trpc/nodes.connect',
    JSON.stringify({ name: node.name, endpoint: node.endpoint }),
  );
  expect(back.status, back.body).toBe(200);
  const after = data(await get(trpcGet('nodes.list'))) as { name: string }[];
  expect(after.map((n) => n.name)).toEqual([node.name]);
});

test('4. a tRPC batch is capped', async () => {
  const n = 100;
  const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { limit: 50_000 }]));
  const path = `/api/trpc/${Array(n).fill('timeline.range').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
  const r = await get(path);
  expect(r.status).toBe(400);
  expect(r.body.length).toBeLessThan(10_000);
  expect(r.body).toContain('at most 16');
  // Within the cap, a batch works.
  const ok = await get(
    `/api/trpc/timeline.range,timeline.range?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { limit: 1 }, 1: { limit: 1 } }))}`,
  );
  expect(ok.status).toBe(200);
});

test('4. a batch is streamed: each answer is written as a JSON line when it is ready', async () => {
  const calls = 16;
  const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { limit: 50_000 }]));
  const r = await get(
    `/api/trpc/${Array(calls).fill('timeline.range').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
    { 'trpc-accept': 'application/jsonl' },
  );
  expect(r.status).toBe(200);
  expect(r.headers['transfer-encoding']).toBe('chunked');
  const lines = r.body.split('\n').filter((l) => l.trim() !== '');
  // The head line, then the answers: more than one line, each a JSON value of its own.
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  // Sixteen pages, each within the byte budget (plus JSON-lines framing).
  expect(r.body.length).toBeLessThan(calls * RANGE_MAX_BYTES * 2);
});

test('4. timeline.range answers at most its byte budget and a cursor to the rest', async () => {
  // Wait until the demo node has recorded more than one page.
  let total = 0;
  for (let i = 0; i < 60 && total <= RANGE_MAX_BYTES * 3; i++) {
    total = await rangeBytes();
    if (total <= RANGE_MAX_BYTES * 3) await new Promise((r) => setTimeout(r, 1000));
  }
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await get(
      trpcGet('timeline.range', { limit: 50_000, ...(cursor ? { cursor } : {}) }),
    );
    expect(r.status).toBe(200);
    expect(r.body.length).toBeLessThan(RANGE_MAX_BYTES * 2);
    const page = data(r) as { events: { seq: number }[]; nextCursor: string | null };
    seen.push(...page.events.map((e) => e.seq));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 1000);
  expect(pages).toBeGreaterThan(2);
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
});

async function rangeBytes(): Promise<number> {
  let bytes = 0;
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const r = await get(
      trpcGet('timeline.range', { limit: 50_000, ...(cursor ? { cursor } : {}) }),
    );
    bytes += r.body.length;
    const d = data(r) as { nextCursor?: string | null } | unknown[];
    cursor = Array.isArray(d) ? null : (d.nextCursor ?? null);
    if (!cursor) break;
  }
  return bytes;
}

test('5. saved timelines have a quota, and reaching it says so', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await post(
      '/api/trpc/timelines.save',
      JSON.stringify({ title: `quota ${i}`, from: Date.now() - 5_000, to: Date.now() }),
    );
    expect(r.status, r.body).toBe(200);
    ids.push((data(r) as { id: string }).id);
  }
  const over = await post(
    '/api/trpc/timelines.save',
    JSON.stringify({ title: 'one too many', from: Date.now() - 5_000, to: Date.now() }),
  );
  expect(over.status).toBe(412);
  expect(over.body).toContain('PODSCOPE_SAVED_MAX_COUNT');
  for (const id of ids) await post('/api/trpc/timelines.delete', JSON.stringify({ id }));
});

test('7. an unknown timeline id is a 404 everywhere, and no answer names a local path', async () => {
  const id = 'no-such-timeline-0000';
  const rs = [
    await get(trpcGet('timelines.get', { id })),
    await post('/api/trpc/timelines.annotate', JSON.stringify({ id, t: 1, text: 'x' })),
    await get(`/api/timelines/${id}/export`),
    await get(`/en/t/${id}`),
  ];
  for (const r of rs) {
    expect(r.status, r.body.slice(0, 200)).toBe(404);
    expect(r.body).not.toContain(dataDir);
    expect(r.body).not.toContain('timeline.db');
    // Nor the server's own directory (page text may quote paths from inside containers).
    expect(r.body).not.toContain(process.env.E2E_APP_DIR ?? process.cwd());
  }
});

test('8. an import of up to 50 MiB arrives whole; a larger one is refused naming the limit', async () => {
  const text = serializeTimelineFile(sampleFile({ cycles: 6000 }));
  expect(text.length).toBeGreaterThan(12 * 1024 * 1024);
  const ok = await post('/api/timelines/import', text);
  expect(ok.status, ok.body.slice(0, 300)).toBe(201);
  const { id } = JSON.parse(ok.body) as { id: string };
  await post('/api/trpc/timelines.delete', JSON.stringify({ id }));

  const big = new Uint8Array(50 * 1024 * 1024 + 1).fill(0x20);
  const refused = await post('/api/timelines/import', big);
  expect(refused.status).toBe(413);
  expect(refused.body).toContain('50 MiB');
});

test('9. the session cookie is derived, not the token; HttpOnly, SameSite=Strict, Secure over TLS', async () => {
  const r = await rawRequest({
    port: PORT,
    path: `/en?token=${encodeURIComponent(TOKEN)}`,
    headers: { host: HOST, 'x-forwarded-proto': 'https' },
  });
  expect(r.status).toBeGreaterThanOrEqual(300);
  const cookie = String(r.headers['set-cookie'] ?? '');
  expect(cookie).toMatch(/^podscope_session=v1\./);
  expect(cookie).not.toContain(TOKEN);
  expect(cookie).not.toContain(encodeURIComponent(TOKEN));
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toMatch(/;\s*Secure/i);
  const session = /^podscope_session=([^;]+)/.exec(cookie)?.[1] ?? '';
  const withSession = await rawRequest({
    port: PORT,
    path: trpcGet('nodes.list'),
    headers: { host: HOST, cookie: `podscope_session=${session}` },
  });
  expect(withSession.status).toBe(200);
  // The raw token in a cookie is not a session.
  for (const name of ['podscope_session', 'podscope_token']) {
    const raw = await rawRequest({
      port: PORT,
      path: trpcGet('nodes.list'),
      headers: { host: HOST, cookie: `${name}=${TOKEN}` },
    });
    expect(raw.status, name).toBe(401);
  }
});

test('9. tRPC answers are not cached; only JSON reaches a procedure', async () => {
  const r = await get(trpcGet('nodes.list'));
  expect(r.headers['cache-control']).toBe('no-store');
  const boundary = 'x-boundary';
  const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhi\r\n--${boundary}--\r\n`;
  for (const type of [
    `multipart/form-data; boundary=${boundary}`,
    'text/plain',
    'application/x-www-form-urlencoded',
  ]) {
    const refused = await post('/api/trpc/timelines.save', multipart, { 'content-type': type });
    expect(refused.status, type).toBe(415);
    expect(refused.headers['cache-control']).toBe('no-store');
  }
});

test('9. token guesses are rate limited (429 with Retry-After), and the right token then waits too', async () => {
  const statuses: number[] = [];
  let retryAfter = '';
  for (let i = 0; i < 40; i++) {
    // Each guess claims another client in X-Forwarded-For: the limit counts the TCP peer.
    const r = await rawRequest({
      port: PORT,
      path: trpcGet('nodes.list'),
      headers: {
        host: HOST,
        authorization: `Bearer wrong-guess-${i}`,
        'x-forwarded-for': `192.0.2.${i + 1}`,
      },
    });
    statuses.push(r.status);
    if (r.status === 429) retryAfter = String(r.headers['retry-after'] ?? '');
  }
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
  expect(Number(retryAfter)).toBeGreaterThan(0);
});
