/**
 * What the nats-server and PostgreSQL harnesses share: a temporary folder of their own (stale
 * ones of dead test processes swept first, this one removed on exit), a server process on a free
 * loopback port of a range — tried again on another port when it was taken, or on the same port
 * while the previous run's socket lingers — and stop, kill, start and destroy by PID.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type PortRange } from './ports';
import {
  forgetDir,
  removeOnExit,
  startProcess,
  stopProcess,
  type Running,
  type StartSpec,
} from './process';
import { BASE_DIR, recordOwner, sweepStale } from './stale';

export interface ServiceSpec {
  /** What it is, for errors ("nats-server instance was destroyed"). */
  what: string;
  /** Its folder's name prefix under BASE_DIR (what sweepStale looks for). */
  prefix: string;
  ports: PortRange;
  /** Readies the folder before the first start (initdb). */
  prepare?: (dir: string) => void;
  /** The process to run on this port. */
  process: (port: number, dir: string) => StartSpec;
  /** What the process says when the port is taken. */
  portInUse: RegExp;
  /** The signal of an orderly stop, and how long it may take before SIGKILL. */
  stopSignal: NodeJS.Signals;
  stopGraceMs?: number;
}

export interface Service {
  readonly port: number;
  readonly dir: string;
  /** The server's PID while it runs. */
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Orderly stop (the spec's signal), keeping port and folder. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL: no flush, no goodbye. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same folder (no-op while it runs). */
  start(): Promise<void>;
  /** Stops it and removes the folder. Idempotent. */
  destroy(): Promise<void>;
}

export async function startService(spec: ServiceSpec): Promise<Service> {
  sweepStale(spec.prefix);
  mkdirSync(BASE_DIR, { recursive: true });
  const dir = mkdtempSync(join(BASE_DIR, spec.prefix));
  removeOnExit(dir);
  recordOwner(dir);
  spec.prepare?.(dir);
  let port = 0;
  let proc: Running | undefined;
  let destroyed = false;

  const launch = async (fixedPort?: number) => {
    for (let attempt = 0; ; attempt++) {
      port = fixedPort ?? (await freePort(spec.ports));
      try {
        proc = await startProcess(spec.process(port, dir));
        recordOwner(dir, proc.pid);
        return;
      } catch (err) {
        if (!spec.portInUse.test(String(err)) || attempt >= (fixedPort ? 40 : 5)) throw err;
        // A fixed port may still be held by the previous run's socket for a moment.
        await new Promise((r) => setTimeout(r, fixedPort ? 250 : 0));
      }
    }
  };
  await launch();

  const running = () => !!proc && proc.child.exitCode === null && proc.child.signalCode === null;
  const stop = () => stopProcess(proc, spec.stopSignal, spec.stopGraceMs);
  return {
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
    stop,
    kill: () => stopProcess(proc, 'SIGKILL'),
    async start() {
      if (destroyed) throw new Error(`${spec.what} instance was destroyed`);
      if (running()) return;
      await launch(port);
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await stop();
      rmSync(dir, { recursive: true, force: true });
      forgetDir(dir);
    },
  };
}
