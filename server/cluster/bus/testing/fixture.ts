/** The bus's integration tests' set-up: one nats-server per file, connections closed after it. */
import { afterAll, beforeAll } from 'vitest';
import { startNats, type NatsInstance } from '@/test/cluster/harness';
import { connectBus, type BusConnection, type BusOptions } from '../connection';

export interface BusFixture {
  readonly nats: NatsInstance;
  /** Lines the connections' refusals logged. */
  readonly logs: string[];
  connect: (cluster: string, limits?: BusOptions['limits']) => Promise<BusConnection>;
}

export function busFixture(): BusFixture {
  let nats: NatsInstance | undefined;
  const open: BusConnection[] = [];
  const logs: string[] = [];
  beforeAll(async () => {
    nats = await startNats();
  });
  afterAll(async () => {
    for (const b of open) await b.close();
    await nats?.destroy();
  });
  const fx: BusFixture = {
    get nats() {
      if (!nats) throw new Error('busFixture: nats-server is not started yet (use it in a test)');
      return nats;
    },
    logs,
    async connect(cluster, limits) {
      const b = await connectBus({
        servers: fx.nats.url,
        cluster,
        ...(limits ? { limits } : {}),
        log: (l) => logs.push(l),
      });
      open.push(b);
      return b;
    },
  };
  return fx;
}
