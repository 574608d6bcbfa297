/**
 * Sign-in with the cluster's own identities (issue 14), against a running server (`next start`
 * with PODSCOPE_AUTH=kubernetes, one simulated node running the demo workload in the `shop` and
 * `kube-system` namespaces) and the fake API server (test/fake-apiserver), which answers the
 * console's TokenReviews and SubjectAccessReviews from the users and grants this spec gives it:
 * - alice (group ops): `get pods` everywhere and `update consoles.podscope.io`;
 * - bob (group shop-devs): `get pods` in `shop` only — sees shop in the snapshot, the live
 *   stream, timeline ranges, seeks, saved timelines and their exports, and may change nothing;
 * - mallory: a token the API server accepts, no RBAC — refused at sign-in and on every read;
 * - a token the API server does not know, an API server that cannot answer (a clear 503, the
 *   server carries on), a session cookie that holds no token, a forged proxy header.
 * Plain HTTP requests as a browser or a script would send them (e2e/support/http.ts).
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeApiServer } from '../test/fake-apiserver';
import { startConsoleServer, type ConsoleServer } from './support/console-server';
import { rawRequest, trpcGet, type RawResponse } from './support/http';

const PORT = Number(process.env.E2E_SIGNIN_PORT ?? 3121);
const HOST = `127.0.0.1:${PORT}`;
const ORIGIN = `http://${HOST}`;
const TOKENS = {
  alice: `alice-token-${process.pid}`,
  bob: `bob-token-${process.pid}`,
  mallory: `mallory-token-${process.pid}`,
  prometheus: `prometheus-token-${process.pid}`,
};
const bearer = (who: keyof typeof TOKENS) => ({ authorization: `Bearer ${TOKENS[who]}` });

let api: FakeApiServer;
let server: ConsoleServer | undefined;
const temps: string[] = [];

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  api = await new FakeApiServer().start();
  api.addUser(TOKENS.alice, { username: 'alice', uid: 'u-alice', groups: ['ops'] });
  api.addUser(TOKENS.bob, { username: 'bob', groups: ['shop-devs'] });
  api.addUser(TOKENS.mallory, { username: 'mallory', groups: [] });
  api.addUser(TOKENS.prometheus, {
    username: 'system:serviceaccount:monitoring:prometheus',
    groups: ['system:serviceaccounts'],
  });
  api.grant('system:serviceaccount:monitoring:prometheus', {
    verbs: ['get'],
    resources: [],
    nonResourceURLs: ['/metrics'],
  });
  api.grant('group:ops', { verbs: ['get', 'list', 'watch'], resources: ['pods'] });
  api.grant('group:ops', { verbs: ['update'], resources: ['consoles'], group: 'podscope.io' });
  api.grant('group:shop-devs', { verbs: ['get'], resources: ['pods'], namespace: 'shop' });
  const kubeDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-signin-kube-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-signin-'));
  temps.push(kubeDir, dataDir);
  const kubeconfig = join(kubeDir, 'config');
  writeFileSync(kubeconfig, JSON.stringify(api.kubeconfig()), { mode: 0o600 });
  server = await startConsoleServer({
    name: 'signin',
    port: PORT,
    dataDir,
    env: {
      PODSCOPE_SIM_NODES: '1',
      PODSCOPE_AUTH: 'kubernetes',
      PODSCOPE_KUBECONFIG: kubeconfig,
      PODSCOPE_SESSION_SECRET: `signin-spec-secret-${'x'.repeat(32)}`,
      // The OAuth2 proxy: a loopback address the spec's own requests do not come from.
      PODSCOPE_AUTH_TRUSTED_PROXIES: '127.0.0.2',
    },
    timeoutMs: 180_000,
  });
  // The demo puts pods in both namespaces; wait until alice sees them.
  await expect
    .poll(
      async () => namespacesIn((await get(trpcGet('cluster.snapshot'), bearer('alice'))).body),
      {
        timeout: 120_000,
      },
    )
    .toEqual(expect.arrayContaining(['kube-system', 'shop']));
});

test.afterAll(async () => {
  await server?.stop();
  await api?.stop();
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}, localAddress?: string) =>
  rawRequest({
    port: PORT,
    path,
    headers: { host: HOST, ...headers },
    ...(localAddress ? { localAddress } : {}),
  });

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  rawRequest({
    port: PORT,
    path,
    method: 'POST',
    body,
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', ...headers },
  });

const signIn = (token: string, next = '/en') =>
  rawRequest({
    port: PORT,
    path: '/api/signin',
    method: 'POST',
    body: new URLSearchParams({ token, next }).toString(),
    headers: {
      host: HOST,
      origin: ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
    },
  });

const data = <T>(r: RawResponse) => (JSON.parse(r.body) as { result: { data: T } }).result.data;

/** The namespaces of every pod (and pod Event) an answer mentions, sorted. */
function namespacesIn(body: string): string[] {
  return [...new Set([...body.matchAll(/"namespace":"([^"]+)"/g)].map((m) => m[1] ?? ''))].sort();
}

function cookieOf(r: RawResponse): string {
  const set = r.headers['set-cookie'];
  const line = (Array.isArray(set) ? set : [set ?? '']).find((c) =>
    c.startsWith('podscope_session='),
  );
  expect(line, 'a session cookie').toBeTruthy();
  return line ?? '';
}

/** The first messages of cluster.watch as an SSE reader gets them, until `enough` says so. */
async function watch(headers: Record<string, string>, enough: (text: string) => boolean) {
  const ac = new AbortController();
  const res = await fetch(`http://${HOST}/api/trpc/cluster.watch`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: ac.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 60_000;
  while (!enough(text) && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  ac.abort();
  return text;
}

test('the probes: /api/healthz answers without a token and says only ok or not', async () => {
  const r = await get('/api/healthz');
  expect([200, 503]).toContain(r.status);
  expect(Object.keys(JSON.parse(r.body) as object)).toEqual(['ok']);
  // Signed in, the same route says more.
  const full = JSON.parse((await get('/api/healthz', bearer('alice'))).body) as object;
  expect(Object.keys(full)).toContain('nodes');
});

test('not signed in: a page is the sign-in form, data is 401, a guessed token is 401', async () => {
  const page = await get('/en', { accept: 'text/html' });
  expect(page.status).toBe(401);
  expect(page.headers['content-type']).toContain('text/html');
  expect(page.body).toContain('action="/api/signin"');
  expect(page.body).not.toContain('<script');
  for (const path of [trpcGet('cluster.snapshot'), trpcGet('nodes.list'), '/metrics']) {
    expect((await get(path)).status, path).toBe(401);
    expect((await get(path, { authorization: 'Bearer not-a-token' })).status, path).toBe(401);
  }
});

test('allowed: alice sees every namespace and may change the console', async () => {
  const snap = await get(trpcGet('cluster.snapshot'), bearer('alice'));
  expect(namespacesIn(snap.body)).toEqual(expect.arrayContaining(['kube-system', 'shop']));
  expect((await get(trpcGet('nodes.list'), bearer('alice'))).status).toBe(200);
  const save = await post(
    '/api/trpc/timelines.save',
    JSON.stringify({ title: 'alice saved', from: 0, to: Date.now() }),
    bearer('alice'),
  );
  expect(save.status).toBe(200);
  const { id } = data<{ id: string }>(save);
  const file = await get(`/api/timelines/${id}/export`, bearer('alice'));
  expect(file.status).toBe(200);
  expect(namespacesIn(file.body)).toEqual(expect.arrayContaining(['kube-system', 'shop']));
});

test('sign-in: the session cookie names the user, holds no token, HttpOnly, SameSite=Strict', async () => {
  const r = await signIn(TOKENS.bob, '/en?at=1');
  expect(r.status).toBe(303);
  expect(r.headers.location).toBe('/en?at=1');
  const cookie = cookieOf(r);
  expect(cookie).toMatch(/; HttpOnly/);
  expect(cookie).toMatch(/; SameSite=Strict/);
  expect(cookie).not.toMatch(/; Secure/); // plain HTTP here; over TLS it is Secure
  const value = cookie.split(';')[0]!.slice('podscope_session='.length);
  expect(value).not.toContain(TOKENS.bob);
  expect(Buffer.from(value.split('.')[2] ?? '', 'base64url').toString()).not.toContain(TOKENS.bob);
  // It works as a session, not as a bearer token.
  const session = { cookie: `podscope_session=${value}` };
  expect((await get('/en', { ...session, accept: 'text/html' })).status).toBe(200);
  expect((await get(trpcGet('nodes.list'), { authorization: `Bearer ${value}` })).status).toBe(401);
  // A cookie made up or tampered with is nobody.
  expect((await get(trpcGet('nodes.list'), { cookie: `podscope_session=${value}x` })).status).toBe(
    401,
  );
  // An open redirect is not possible.
  expect((await signIn(TOKENS.bob, '//attacker.example/')).headers.location).toBe('/');
});

test('namespace-limited: bob sees only shop — snapshot, watch, range, seek, saved timeline, export — and changes nothing', async () => {
  const cookie = cookieOf(await signIn(TOKENS.bob));
  const bob = { cookie: cookie.split(';')[0]! };
  for (const headers of [bob, bearer('bob')]) {
    const snap = await get(trpcGet('cluster.snapshot'), headers);
    expect(snap.status).toBe(200);
    expect(namespacesIn(snap.body)).toEqual(['shop']);
  }
  // The live stream: its snapshot and the batches after it.
  const stream = await watch(bob, (t) => (t.match(/\ndata: /g) ?? []).length >= 3);
  expect(stream).toContain('"snapshot"');
  expect(namespacesIn(stream)).toEqual(['shop']);
  expect(stream).not.toContain('kube-system');
  // Ranges and seeks: alice sees kube-system events, bob never.
  const range = (h: Record<string, string>) =>
    get(trpcGet('timeline.range', { from: 0, to: Date.now(), limit: 50_000 }), h);
  const all = await range(bearer('alice'));
  const mine = await range(bob);
  expect(all.body).toContain('kube-system');
  expect(mine.status).toBe(200);
  expect(mine.body).not.toContain('kube-system');
  const alicePods = new Set(
    data<{ events: { podUid?: string }[] }>(all).events.flatMap((e) =>
      e.podUid ? [e.podUid] : [],
    ),
  );
  const bobPods = new Set(
    data<{ events: { podUid?: string }[] }>(mine).events.flatMap((e) =>
      e.podUid ? [e.podUid] : [],
    ),
  );
  expect(bobPods.size).toBeGreaterThan(0);
  expect(bobPods.size).toBeLessThan(alicePods.size);
  const seek = await get(trpcGet('timeline.stateAt', { t: Date.now() }), bob);
  expect(namespacesIn(seek.body)).toEqual(['shop']);
  // Saved timelines (the /t/<id> page reads timelines.get) and their files.
  const saved = await post(
    '/api/trpc/timelines.save',
    JSON.stringify({ title: 'for bob', from: 0, to: Date.now() }),
    bearer('alice'),
  );
  const { id } = data<{ id: string }>(saved);
  const shared = await get(trpcGet('timelines.get', { id }), bob);
  expect(namespacesIn(shared.body)).toEqual(['shop']);
  for (const q of ['', '?gzip=0']) {
    const file = await get(`/api/timelines/${id}/export${q}`, bob);
    expect(file.status).toBe(200);
    expect(namespacesIn(file.body)).toEqual(['shop']);
  }
  expect((await get(`/t/${id}`, { ...bob, accept: 'text/html' })).status).not.toBe(401);
  // Changing the console needs `update consoles.podscope.io`.
  const refused = await post(
    '/api/trpc/timelines.save',
    JSON.stringify({ title: 'bob tries', from: 0, to: Date.now() }),
    bob,
  );
  expect(refused.status).toBe(403);
  expect(refused.body).toContain('consoles.podscope.io');
  const upload = await rawRequest({
    port: PORT,
    path: '/api/timelines/import',
    method: 'POST',
    body: '{}',
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', ...bob },
  });
  expect(upload.status).toBe(403);
});

test('denied: mallory is who the API server says, with no RBAC — refused at sign-in and on every read', async () => {
  const r = await signIn(TOKENS.mallory);
  expect(r.status).toBe(403);
  expect(r.body).toContain('mallory');
  expect(r.body).toContain('get pods');
  expect(r.headers['set-cookie']).toBeUndefined();
  for (const path of [
    trpcGet('cluster.snapshot'),
    trpcGet('nodes.list'),
    trpcGet('timeline.range', {}),
  ]) {
    const res = await get(path, bearer('mallory'));
    expect(res.status, path).toBe(403);
    expect(res.body).not.toContain('shop');
  }
  expect((await signIn('a-token-nobody-issued')).status).toBe(401);
});

test('/metrics: only for an identity granted get on the non-resource URL /metrics', async () => {
  const scraped = await get('/metrics', bearer('prometheus'));
  expect(scraped.status).toBe(200);
  expect(scraped.body).toContain('podscope_');
  const alice = await get('/metrics', bearer('alice'));
  expect(alice.status).toBe(403);
  expect(alice.body).toContain('/metrics');
});

test('untrusted proxy: forwarded identity headers are ignored unless they come from the trusted proxy', async () => {
  const forged = {
    'x-forwarded-user': 'alice',
    'x-forwarded-groups': 'ops',
    // Headers only the server itself may set, made up by the client:
    'x-podscope-peer': '127.0.0.2',
    'x-podscope-identity': Buffer.from(
      JSON.stringify({
        kind: 'user',
        via: 'proxy',
        user: { username: 'alice', groups: ['ops'], via: 'proxy' },
      }),
    ).toString('base64url'),
  };
  const fromClient = await get(trpcGet('cluster.snapshot'), forged);
  expect(fromClient.status).toBe(401);
  expect(fromClient.body).not.toContain('shop');
  // The same headers from the trusted proxy's address are believed; RBAC then decides.
  const viaProxy = await get(
    trpcGet('cluster.snapshot'),
    { 'x-forwarded-user': 'bob', 'x-forwarded-groups': 'shop-devs' },
    '127.0.0.2',
  );
  expect(viaProxy.status).toBe(200);
  expect(namespacesIn(viaProxy.body)).toEqual(['shop']);
});

test('API server down: a clear 503 naming the review, no sign-in, and the console carries on', async () => {
  api.addUser('fresh-token-1', { username: 'dave', groups: ['ops'] });
  api.failReviews = true;
  try {
    const r = await get(trpcGet('nodes.list'), { authorization: 'Bearer fresh-token-1' });
    expect(r.status).toBe(503);
    expect(r.body).toContain('TokenReview');
    const form = await signIn('fresh-token-1');
    expect(form.status).toBe(503);
    expect(form.headers['set-cookie']).toBeUndefined();
    // A session whose answers are not cached cannot be judged either: 503, never a grant.
    const carol = { username: 'carol', groups: ['ops'] };
    const viaProxy = await get(
      trpcGet('cluster.snapshot'),
      { 'x-forwarded-user': carol.username, 'x-forwarded-groups': 'ops' },
      '127.0.0.2',
    );
    expect(viaProxy.status).toBe(503);
    expect(viaProxy.body).toContain('SubjectAccessReview');
  } finally {
    api.failReviews = false;
  }
  expect([200, 503]).toContain((await get('/api/healthz')).status);
  expect(
    (await get(trpcGet('cluster.snapshot'), { authorization: 'Bearer fresh-token-1' })).status,
  ).toBe(200);
  expect(server?.output() ?? '').not.toMatch(/uncaught|unhandled/i);
});
