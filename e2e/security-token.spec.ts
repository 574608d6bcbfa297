/**
 * Access control against a running server. The suite's own server (playwright.config.ts) binds to
 * 127.0.0.1 without a token; this spec starts a second one — the same build, `next start` on
 * another loopback port — with PODSCOPE_TOKEN set, and checks:
 * - every route refuses a request without the token with a clear 401: pages, tRPC queries, the
 *   SSE stream, /metrics — but /api/healthz, for the probes, which then says only ok or not;
 * - the token is accepted as `Authorization: Bearer`, and once as `?token=`, which redirects to
 *   the same URL without it and sets an HttpOnly session cookie (a derived id, not the token);
 * - a wrong token of any length is refused the same way;
 * - security headers and a nonce-based Content-Security-Policy on every answer;
 * - the token appears nowhere in the server's output;
 * - the default server listens on loopback only.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startConsoleServer, type ConsoleServer } from './support/console-server';
import { rawRequest } from './support/http';

const PORT = Number(process.env.E2E_TOKEN_PORT ?? 3108);
const BASE = `http://127.0.0.1:${PORT}`;
const TOKEN = `e2e-${'s3cret'.repeat(4)}-${process.pid}`;
const ROUTES = [
  '/en',
  '/en/import',
  '/api/trpc/cluster.snapshot',
  '/api/trpc/nodes.list',
  '/api/trpc/cluster.watch',
  '/metrics',
];

let server: ConsoleServer | undefined;
let dataDir = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-token-'));
  server = await startConsoleServer({
    name: 'token',
    port: PORT,
    dataDir,
    env: { PODSCOPE_SIM_NODES: '1', PODSCOPE_TOKEN: TOKEN },
    headers: { authorization: `Bearer ${TOKEN}` },
    timeoutMs: 90_000,
  });
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** fetch without following redirects (the page would otherwise land on a refusal or a redirect chain). */
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${BASE}${path}`, { headers, redirect: 'manual' });

test('every route refuses a request without the token, with a clear 401', async () => {
  for (const path of ROUTES) {
    const res = await get(path);
    expect(res.status, path).toBe(401);
    expect(res.headers.get('www-authenticate'), path).toBe('Bearer realm="podscope"');
    expect(await res.text(), path).toContain('this server requires an access token');
    expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
  }
});

test('/api/healthz answers a probe without the token, saying only ok or not', async () => {
  const res = await get('/api/healthz');
  expect([200, 503]).toContain(res.status);
  expect(Object.keys((await res.json()) as object)).toEqual(['ok']);
  const signedIn = await get('/api/healthz', { authorization: `Bearer ${TOKEN}` });
  expect(Object.keys((await signedIn.json()) as object)).toContain('nodes');
  // A wrong token is still a refusal, here too.
  expect((await get('/api/healthz', { authorization: 'Bearer wrong-token-1234567' })).status).toBe(
    401,
  );
});

test('a wrong token of any length is refused like no token', async () => {
  // Twenty failures from one address would meet the sign-in rate limit (hardening.spec.ts), which
  // counts the TCP peer: each request comes from its own loopback address here (127.0.0.2 …), so
  // every one is checked and refused with 401.
  let client = 1;
  const from = async (path: string, headers: Record<string, string>) =>
    (await rawRequest({ port: PORT, path, headers, localAddress: `127.0.0.${++client}` })).status;
  for (const wrong of [
    'x',
    TOKEN.slice(0, -1),
    `${TOKEN}x`,
    TOKEN.toUpperCase(),
    ' '.repeat(TOKEN.length),
  ]) {
    for (const path of ['/api/trpc/cluster.snapshot', '/metrics']) {
      expect(await from(path, { authorization: `Bearer ${wrong}` })).toBe(401);
      expect(await from(path, { cookie: `podscope_session=${encodeURIComponent(wrong)}` })).toBe(
        401,
      );
    }
  }
});

test('the token opens every route: as a bearer header, as the session it is traded for', async () => {
  const signIn = await get(`/en?token=${encodeURIComponent(TOKEN)}`);
  const session = /^podscope_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
  expect(session).toBeDefined();
  const ways: Record<string, string>[] = [
    { authorization: `Bearer ${TOKEN}` },
    { cookie: `podscope_session=${session ?? ''}` },
  ];
  for (const auth of ways) {
    for (const path of [
      '/en',
      '/api/trpc/cluster.snapshot',
      '/api/trpc/nodes.list',
      '/metrics',
      '/api/healthz',
    ]) {
      const res = await get(path, auth);
      expect([200, 503], `${path} ${Object.keys(auth)[0] ?? ''}`).toContain(res.status);
      await res.body?.cancel();
    }
    // The SSE stream: it answers as an event stream and carries the first snapshot.
    const ac = new AbortController();
    const sse = await fetch(`${BASE}/api/trpc/cluster.watch`, { headers: auth, signal: ac.signal });
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toContain('text/event-stream');
    const reader = (sse.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('"snapshot"'))
      text += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
  }
});

test('?token= once: redirects to the same URL without it and sets an HttpOnly, SameSite=Strict cookie', async ({
  page,
}) => {
  const res = await get(`/en?sel=x&token=${encodeURIComponent(TOKEN)}`);
  expect(res.status).toBeGreaterThanOrEqual(300);
  expect(res.status).toBeLessThan(400);
  const location = res.headers.get('location') ?? '';
  expect(location).not.toContain(TOKEN);
  expect(new URL(location, BASE).pathname).toBe('/en');
  expect(new URL(location, BASE).searchParams.get('sel')).toBe('x');
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/^podscope_session=/);
  expect(cookie).not.toContain(TOKEN);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);

  // In a browser: the link with the token opens the console, and the address bar no longer has it.
  await page.goto(`${BASE}/en?token=${encodeURIComponent(TOKEN)}`);
  await expect(page).toHaveURL(`${BASE}/en`);
  await expect(page.locator('[data-layer="node"]').first()).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => document.cookie)).not.toContain('podscope_session'); // HttpOnly
});

test('security headers and a nonce-based CSP on pages; headers on API answers', async () => {
  const page = await get('/en', { authorization: `Bearer ${TOKEN}` });
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
  const html = await page.text();
  // Every script the page carries has the nonce.
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  // A new nonce per response.
  const again = (await get('/en', { authorization: `Bearer ${TOKEN}` })).headers.get(
    'content-security-policy',
  );
  expect(again).not.toBe(csp);
  for (const path of ['/en', '/api/trpc/cluster.snapshot', '/metrics']) {
    const res = await get(path, { authorization: `Bearer ${TOKEN}` });
    expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    expect(res.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
    await res.body?.cancel();
  }
});

test('the token never appears in what the server prints', () => {
  const output = server?.output() ?? '';
  expect(output.length).toBeGreaterThan(0);
  expect(output).not.toContain(TOKEN);
});

test('the default server listens on loopback only', async ({ baseURL }) => {
  const port = new URL(baseURL ?? 'http://127.0.0.1:3107').port;
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal);
  test.skip(!external, 'this machine has no non-loopback IPv4 address to try');
  const answered = await fetch(`http://${external?.address ?? ''}:${port}/api/healthz`, {
    signal: AbortSignal.timeout(5_000),
  }).then(
    () => true,
    () => false,
  );
  expect(answered).toBe(false);
  expect((await fetch(`http://127.0.0.1:${port}/api/healthz`)).status).toBeLessThan(600);
});
