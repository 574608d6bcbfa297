/**
 * Issue 17, items 1 and 2: what the server listens on, checked with real binds in a private
 * network namespace (`unshare --net`, only `lo` up), so binding every interface exposes nothing
 * of this machine. Each server is started the way people start it (`node scripts/start.mjs`,
 * i.e. `npm start`) with its own port and data directory; requests are made from inside the
 * namespace (`nsenter`), and `ss` shows what is listening there.
 * - a token given in the PODSCOPE_CONFIG file is checked on every request;
 * - an empty PODSCOPE_HOST is refused (it used to reach Next as "every interface");
 * - `next start` without -H (not through npm start) refuses to serve;
 * - by default, only loopback.
 * Needs root (unshare, nsenter); skipped otherwise.
 */
import { expect, test } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.E2E_BIND_PORT ?? 3111);
const APP = process.env.E2E_APP_DIR ?? process.cwd();
const TOKEN = `bind-${'s3cret'.repeat(4)}-${process.pid}`;
const IP = '/usr/sbin/ip';

test.describe.configure({ mode: 'default' });
test.setTimeout(240_000);
test.skip(
  process.getuid?.() !== 0 || !existsSync('/usr/bin/unshare') || !existsSync('/usr/bin/nsenter'),
  'needs root, unshare and nsenter',
);

interface NsServer {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Runs a command inside the server's network namespace. */
  inside(cmd: string, args: string[]): string;
  stop(): Promise<void>;
}

let dataDir = '';
test.beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-bind-'));
});
test.afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** `command` (argv) in a new network namespace with only lo up. */
function startInNamespace(command: string[], env: Record<string, string | undefined>): NsServer {
  const child = spawn(
    'unshare',
    ['--net', '--', 'sh', '-c', `${IP} link set lo up && exec "$@"`, 'sh', ...command],
    {
      cwd: APP,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        PODSCOPE_SIM_NODES: '1',
        PODSCOPE_DATA_DIR: dataDir,
        PODSCOPE_PORT: String(PORT),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    output: () => output,
    exited,
    inside(cmd, args) {
      const r = spawnSync('nsenter', ['-t', String(child.pid), '-n', '--', cmd, ...args], {
        encoding: 'utf8',
        timeout: 15_000,
      });
      return `${r.stdout}${r.stderr}`;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const npmStart = [process.execPath, 'scripts/start.mjs'];

/** HTTP status of a request made inside the namespace (000: no answer). */
function status(server: NsServer, path: string, headers: Record<string, string> = {}): string {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  return server
    .inside('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-m',
      '10',
      ...h,
      `http://127.0.0.1:${PORT}${path}`,
    ])
    .trim();
}

/** The local addresses listening on PORT inside the namespace (`0.0.0.0`, `127.0.0.1`, `*` …). */
function listeners(server: NsServer): string[] {
  return server
    .inside('ss', ['-Hltn'])
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[3] ?? '')
    .filter((addr) => addr.endsWith(`:${PORT}`))
    .map((addr) => addr.slice(0, addr.lastIndexOf(':')));
}

/** Waits until the server answers (any status but 000) or exits; returns false if it exited. */
async function answering(server: NsServer, headers: Record<string, string> = {}): Promise<boolean> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) return false;
    if (status(server, '/api/healthz', headers) !== '000') return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`server did not come up:\n${server.output()}`);
}

for (const where of ['the file', 'the environment'] as const) {
  test(`1. a token given in the PODSCOPE_CONFIG file is checked on every request (bind address in ${where})`, async () => {
    const config = join(dataDir, 'podscope.json');
    writeFileSync(
      config,
      JSON.stringify(where === 'the file' ? { host: '0.0.0.0', token: TOKEN } : { token: TOKEN }),
    );
    const server = startInNamespace(npmStart, {
      PODSCOPE_CONFIG: config,
      PODSCOPE_HOST: where === 'the file' ? undefined : '0.0.0.0',
    });
    try {
      expect(await answering(server, { authorization: `Bearer ${TOKEN}` }), server.output()).toBe(
        true,
      );
      // Bound to every interface of the namespace, as configured…
      expect(listeners(server)).toEqual(['0.0.0.0']);
      // …and so every request must carry the token.
      for (const path of ['/api/trpc/nodes.list', '/metrics', '/en'])
        expect(status(server, path), path).toBe('401');
      // The probe's route answers, saying only ok or not.
      expect(['200', '503']).toContain(status(server, '/api/healthz'));
      expect(
        status(server, '/api/trpc/nodes.list', { authorization: 'Bearer not-the-token-at-all' }),
      ).toBe('401');
      expect(status(server, '/api/trpc/nodes.list', { authorization: `Bearer ${TOKEN}` })).toBe(
        '200',
      );
      expect(server.output()).not.toContain(TOKEN);
    } finally {
      await server.stop();
    }
  });
}

test('2. an empty PODSCOPE_HOST is refused, and nothing listens', async () => {
  const server = startInNamespace(npmStart, { PODSCOPE_HOST: '' });
  try {
    const code = await Promise.race([
      server.exited,
      new Promise<'running'>((r) => setTimeout(() => r('running'), 60_000)),
    ]);
    const seen = listeners(server);
    expect(seen, server.output()).toEqual([]);
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    expect(server.output()).toContain('PODSCOPE_HOST: set but empty');
  } finally {
    await server.stop();
  }
});

test('2. `next start` without -H (not through npm start) refuses to serve', async () => {
  const server = startInNamespace(
    [process.execPath, 'node_modules/next/dist/bin/next', 'start', '-p', String(PORT)],
    { NODE_ENV: 'production', PODSCOPE_HOST: undefined },
  );
  try {
    const code = await Promise.race([
      server.exited,
      new Promise<'running'>((r) => setTimeout(() => r('running'), 120_000)),
    ]);
    expect(code, server.output()).not.toBe('running');
    expect(code).not.toBe(0);
    expect(server.output()).toContain(
      'refusing to serve: Next.js was told to listen on every interface',
    );
  } finally {
    await server.stop();
  }
});

test('by default, loopback only, and no token needed there', async () => {
  const server = startInNamespace(npmStart, {
    PODSCOPE_HOST: undefined,
    PODSCOPE_TOKEN: undefined,
  });
  try {
    expect(await answering(server), server.output()).toBe(true);
    expect(listeners(server)).toEqual(['127.0.0.1']);
    expect(status(server, '/api/trpc/nodes.list')).toBe('200');
  } finally {
    await server.stop();
  }
});
