/**
 * A real nats-server with JetStream for the cluster tests: loopback only, a random port in this
 * worktree's range, its store in a temporary folder. `stop()` and `start()` keep the port and
 * the store (the "NATS stopped and restarted" fault); `destroy()` removes everything and is
 * safe to call twice. Debian's 2.9.10 is vulnerable (CVE-2023-47090): loopback only, tests only.
 *
 *   const nats = await startNats();
 *   … connect({ servers: nats.url }) …
 *   await nats.destroy();
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { forgetDir, removeOnExit, startProcess, stopProcess, type Running } from './process';
import { freePort, NATS_PORTS } from './ports';
import { BASE_DIR, recordOwner, sweepStale } from './stale';

export const NATS_SERVER_BIN = process.env.PODSCOPE_NATS_SERVER ?? '/usr/sbin/nats-server';
const PREFIX = 'nats-';

export interface NatsInstance {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** The server's PID while it runs. */
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Stops the server (SIGTERM: JetStream flushes), keeping port and store. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL: no flush, no goodbye. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same store (no-op while it runs). */
  start(): Promise<void>;
  /** Stops it and removes the store. Idempotent. */
  destroy(): Promise<void>;
}

export function natsMissing(): string | undefined {
  return existsSync(NATS_SERVER_BIN)
    ? undefined
    : `${NATS_SERVER_BIN} not found: apt-get install -y nats-server (.ci/run and npm test install it)`;
}

export async function startNats(): Promise<NatsInstance> {
  const missing = natsMissing();
  if (missing) throw new Error(missing);
  sweepStale(PREFIX);
  mkdirSync(BASE_DIR, { recursive: true });
  const dir = mkdtempSync(join(BASE_DIR, PREFIX));
  removeOnExit(dir);
  recordOwner(dir);
  let port = 0;
  let proc: Running | undefined;
  let destroyed = false;

  const launch = async (fixedPort?: number) => {
    for (let attempt = 0; ; attempt++) {
      const p = fixedPort ?? (await freePort(NATS_PORTS));
      try {
        proc = await startProcess({
          name: `nats-server on 127.0.0.1:${p}`,
          command: NATS_SERVER_BIN,
          args: [
            '-a',
            '127.0.0.1',
            '-p',
            String(p),
            '-js',
            '-sd',
            join(dir, 'store'),
            '-n',
            `podscope-test-${p}`,
          ],
          ready: (out) => out.includes('Server is ready'),
          timeoutMs: 20_000,
        });
        port = p;
        recordOwner(dir, proc.pid);
        return;
      } catch (err) {
        const inUse = /address already in use/i.test(String(err));
        if (!inUse || attempt >= (fixedPort ? 40 : 5)) throw err;
        // A fixed port may still be held by the previous run's socket for a moment.
        await new Promise((r) => setTimeout(r, fixedPort ? 250 : 0));
      }
    }
  };
  await launch();

  const running = () => !!proc && proc.child.exitCode === null && proc.child.signalCode === null;
  const instance: NatsInstance = {
    get url() {
      return `nats://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dir,
    get pid() {
      return running() ? proc?.pid : undefined;
    },
    get running() {
      return running();
    },
    stop: () => stopProcess(proc, 'SIGTERM'),
    kill: () => stopProcess(proc, 'SIGKILL'),
    async start() {
      if (destroyed) throw new Error('nats-server instance was destroyed');
      if (running()) return;
      await launch(port);
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await stopProcess(proc, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      forgetDir(dir);
    },
  };
  return instance;
}
