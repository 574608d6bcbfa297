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
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NATS_PORTS } from './ports';
import { startService, type Service } from './service';

export const NATS_SERVER_BIN = process.env.PODSCOPE_NATS_SERVER ?? '/usr/sbin/nats-server';

export interface NatsInstance extends Service {
  readonly url: string;
}

export function natsMissing(): string | undefined {
  return existsSync(NATS_SERVER_BIN)
    ? undefined
    : `${NATS_SERVER_BIN} not found: apt-get install -y nats-server (.ci/run and npm test install it)`;
}

export async function startNats(): Promise<NatsInstance> {
  const missing = natsMissing();
  if (missing) throw new Error(missing);
  const service = await startService({
    what: 'nats-server',
    prefix: 'nats-',
    ports: NATS_PORTS,
    process: (port, dir) => ({
      name: `nats-server on 127.0.0.1:${port}`,
      command: NATS_SERVER_BIN,
      args: [
        '-a',
        '127.0.0.1',
        '-p',
        String(port),
        '-js',
        '-sd',
        join(dir, 'store'),
        '-n',
        `podscope-test-${port}`,
      ],
      ready: (out) => out.includes('Server is ready'),
      timeoutMs: 20_000,
    }),
    portInUse: /address already in use/i,
    // SIGTERM: JetStream flushes.
    stopSignal: 'SIGTERM',
  });
  return Object.defineProperty(service, 'url', {
    get: () => `nats://127.0.0.1:${service.port}`,
    enumerable: true,
  }) as NatsInstance;
}
