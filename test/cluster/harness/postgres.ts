/**
 * A real PostgreSQL 15 for the cluster tests: `initdb` into a temporary folder and the server on
 * a random loopback port of this worktree's range, both run — when we are root — as the
 * `postgres` user (PostgreSQL refuses root) by spawning with its uid/gid, else as ourselves; so
 * the PID we hold is the postmaster itself.
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
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PG_PORTS } from './ports';
import { startService, type Service } from './service';

export const PG_BIN_DIR = process.env.PODSCOPE_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresInstance extends Service {
  /** postgres://postgres@127.0.0.1:PORT/<database> */
  url(database?: string): string;
  /** Creates a database (a fresh name per test keeps tests apart) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** SIGKILL the postmaster and its backends (crash; recovery on the next start). */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Who runs initdb and postgres: the `postgres` user when we are root (PostgreSQL refuses to run
 * as root), else ourselves. The database superuser is called `postgres` either way.
 */
function postgresUser(): { uid: number; gid: number } {
  if (!isRoot()) return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
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
    return 'running as root, and there is no `postgres` user to run PostgreSQL as (the postgresql package creates it)';
  }
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
  const user = postgresUser();
  const asPostgres = { uid: user.uid, gid: user.gid, env: { ...process.env, LC_ALL: 'C.UTF-8' } };
  let port = 0;
  const urlFor = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const service = await startService({
    what: 'PostgreSQL',
    prefix: 'pg-',
    ports: PG_PORTS,
    prepare: (dir) => {
      chownSync(dir, user.uid, user.gid);
      mkdirSync(join(dir, 'sock'));
      chownSync(join(dir, 'sock'), user.uid, user.gid);
      execFileSync(
        join(PG_BIN_DIR, 'initdb'),
        [
          '-D',
          join(dir, 'data'),
          '-U',
          'postgres',
          '-A',
          'trust',
          '-E',
          'UTF8',
          '--no-sync',
          '--no-instructions',
        ],
        { ...asPostgres, stdio: 'pipe' },
      );
    },
    process: (p, dir) => {
      port = p;
      return {
        name: `postgres on 127.0.0.1:${p}`,
        command: join(PG_BIN_DIR, 'postgres'),
        args: [
          '-D',
          join(dir, 'data'),
          '-p',
          String(p),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          `unix_socket_directories=${join(dir, 'sock')}`,
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
      };
    },
    portInUse: /address already in use|could not create any TCP\/IP sockets/i,
    // Fast shutdown: rolls back open transactions, disconnects clients.
    stopSignal: 'SIGINT',
    stopGraceMs: 20_000,
  });

  const killService = service.kill.bind(service);
  const instance: PostgresInstance = Object.assign(service, {
    url: urlFor,
    async createDatabase(name: string) {
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
    async kill() {
      // The postmaster's backends outlive it and keep its shared memory: kill them too, as a
      // machine crash would, so the next start goes through crash recovery.
      const pid = service.pid;
      const backends = pid !== undefined ? childrenOf(pid) : [];
      await killService();
      for (const b of backends) {
        try {
          process.kill(b, 'SIGKILL');
        } catch {
          // gone
        }
      }
      for (const b of backends) while (alive(b)) await new Promise((r) => setTimeout(r, 20));
    },
    async restart() {
      await instance.stop();
      await instance.start();
    },
  });
  return instance;
}
