/**
 * CriClient against endpoints that misbehave, over real sockets: nothing there, a listener that
 * speaks garbage, one that never answers, a gRPC server that hangs, returns garbage or a 20 MiB
 * answer. Each must end in a clear CriError within the deadline — no crash, no leaked channel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '@/server/sim/clock/clock';
import { RawListener } from '@/server/sim/listener';
import { startSimNode } from '@/server/sim/node';
import type { SimNode } from '@/server/sim/node';
import { CriClient, decodeListPodSandbox } from './client';
import { CriError } from './errors';

let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'podscope-cri-int-'));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function client(endpoint: string, timeoutMs: number): CriClient {
  const c = new CriClient(endpoint, { timeoutMs });
  cleanups.push(() => c.close());
  return c;
}

async function sim(
  name: string,
  extra: Partial<Parameters<typeof startSimNode>[0]> = {},
): Promise<SimNode> {
  const node = await startSimNode({
    name,
    socketPath: join(dir, `${name}.sock`),
    clock: createClock({ mode: 'manual' }),
    ...extra,
  });
  cleanups.push(() => node.stop());
  return node;
}

/** Runs `call`, expecting a CriError; returns it with the time it took. */
async function failure(call: Promise<unknown>): Promise<{ err: CriError; ms: number }> {
  const t0 = performance.now();
  const outcome = await call.then(
    (value: unknown) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  const ms = performance.now() - t0;
  if (outcome.ok) throw new Error(`expected a CriError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.err).toBeInstanceOf(CriError);
  return { err: outcome.err as CriError, ms };
}

/** Open sockets of this process (unix: PipeWrap, tcp: TCPSocketWrap/TCPWrap). */
const openSockets = () =>
  process.getActiveResourcesInfo().filter((r) => r === 'PipeWrap' || r.startsWith('TCP')).length;

/** The socket count once it has stopped changing (earlier tests' sockets close asynchronously). */
async function stableSockets(): Promise<number> {
  let last = openSockets();
  for (let quiet = 0; quiet < 5;) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const now = openSockets();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

async function settled(predicate: () => boolean, ms = 2000): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

describe('bad endpoints', () => {
  it('a missing socket: UNAVAILABLE, fast, naming endpoint and RPC', async () => {
    const endpoint = `unix://${join(dir, 'nobody-home.sock')}`;
    const c = client(endpoint, 3000);
    const { err, ms } = await failure(c.version());
    expect(err.codeName).toBe('UNAVAILABLE');
    expect(err.code).toBe(14);
    expect(err.endpoint).toBe(endpoint);
    expect(err.rpc).toBe('Version');
    expect(err.message).toMatch(
      /^CRI Version on unix:\/\/.*nobody-home\.sock: UNAVAILABLE \(14\): /,
    );
    expect(ms).toBeLessThan(3000);
  });

  it('a listener that writes garbage: a CriError within the deadline', async () => {
    const raw = new RawListener('garbage');
    const path = join(dir, 'garbage.sock');
    await raw.listen({ kind: 'unix', path });
    cleanups.push(() => raw.close());
    const c = client(`unix://${path}`, 2000);
    const { err, ms } = await failure(c.listPodSandbox());
    expect(['UNAVAILABLE', 'INTERNAL', 'DEADLINE_EXCEEDED']).toContain(err.codeName);
    expect(ms).toBeLessThan(2000 + 1000);
  });

  it('a listener that never says anything: DEADLINE_EXCEEDED at the deadline', async () => {
    const raw = new RawListener('hang');
    const path = join(dir, 'silent.sock');
    await raw.listen({ kind: 'unix', path });
    cleanups.push(() => raw.close());
    const c = client(`unix://${path}`, 400);
    const { err, ms } = await failure(c.listContainers());
    expect(err.codeName).toBe('DEADLINE_EXCEEDED');
    expect(err.deadlineExceeded).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(ms).toBeLessThan(400 + 1000);
  });

  it('a gRPC server whose RPC hangs: DEADLINE_EXCEEDED; a per-call deadline overrides', async () => {
    const node = await sim('hangs', { faults: { hang: { ListContainers: true } } });
    const c = client(node.endpoint, 5000);
    const { err, ms } = await failure(c.listContainers(undefined, { timeoutMs: 300 }));
    expect(err.codeName).toBe('DEADLINE_EXCEEDED');
    expect(ms).toBeLessThan(300 + 1000);
    expect(await c.version()).toMatchObject({ name: 'podscope-sim' });
  });

  it('a server that answers garbage: INTERNAL (the answer does not parse)', async () => {
    const node = await sim('corrupt', { faults: { corrupt: { ListPodSandbox: true } } });
    const c = client(node.endpoint, 3000);
    const { err } = await failure(c.listPodSandbox());
    expect(err.codeName).toBe('INTERNAL');
    // The channel is fine: other calls still work.
    expect(await c.listContainers()).toEqual([]);
  });

  it('a 20 MiB answer: RESOURCE_EXHAUSTED against the kubelet’s 16 MiB limit', async () => {
    const node = await sim('oversize', {
      faults: { oversize: { ListContainers: 20 * 1024 * 1024 } },
    });
    const c = client(node.endpoint, 10_000);
    const { err } = await failure(c.listContainers());
    expect(err.codeName).toBe('RESOURCE_EXHAUSTED');
    expect(err.details).toMatch(/larger than max/i);
    // Raising the limit, the same padded answer decodes (the padding is an unknown field).
    const big = new CriClient(node.endpoint, { maxMessageBytes: 32 * 1024 * 1024 });
    cleanups.push(() => big.close());
    expect(await big.listContainers()).toEqual([]);
  });

  it('injected errors keep their code and words', async () => {
    const node = await sim('errs', {
      faults: { errors: { Status: { code: 9, message: 'runtime is shutting down' } } },
    });
    const c = client(node.endpoint, 3000);
    const { err } = await failure(c.status());
    expect([err.codeName, err.code, err.details]).toEqual([
      'FAILED_PRECONDITION',
      9,
      'runtime is shutting down',
    ]);
  });
});

