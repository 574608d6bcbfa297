/**
 * A second console server for specs that need one configured differently from the suite's own
 * (playwright.config.ts): the same build and server (scripts/server.mjs) on its own loopback port
 * and data directory, with extra environment. Its output is kept for error messages and checks.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ConsoleServer {
  readonly base: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s (an open event stream can hold a graceful shutdown). */
  stop(): Promise<void>;
}

export async function startConsoleServer(options: {
  /** Used in messages: "<name> server exited …". */
  name: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  /** Headers for the readiness probe (/api/healthz). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The built app to serve (default: E2E_APP_DIR, else this checkout). */
  cwd?: string;
}): Promise<ConsoleServer> {
  const base = `http://127.0.0.1:${options.port}`;
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['scripts/server.mjs', '-H', '127.0.0.1', '-p', String(options.port)],
    {
      cwd: options.cwd ?? process.env.E2E_APP_DIR ?? process.cwd(),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        PODSCOPE_PORT: String(options.port),
        PODSCOPE_DATA_DIR: options.dataDir,
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const server: ConsoleServer = {
    base,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };

  // Up once /api/healthz answers at all (503 is an answer: the server is up, its nodes not yet).
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${options.name} server exited (${child.exitCode}):\n${output}`);
    const status = await fetch(`${base}/api/healthz`, { headers: options.headers ?? {} }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200 || status === 503) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${options.name} server did not come up:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
