/**
 * A real PostgreSQL 15 for the cluster tests: `initdb` into a temporary folder and the server on
 * a random loopback port of this worktree's range, both run as the `postgres` user (PostgreSQL
 * refuses root) by spawning with its uid/gid, so the PID we hold is the postmaster itself.
 * Trust authentication is safe here: it listens on 127.0.0.1 and a private socket folder only.
 * fsync is off (the tests kill processes, not the machine; a killed postmaster loses nothing
 * committed either way).
 *
 *   const pg = await startPostgres();
 *   const url = await pg.createDatabase('t1');   // postgres://postgres@127.0.0.1:PORT/t1
 *   await pg.restart();                           // the "PostgreSQL restarted" fault
 *   await pg.destroy();
 */
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { forgetDir, removeOnExit, startProcess, stopProcess, type Running } from './process';
import { freePort, PG_PORTS } from './ports';
import { BASE_DIR, recordOwner, sweepStale } from './stale';

export const PG_BIN_DIR = process.env.PODSCOPE_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PREFIX = 'pg-';

export interface PostgresInstance {
  readonly port: number;
  readonly dir: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** postgres://postgres@127.0.0.1:PORT/<database> */
  url(database?: string): string;
  /** Creates a database (a fresh name per test keeps tests apart) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Fast shutdown (SIGINT: rolls back open transactions, disconnects clients). Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL the postmaster (crash; recovery on the next start). */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export function postgresMissing(): string | undefined {
  if (!existsSync(join(PG_BIN_DIR, 'initdb')))
    return `${PG_BIN_DIR}/initdb not found: apt-get install -y postgresql (.ci/run and npm test install it)`;
  try {
    postgresUser();
  } catch {
    return 'no `postgres` user (the postgresql package creates it)';
  }
  if (process.getuid?.() !== 0)
    return 'the PostgreSQL harness runs initdb as the postgres user, which needs root';
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PIDs whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may contain spaces, so split after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startPostgres(): Promise<PostgresInstance> {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  sweepStale(PREFIX);
  mkdirSync(BASE_DIR, { recursive: true });
  const dir = mkdtempSync(join(BASE_DIR, PREFIX));
  removeOnExit(dir);
  recordOwner(dir);
  const user = postgresUser();
  chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  mkdirSync(sock);
  chownSync(sock, user.uid, user.gid);
  const asPostgres = { uid: user.uid, gid: user.gid, env: { ...process.env, LC_ALL: 'C.UTF-8' } };
  execFileSync(
    join(PG_BIN_DIR, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { ...asPostgres, stdio: 'pipe' },
  );

  let port = 0;
  let proc: Running | undefined;
  let destroyed = false;
  const urlFor = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

  const launch = async (fixedPort?: number) => {
    for (let attempt = 0; ; attempt++) {
      const p = fixedPort ?? (await freePort(PG_PORTS));
      port = p;
      try {
        proc = await startProcess({
          name: `postgres on 127.0.0.1:${p}`,
          command: join(PG_BIN_DIR, 'postgres'),
          args: [
            '-D',
            data,
            '-p',
            String(p),
            '-c',
            'listen_addresses=127.0.0.1',
            '-c',
            `unix_socket_directories=${sock}`,
            '-c',
            'fsync=off',
            '-c',
            'shared_buffers=32MB',
            '-c',
            'max_connections=60',
          ],
          options: { ...asPostgres, stdio: ['ignore', 'pipe', 'pipe'] },
          ready: (out) => out.includes('ready to accept connections') && accepts(urlFor()),
          timeoutMs: 30_000,
        });
        recordOwner(dir, proc.pid);
        return;
      } catch (err) {
        const inUse = /address already in use|could not create any TCP\/IP sockets/i.test(
          String(err),
        );
        if (!inUse || attempt >= (fixedPort ? 40 : 5)) throw err;
        await new Promise((r) => setTimeout(r, fixedPort ? 250 : 0));
      }
    }
  };
  await launch();

  const running = () => !!proc && proc.child.exitCode === null && proc.child.signalCode === null;
  const instance: PostgresInstance = {
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
    url: urlFor,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
      const client = new pg.Client({ connectionString: urlFor() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    stop: () => stopProcess(proc, 'SIGINT', 20_000),
    async kill() {
      // The postmaster's backends outlive it and keep its shared memory: kill them too, as a
      // machine crash would, so the next start goes through crash recovery.
      const backends = proc && running() ? childrenOf(proc.pid) : [];
      await stopProcess(proc, 'SIGKILL');
      for (const pid of backends) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      for (const pid of backends) while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
    },
    async start() {
      if (destroyed) throw new Error('PostgreSQL instance was destroyed');
      if (running()) return;
      await launch(port);
    },
    async restart() {
      await instance.stop();
      await instance.start();
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await stopProcess(proc, 'SIGINT', 20_000);
      rmSync(dir, { recursive: true, force: true });
      forgetDir(dir);
    },
  };
  return instance;
}
