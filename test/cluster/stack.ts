/**
 * A whole cluster-mode Podscope on one machine, as processes: nats-server and PostgreSQL (the
 * test harness: loopback, temporary directories, PostgreSQL as the postgres user), N simulated
 * nodes running the demo workload (`podscope sim --nodes N --demo`), one `podscope agent` per
 * node, and console replicas (scripts/server.mjs in cluster mode). `npm run cluster:demo`, the
 * replica-kill Playwright spec and the failover bench all start it through here.
 *
 *   const stack = await startClusterStack({ nodes: 3, replicas: 2, ports: [3114, 3115] });
 *   stack.replicas[0].url … await stack.replicas[0].kill() … await stack.stop();
 *
 * Every process is stopped by its PID (SIGTERM, then SIGKILL after a grace period); the console
 * must be built first (`ensureBuild`, scripts/lib/prepare.mjs).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startNatsAndPostgres, type NatsInstance, type PostgresInstance } from './harness';
import { BASE_DIR } from './harness/stale';
import { startProcess, stopProcess, type Running } from './harness/process';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'podscope.mjs');
/** The console's server (Next behind Podscope's own HTTP server, server/http/). */
const SERVER = join(ROOT, 'scripts', 'server.mjs');

export interface StackOptions {
  /** Simulated nodes, each with its agent (default 3). */
  nodes?: number;
  /** Loopback ports of the console replicas (one replica per port; default 3000 and 3001). */
  ports?: number[];
  /** The cluster's name on the bus (default "demo"). */
  cluster?: string;
  /** PODSCOPE_NODE_MONITOR_GRACE_MS for the consoles (default: the kubelet's 50 s). */
  graceMs?: number;
  /** Extra environment for the consoles. */
  consoleEnv?: Record<string, string>;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface Replica {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGKILL: the replica dies as a crashed pod does, with no goodbye. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  output(): string;
}

export interface ClusterStack {
  readonly nats: NatsInstance;
  readonly postgres: PostgresInstance;
  readonly databaseUrl: string;
  readonly cluster: string;
  readonly nodes: { name: string; endpoint: string }[];
  readonly replicas: Replica[];
  /** Every process the stack started, by name (for the demo's listing). */
  pids(): { name: string; pid: number }[];
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.status > 0;
  } catch {
    return false;
  }
}

export async function startClusterStack(options: StackOptions = {}): Promise<ClusterStack> {
  const count = options.nodes ?? 3;
  const ports = options.ports ?? [3000, 3001];
  const cluster = options.cluster ?? 'demo';
  const log = options.log ?? (() => {});
  const processes: { name: string; running: Running }[] = [];
  const stops: (() => Promise<void>)[] = [];
  mkdirSync(BASE_DIR, { recursive: true });
  const dir = mkdtempSync(join(BASE_DIR, 'stack-'));
  stops.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  const own = (name: string, running: Running) => {
    processes.push({ name, running });
    stops.push(() => stopProcess(running, 'SIGTERM', 10_000));
    return running;
  };
  try {
    log('starting nats-server and PostgreSQL …');
    const [nats, postgres] = await startNatsAndPostgres();
    stops.push(
      () => nats.destroy(),
      () => postgres.destroy(),
    );
    const databaseUrl = await postgres.createDatabase('podscope');

    log(`starting ${count} simulated node(s) with the demo workload …`);
    const socketDir = join(dir, 'sock');
    const line = /^(\S+) (unix:\/\/\/\S+)$/gm;
    const sim = own(
      'podscope sim',
      await startProcess({
        name: 'podscope sim',
        command: process.execPath,
        args: [CLI, 'sim', '--nodes', String(count), '--demo', '--socket-dir', socketDir],
        options: { cwd: ROOT },
        ready: (out) => [...out.matchAll(line)].length >= count,
        timeoutMs: 120_000,
      }),
    );
    const nodes = [...sim.output().matchAll(line)].map((m) => ({
      name: m[1] as string,
      endpoint: m[2] as string,
    }));

    log(`starting ${nodes.length} agent(s) …`);
    await Promise.all(
      nodes.map(async (n) =>
        own(
          `podscope agent ${n.name}`,
          await startProcess({
            name: `podscope agent ${n.name}`,
            command: process.execPath,
            args: [
              CLI,
              'agent',
              '--cri',
              `${n.name}=${n.endpoint}`,
              '--nats',
              nats.url,
              '--cluster',
              cluster,
              '--listen',
              '127.0.0.1:0',
              '--heartbeat',
              '1s',
            ],
            options: { cwd: ROOT },
            ready: (out) => out.includes(`agent: node ${n.name} `),
            timeoutMs: 120_000,
          }),
        ),
      ),
    );

    log(`starting ${ports.length} console replica(s) …`);
    const replicas = await Promise.all(
      ports.map(async (port, i): Promise<Replica> => {
        const dataDir = join(dir, `replica-${i + 1}`);
        const name = `console replica ${i + 1}`;
        const running = own(
          name,
          await startProcess({
            name,
            command: process.execPath,
            args: [SERVER, '-H', '127.0.0.1', '-p', String(port)],
            options: {
              cwd: ROOT,
              env: {
                ...process.env,
                NODE_ENV: 'production',
                NEXT_TELEMETRY_DISABLED: '1',
                PODSCOPE_HOST: '127.0.0.1',
                PODSCOPE_PORT: String(port),
                PODSCOPE_DATA_DIR: dataDir,
                PODSCOPE_NATS_URL: nats.url,
                PODSCOPE_DATABASE_URL: databaseUrl,
                PODSCOPE_CLUSTER: cluster,
                ...(options.graceMs !== undefined
                  ? { PODSCOPE_NODE_MONITOR_GRACE_MS: String(options.graceMs) }
                  : {}),
                ...options.consoleEnv,
              },
            },
            ready: () => answers(`http://127.0.0.1:${port}/api/healthz`),
            timeoutMs: 180_000,
          }),
        );
        return {
          url: `http://127.0.0.1:${port}`,
          port,
          pid: running.pid,
          kill: () => stopProcess(running, 'SIGKILL'),
          stop: () => stopProcess(running, 'SIGTERM'),
          output: () => running.output(),
        };
      }),
    );
    return {
      nats,
      postgres,
      databaseUrl,
      cluster,
      nodes,
      replicas,
      pids: () => [
        ...(nats.pid ? [{ name: 'nats-server', pid: nats.pid }] : []),
        ...(postgres.pid ? [{ name: 'postgres', pid: postgres.pid }] : []),
        ...processes.map((p) => ({ name: p.name, pid: p.running.pid })),
      ],
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
