/**
 * The real console server for the benchmarks (scripts/server.mjs, what `npm start` runs) on a
 * loopback port with its own data directory, configured by environment like `npm start`, plus a
 * tiny tRPC-over-HTTP client and the memory of the server's process tree.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode } from '@/lib/timeline/codec';
import { sleep } from './stats';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `next build` unless .next already holds a build of these sources (scripts/lib/prepare.mjs). */
export function ensureBuild(): void {
  const r = spawnSync(
    process.execPath,
    ['-e', "import('./scripts/lib/prepare.mjs').then((m) => m.ensureBuild())"],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    },
  );
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status ?? r.signal})`);
}

/** Set when the last snapshotBuild() had to serve an older build. */
export let buildWarning: string | undefined;

const SKIP_IN_COPY = new Set(['cache', 'dev', 'trace', 'trace-build', 'diagnostics']);

/**
 * A private copy of the built console: a folder whose entries link to the checkout's, except
 * `.next`, which is copied. Other people's `next build` (the e2e suite, `npm start`) rewrite
 * the checkout's .next while a benchmark runs; the copy keeps serving the build that was measured.
 */
export function snapshotBuild(): string {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      ensureBuild();
    } catch (err) {
      // Someone's work in progress does not build: serve the last good build, and say so.
      if (!existsSync(join(ROOT, '.next', 'BUILD_ID'))) throw err;
      process.stderr.write(
        `[bench] WARNING: next build failed; measuring the previous build in .next\n`,
      );
      buildWarning = err instanceof Error ? err.message : String(err);
    }
    const dir = mkdtempSync(join(tmpdir(), 'podscope-bench-app-'));
    for (const entry of readdirSync(ROOT)) {
      if (entry === '.next' || entry === '.git') continue;
      symlinkSync(join(ROOT, entry), join(dir, entry));
    }
    try {
      cpSync(join(ROOT, '.next'), join(dir, '.next'), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (src) => !SKIP_IN_COPY.has(src.slice(join(ROOT, '.next').length + 1)),
      });
    } catch {
      // A build started under us: try again.
    }
    if (existsSync(join(dir, '.next', 'BUILD_ID')) && existsSync(join(dir, '.next', 'server')))
      return dir;
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('could not copy a complete build of the console (is another build running?)');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerOptions {
  env: Record<string, string>;
  /** The built app to serve (snapshotBuild()); default the checkout itself. */
  appDir?: string;
  /** Print the server's output (default: only when it fails to start). */
  verbose?: boolean;
  /**
   * Allow a CPU profile of the server (scripts/bench-profile.mjs): startProfile() begins it,
   * stop() writes it into this folder.
   */
  profileDir?: string;
}

export class ConsoleServer {
  private output = '';
  /** Profiles ended so far (bench-profile.mjs names the second and later ones -2, -3, …). */
  private profiles = 0;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
    private readonly profiling = false,
    private readonly profileDir?: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(options: ServerOptions): Promise<ConsoleServer> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'podscope-bench-server-'));
    const nodeArgs = options.profileDir
      ? ['--import', join(ROOT, 'scripts/bench-profile.mjs')]
      : [];
    const entry = join(ROOT, 'scripts/server.mjs');
    const child = spawn(
      process.execPath,
      [...nodeArgs, entry, '-H', '127.0.0.1', '-p', String(port)],
      {
        cwd: options.appDir ?? ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          NEXT_TELEMETRY_DISABLED: '1',
          PODSCOPE_PORT: String(port),
          PODSCOPE_DATA_DIR: dataDir,
          ...(options.profileDir
            ? {
                PODSCOPE_BENCH_PROFILE_DIR: options.profileDir,
                // Worker threads load it from their boot file (server/engine/workers/boot.mjs).
                PODSCOPE_BENCH_PROFILE_HOOK: join(ROOT, 'scripts/bench-profile.mjs'),
              }
            : {}),
          ...options.env,
        },
        stdio: [
          'ignore',
          options.verbose ? 'inherit' : 'pipe',
          options.verbose ? 'inherit' : 'pipe',
        ],
      },
    );
    const server = new ConsoleServer(
      child,
      port,
      dataDir,
      options.profileDir !== undefined,
      options.profileDir,
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`console server exited (${child.exitCode}):\n${server.output}`);
      try {
        const res = await fetch(`${server.url}/api/healthz`);
        if (res.status === 200 || res.status === 503) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`console server did not answer within 120 s:\n${server.output}`);
      }
      await sleep(250);
    }
    return server;
  }

  /**
   * /api/healthz, or undefined while the server is too busy to answer (a warm-up can hold its
   * event loop for seconds); throws with the server's output once it has exited.
   */
  async health(): Promise<
    { ok: boolean; nodes: Record<string, number | null>; seq: number } | undefined
  > {
    this.assertAlive();
    try {
      const res = await fetch(`${this.url}/api/healthz`, { signal: AbortSignal.timeout(30_000) });
      return (await res.json()) as {
        ok: boolean;
        nodes: Record<string, number | null>;
        seq: number;
      };
    } catch {
      this.assertAlive();
      return undefined;
    }
  }

  assertAlive(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      throw new Error(
        `console server exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.output}`,
      );
    }
  }

  /** A tRPC query over HTTP (GET), decoded with the console's codec. */
  async query<T>(path: string, input?: unknown): Promise<T> {
    const q = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const res = await fetch(`${this.url}/api/trpc/${path}${q}`);
    return this.result<T>(path, res);
  }

  async mutate<T>(path: string, input: unknown): Promise<T> {
    const res = await fetch(`${this.url}/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return this.result<T>(path, res);
  }

  private async result<T>(path: string, res: Response): Promise<T> {
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}: ${text.slice(0, 500)}`);
    return decode<{ result: { data: T } }>(text).result.data;
  }

  /** Starts the server's CPU profiler (only with `profileDir`). */
  startProfile(): void {
    if (this.profiling) this.child.kill('SIGHUP');
  }

  /**
   * Stops the profiler startProfile() started and waits for its file (the server runs on);
   * undefined without `profileDir`.
   */
  async endProfile(timeoutMs = 30_000): Promise<string | undefined> {
    return (await this.endProfiles(timeoutMs))?.main;
  }

  /**
   * endProfile(), with the profiles of the worker threads (relist workers) that ran meanwhile,
   * written beside the main thread's before it (scripts/bench-profile.mjs).
   */
  async endProfiles(timeoutMs = 30_000): Promise<{ main: string; threads: string[] } | undefined> {
    if (!this.profiling || !this.profileDir) return undefined;
    const name = `server-${this.pid}${this.profiles++ === 0 ? '' : `-${this.profiles}`}`;
    const path = join(this.profileDir, `${name}.cpuprofile`);
    this.child.kill('SIGHUP');
    const deadline = Date.now() + timeoutMs;
    // bench-profile.mjs renames the file into place once written.
    while (!existsSync(path)) {
      if (Date.now() > deadline) throw new Error(`no server profile at ${path}`);
      await sleep(250);
    }
    const threads = readdirSync(this.profileDir)
      .filter((f) => f.startsWith(`${name}-t`) && f.endsWith('.cpuprofile'))
      .map((f) => join(this.profileDir as string, f));
    return { main: path, threads };
  }

  /** The last `chars` of what the server printed (its log), for a failure's report. */
  outputTail(chars = 2_000): string {
    return this.output.slice(-chars);
  }

  /** Resident memory of the server and every process under it, MiB (Linux /proc). */
  rssMb(): number {
    return treeRssKb(this.pid) / 1024;
  }

  /** Time the server's main thread waited for a core so far, ms (runQueueWaitMs). */
  runQueueWaitMs(): number {
    return runQueueWaitMs(this.pid);
  }

  /** CPU time of the server process so far, ms (utime + stime from /proc). */
  cpuMs(): number {
    return procCpuMs(this.pid);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill(this.profiling ? 'SIGUSR2' : 'SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

function children(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** A process and every process under it that is alive now (Linux /proc). */
function processTree(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    if (!existsSync(`/proc/${p}`)) continue;
    out.push(p);
    stack.push(...children(p));
  }
  return out;
}

export function treeRssKb(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return kb;
}

const TICKS_PER_SECOND = 100;

/**
 * Time the process's main thread spent runnable but waiting for a core, ms so far (the second
 * field of /proc/PID/schedstat). Its growth over a window, as a share of the window, says how much
 * of the time the loop wanted to run and could not: on a machine whose other work saturates the
 * cores, relists then miss their ticks however cheap they are.
 */
export function runQueueWaitMs(pid: number): number {
  try {
    const [, waitNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    return Number(waitNs) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time of each of a process's threads so far, ms, by thread id (/proc/PID/task/TID/stat;
 * the main thread's id is the process id). Node 20 names no thread, so threads are told apart
 * by id only: a level's main-thread share against its busiest other threads (relist workers,
 * V8's GC helpers, libuv) says which of them the load saturates. Threads that ended are absent.
 */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * Per-thread CPU over a window as shares of one core (%): the main thread's, and the other
 * threads' from the busiest down (threads that started during the window count from zero).
 */
export function threadCpuPct(
  before: Map<number, number>,
  after: Map<number, number>,
  pid: number,
  elapsedMs: number,
): { main: number; others: number[] } {
  const pct = (ms: number) => Math.round((ms / elapsedMs) * 1000) / 10;
  const delta = (tid: number) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
  const others = [...after.keys()]
    .filter((tid) => tid !== pid)
    .map((tid) => pct(delta(tid)))
    .sort((a, b) => b - a);
  return { main: pct(delta(pid)), others };
}

/**
 * CPU time of a process and every process under it now, ms (PostgreSQL's backends are children
 * of its postmaster). Children that exited are not counted: for long-lived trees only.
 */
export function treeCpuMs(pid: number): number {
  return processTree(pid)
    .map(procCpuMs)
    .reduce((ms, own) => (Number.isNaN(own) ? ms : ms + own), 0);
}

export function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat; after "pid (comm) " they are at 11 and 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
