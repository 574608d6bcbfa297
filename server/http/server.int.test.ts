/**
 * Podscope's HTTP server over the real build (`.next` of this checkout; skipped without one —
 * `npx next build` makes it): Next prepares, instrumentation.ts brings the runtime up (one
 * simulated node), and requests come in over real loopback sockets from chosen addresses.
 * - Nothing global is patched by the start, by serving, or by the codec's encode.
 * - Each request carries its own TCP peer: failed sign-ins are counted per peer, and a peer
 *   header a client writes itself is dropped.
 */
import { existsSync } from 'node:fs';
import { request, Server, IncomingMessage } from 'node:http';
import { Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from '@/lib/timeline/codec';
import { tempDirForSuite } from '@/test/tmp';
import type { HttpServer } from './server';

const ROOT = join(import.meta.dirname, '..', '..');
const built = existsSync(join(ROOT, '.next', 'BUILD_ID'));
const TOKEN = `http-spec-${'t0ken'.repeat(6)}`;

/** What a patch would replace: the members of the prototypes and globals the server touches. */
function snapshot(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const record = (name: string, target: object) => {
    for (const key of Reflect.ownKeys(target)) {
      const d = Object.getOwnPropertyDescriptor(target, key);
      // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
      out.set(`${name}.${String(key)}`, d && ('value' in d ? d.value : d.get));
    }
  };
  record('Server.prototype', Server.prototype);
  record('net.Server.prototype', NetServer.prototype);
  record('EventEmitter.prototype', Object.getPrototypeOf(NetServer.prototype) as object);
  record('IncomingMessage.prototype', IncomingMessage.prototype);
  record('Date.prototype', Date.prototype);
  record('JSON', JSON);
  // Inherited members as they resolve (a patch may add an own one that shadows them).
  // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
  out.set('Server.prototype.emit', Server.prototype.emit);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
  out.set('IncomingMessage.prototype.emit', IncomingMessage.prototype.emit);
  // Existing globals keep their values (new ones — the runtime's own slots — are not patches).
  // Node defines some lazily (TextEncoderStream, …): what a read gives is what counts.
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    try {
      out.set(`globalThis.${key}`, Reflect.get(globalThis, key));
    } catch {
      // a getter that throws on its own: nothing to compare
    }
  }
  return out;
}

/**
 * What Next replaces itself, as under `next start` (next/dist/server/node-environment-extensions:
 * Date and the immediates, watched for prerendering; fetch, wrapped for its cache): Next's, not
 * Podscope's.
 */
const NEXT_OWN = new Set([
  'globalThis.Date',
  'Date.prototype.constructor',
  'globalThis.setImmediate',
  'globalThis.clearImmediate',
  'globalThis.fetch',
]);

/** Members replaced, and members added anywhere but on globalThis (the runtime's own slots). */
function changed(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const replaced = [...before]
    .filter(([k, v]) => !NEXT_OWN.has(k) && after.has(k) && !Object.is(after.get(k), v))
    .map(([k]) => k);
  const added = [...after.keys()].filter((k) => !before.has(k) && !k.startsWith('globalThis.'));
  return [...replaced, ...added];
}

/** A GET from `localAddress` (a loopback address of this machine) with exactly these headers. */
function get(
  port: number,
  path: string,
  headers: Record<string, string>,
  localAddress: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!built)('Podscope HTTP server (the real build)', () => {
  const dataDir = tempDirForSuite('podscope-http-');
  const env = process.env as Record<string, string | undefined>;
  const saved = { ...env };
  let before: Map<string, unknown>;
  let http: HttpServer;

  beforeAll(async () => {
    Object.assign(env, {
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PODSCOPE_DATA_DIR: dataDir,
      PODSCOPE_SIM_NODES: '1',
      PODSCOPE_TOKEN: TOKEN,
    });
    before = snapshot();
    const { startHttpServer } = await import('./server');
    http = await startHttpServer({ dir: ROOT, hostname: '127.0.0.1', port: 0 });
  }, 180_000);

  afterAll(async () => {
    await http?.close();
    const slot = (globalThis as { [k: symbol]: Promise<{ stop(): Promise<void> }> | undefined })[
      Symbol.for('podscope.runtime')
    ];
    await (await slot)?.stop();
    for (const key of Object.keys(env)) if (!(key in saved)) delete env[key];
    Object.assign(env, saved);
  }, 60_000);

  it('patches no global or prototype: starting, serving, encoding', async () => {
    expect(await get(http.port, '/api/healthz', {}, '127.0.0.1')).toBeGreaterThanOrEqual(200);
    expect(encode({ startedAt: new Date(Date.UTC(2026, 0, 1)) })).toBe(
      '{"startedAt":"2026-01-01T00:00:00Z"}',
    );
    const after = snapshot();
    expect(changed(before, after)).toEqual([]);
    expect(globalThis.TextEncoderStream).toBe(before.get('globalThis.TextEncoderStream'));
    // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
    expect(Server.prototype.emit).toBe(before.get('Server.prototype.emit'));
    // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
    expect(Date.prototype.toJSON).toBe(before.get('Date.prototype.toJSON'));
  });

  it('counts failed sign-ins per TCP peer, and a peer header a client writes is dropped', async () => {
    const wrong = { authorization: 'Bearer not-the-token-at-all-0000' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(await get(http.port, '/api/trpc/nodes.list', wrong, '127.0.0.2'));
    // Ten failures a peer, then it waits.
    expect(statuses.slice(0, 10)).toEqual(Array<number>(10).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Another peer has its own count…
    expect(await get(http.port, '/api/trpc/nodes.list', wrong, '127.0.0.3')).toBe(401);
    // …and naming the blocked one in the peer header changes nothing: the socket decides.
    const forged = { ...wrong, 'x-podscope-peer': '127.0.0.2' };
    expect(await get(http.port, '/api/trpc/nodes.list', forged, '127.0.0.4')).toBe(401);
    // The blocked peer stays blocked whatever it claims to be.
    const claim = { ...wrong, 'x-podscope-peer': '127.0.0.5' };
    expect(await get(http.port, '/api/trpc/nodes.list', claim, '127.0.0.2')).toBe(429);
    const right = { authorization: `Bearer ${TOKEN}` };
    expect(await get(http.port, '/api/trpc/nodes.list', right, '127.0.0.6')).toBe(200);
  });
});
