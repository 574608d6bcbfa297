/**
 * One checkpoint keeper at a time among the replicas sharing a timeline. Every replica folds the
 * same committed events into the same checkpoints, so a second keeper only repeats the work (a
 * fold and a ~110 MB encode at 5,000 nodes); with this lock one replica keeps the checkpoints and
 * runs retention, and when it dies another takes over at its next look.
 *
 * PostgreSQL: a session advisory lock taken on a connection of its own (a pooled connection
 * would carry the lock to whatever query used it next). The server releases it when that session
 * ends — the holder exits, is killed, or loses its connection — and the next `held()` of another
 * replica gets it. SQLite: one replica per file, so always held.
 *
 * The lock saves work; it does not guard correctness. Two keepers writing at once (a holder that
 * has not yet noticed its session is gone) write the same state at a gid, or valid states at
 * different gids, and `ClusterCheckpoints.write` keeps the first at each gid.
 */
import pg from 'pg';
import { isPostgresUrl, type OpenOptions } from '@/server/timeline-db/open';

export interface KeeperLock {
  /** Whether this replica keeps the checkpoints now (taking the lock when it is free). */
  held(): Promise<boolean>;
  /** Gives the lock up (closes its session). */
  close(): Promise<void>;
}

/** pg_try_advisory_lock(int4, int4): 'pods' and the checkpoint keeper's number. */
const LOCK_KEYS = [0x706f6473, 1] as const;

export function keeperLock(options: OpenOptions): KeeperLock {
  if (options.url && isPostgresUrl(options.url)) return new PostgresKeeperLock(options.url);
  return { held: () => Promise.resolve(true), close: () => Promise.resolve() };
}

class PostgresKeeperLock implements KeeperLock {
  private client: pg.Client | undefined;
  private holding = false;
  private closed = false;

  constructor(private readonly url: string) {}

  async held(): Promise<boolean> {
    if (this.closed) return false;
    try {
      const client = this.client ?? (await this.connect());
      // While holding, a round trip proves the session (and with it the lock) is still there.
      if (this.holding) await client.query('SELECT 1');
      else {
        const res = await client.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_lock($1, $2) AS ok',
          [...LOCK_KEYS],
        );
        this.holding = res.rows[0]?.ok === true;
      }
      return this.holding;
    } catch {
      this.drop();
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    // A lost session is a lost lock: the next look connects again and tries for it.
    const lost = () => {
      if (this.client === client) this.drop();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }

  private drop(): void {
    const client = this.client;
    this.client = undefined;
    this.holding = false;
    client?.end().catch(() => undefined);
  }
}