describe('client lifecycle', () => {
  it('close() releases the connection and later calls fail CANCELLED', async () => {
    const node = await sim('lifecycle');
    const before = await stableSockets();
    const c = new CriClient(node.endpoint, { timeoutMs: 3000 });
    expect(await c.listPodSandbox()).toEqual([]);
    expect(c.connectivity()).toBe('READY');
    expect(openSockets()).toBeGreaterThan(before);
    c.close();
    c.close();
    expect(c.connectivity()).toBe('SHUTDOWN');
    expect(await settled(() => openSockets() <= before)).toBe(true);
    const { err } = await failure(c.version());
    expect([err.codeName, err.details]).toEqual(['CANCELLED', 'client closed']);
  });

  it('failing endpoints leave no socket behind once closed', async () => {
    const before = await stableSockets();
    const raw = new RawListener('garbage');
    const path = join(dir, 'leak.sock');
    await raw.listen({ kind: 'unix', path });
    for (let i = 0; i < 5; i++) {
      const c = new CriClient(`unix://${path}`, { timeoutMs: 500 });
      await failure(c.version());
      c.close();
    }
    await raw.close();
    expect(await settled(() => openSockets() <= before)).toBe(true);
  });

  it('an AbortSignal cancels a call', async () => {
    const node = await sim('abort', { faults: { hang: { Version: true } } });
    const c = client(node.endpoint, 10_000);
    const ac = new AbortController();
    const call = c.version({ signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const { err, ms } = await failure(call);
    expect(err.codeName).toBe('CANCELLED');
    expect(ms).toBeLessThan(2000);
    const { err: pre } = await failure(c.version({ signal: ac.signal }));
    expect(pre.codeName).toBe('CANCELLED');
  });

  it('reconnects quickly once a socket appears (bounded back-off)', async () => {
    const path = join(dir, 'late.sock');
    const c = client(`unix://${path}`, 3000);
    await failure(c.version());
    const node = await sim('late', { socketPath: path });
    const t0 = performance.now();
    await c.waitForReady(5000);
    expect(await c.version()).toMatchObject({ apiVersion: 'v1' });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(node.listener).toBe('grpc');
  });

  it('speaks tcp:// as well, and gives raw list bytes', async () => {
    const node = await sim('tcp', { tcp: { host: '127.0.0.1', port: 0 } });
    expect(node.endpoint).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    const c = client(node.endpoint, 3000);
    await c.runPodSandbox({ name: 'p', namespace: 'n', uid: 'u', networkMode: 'NODE' });
    const raw = await c.listPodSandboxRaw();
    expect(decodeListPodSandbox(raw)).toMatchObject([{ name: 'p', state: 'ready' }]);
  });
});
