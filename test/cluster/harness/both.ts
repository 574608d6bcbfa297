import { startNats, type NatsInstance } from './nats';
import { startPostgres, type PostgresInstance } from './postgres';

/**
 * nats-server and PostgreSQL, started side by side. If either fails to start, the one that did
 * start is destroyed before the error is rethrown: a missing nats-server must not leave a
 * PostgreSQL running behind a suite (or a bench) that has already given up. `starts` is for tests.
 */
export async function startNatsAndPostgres(
  starts: { nats: () => Promise<NatsInstance>; postgres: () => Promise<PostgresInstance> } = {
    nats: startNats,
    postgres: startPostgres,
  },
): Promise<[NatsInstance, PostgresInstance]> {
  const [nats, pg] = await Promise.allSettled([starts.nats(), starts.postgres()]);
  if (nats.status === 'fulfilled' && pg.status === 'fulfilled') return [nats.value, pg.value];
  await Promise.all(
    [nats, pg].map((r) => (r.status === 'fulfilled' ? r.value.destroy() : Promise.resolve())),
  );
  const failed = [nats, pg].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  throw failed.length === 1 ? failed[0] : new AggregateError(failed, 'nats-server and PostgreSQL');
}
