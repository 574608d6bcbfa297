/**
 * Loopback ports for the cluster harnesses. Each helper of this machine has its own port range
 * (PROTOCOL.md); a port is taken at random from the range and checked free by binding it. The
 * caller still races anyone else for it, so servers are started with a retry on "address in use".
 */
import { createServer } from 'node:net';

export interface PortRange {
  from: number;
  to: number;
}

/** nats-server and PostgreSQL ranges of this worktree; overridable for another checkout. */
export const NATS_PORTS: PortRange = rangeFromEnv('PODSCOPE_TEST_NATS_PORTS', {
  from: 4700,
  to: 4799,
});
export const PG_PORTS: PortRange = rangeFromEnv('PODSCOPE_TEST_PG_PORTS', {
  from: 5700,
  to: 5799,
});

function rangeFromEnv(name: string, fallback: PortRange): PortRange {
  const raw = process.env[name];
  if (!raw) return fallback;
  const m = /^(\d+)-(\d+)$/.exec(raw.trim());
  if (!m) throw new Error(`${name}=${raw}: expected FROM-TO, e.g. 4700-4799`);
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (!(from > 0 && to >= from && to < 65536)) throw new Error(`${name}=${raw}: not a port range`);
  return { from, to };
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A port in `range` that nothing listens on right now (random order, each tried once). */
export async function freePort(range: PortRange, avoid: ReadonlySet<number> = new Set()) {
  const ports: number[] = [];
  for (let p = range.from; p <= range.to; p++) if (!avoid.has(p)) ports.push(p);
  for (let i = ports.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [ports[i], ports[j]] = [ports[j] as number, ports[i] as number];
  }
  for (const p of ports) if (await isFree(p)) return p;
  throw new Error(`no free loopback port in ${range.from}-${range.to}`);
}
