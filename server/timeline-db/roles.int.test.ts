/**
 * Least privilege on a real PostgreSQL 15: the owner migrates (`podscope migrate --grant`), the
 * console role reads and writes the timeline and can do nothing else.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresInstance } from '@/test/cluster/harness';
import { ClusterCheckpoints } from '@/server/cluster/timeline/checkpoints';
import { storedMessage } from '@/server/cluster/timeline/rows';
import { openClusterTimeline } from '@/server/cluster/timeline/timeline';
import { newEpoch } from '@/server/cluster/envelope';
import { eventsMessage } from '@/server/cluster/testing';
import { migrateCommand } from '@/server/cli/commands/migrate';
import { emptyState } from '@/lib/timeline/state';
import { checkRoleName } from './roles';
import { LATEST_MIGRATION } from './schema';

const DAY = 86_400_000;
let pgi: PostgresInstance;
let n = 0;

beforeAll(async () => {
  pgi = await startPostgres();
});
afterAll(async () => {
  await pgi?.destroy();
});

async function superuser<T>(database: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: pgi.url(database) });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A database owned by its own owner role, and a console role with nothing yet. */
async function setup() {
  const id = ++n;
  const owner = `owner_${id}`;
  const consoleRole = `console_${id}`;
  const database = `roles_${id}`;
  await superuser('postgres', async (c) => {
    await c.query(`CREATE ROLE ${owner} LOGIN`);
    await c.query(`CREATE ROLE ${consoleRole} LOGIN`);
    await c.query(`CREATE DATABASE ${database} OWNER ${owner}`);
  });
  const url = (role: string) => pgi.url(database).replace('postgres@', `${role}@`);
  return { owner, consoleRole, database, ownerUrl: url(owner), consoleUrl: url(consoleRole) };
}

async function migrate(args: string[]): Promise<{ code: number; out: string }> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (s: string | Uint8Array) => {
    chunks.push(String(s));
    return true;
  };
  try {
    const code = await migrateCommand.run(args);
    return { code, out: chunks.join('') };
  } finally {
    process.stdout.write = write;
  }
}

/** The error code PostgreSQL refuses `query` with, run as `url`'s role (undefined: it ran). */
async function refused(url: string, query: string): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(query);
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  } finally {
    await c.end();
  }
}

describe('PostgreSQL roles: the owner migrates, consoles only read and write rows', () => {
  it('a console role granted by `podscope migrate` writes, reads, partitions, checkpoints and retains', async () => {
    const s = await setup();
    const res = await migrate(['--database-url', s.ownerUrl, '--grant', s.consoleRole]);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`to ${LATEST_MIGRATION}`);
    expect(res.out).toContain(`granted ${s.consoleRole}`);
    // twice is the same
    expect((await migrate(['--database-url', s.ownerUrl, '--grant', s.consoleRole])).code).toBe(0);

    const tl = await openClusterTimeline({ url: s.consoleUrl, migrate: 'off' });
    try {
      const now = Date.UTC(2026, 11, 10, 12);
      const epoch = newEpoch();
      // four days: four partitions made through the owner's function
      for (let d = 0; d < 4; d++)
        await tl.insert([
          storedMessage(d + 1, eventsMessage('c', 'n', epoch, d * 10 + 1, 10, now - d * DAY)),
        ]);
      expect(await tl.listPartitions()).toHaveLength(4);
      expect(await tl.count()).toBe(40);
      expect((await tl.eventsAfter(0, 5)).length).toBe(5);
      const checkpoints = new ClusterCheckpoints(tl);
      await checkpoints.write({ gid: 4096, tMax: now, epochs: {}, state: emptyState() });
      const dropped = await tl.retention({ maxAgeMs: 1.5 * DAY }, now);
      expect(dropped.droppedPartitions).toHaveLength(2);
      expect(await tl.count()).toBe(20);
    } finally {
      await tl.close();
    }
  });

  it('the console role is refused DDL, the migration record, other schemas and the functions of others', async () => {
    const s = await setup();
    expect((await migrate(['--database-url', s.ownerUrl, '--grant', s.consoleRole])).code).toBe(0);
    await superuser(s.database, async (c) => {
      await c.query('CREATE SCHEMA other');
      await c.query('CREATE TABLE other.secrets (v text)');
    });
    const denied = '42501'; // insufficient_privilege
    const owner = (q: string) => refused(s.consoleUrl, q);
    expect(await owner('CREATE TABLE mine (a int)')).toBe(denied);
    expect(await owner('DROP TABLE cluster_messages')).toBe(denied);
    expect(await owner('ALTER TABLE checkpoints ADD COLUMN x int')).toBe(denied);
    expect(await owner('TRUNCATE cluster_messages')).toBe(denied);
    expect(await owner("INSERT INTO kysely_migration (name, timestamp) VALUES ('x', 'y')")).toBe(
      denied,
    );
    expect(await owner('DELETE FROM kysely_migration')).toBe(denied);
    expect(await owner('SELECT * FROM other.secrets')).toBe(denied);
    expect(await owner('CREATE SCHEMA mine')).toBe(denied);
    // what it may do
    expect(await owner('SELECT count(*) FROM kysely_migration')).toBeUndefined();
    expect(await owner('SELECT count(*) FROM saved_timelines')).toBeUndefined();
    // another role (never granted) may not even call the partition functions
    await superuser('postgres', (c) => c.query('CREATE ROLE stranger LOGIN'));
    const stranger = s.consoleUrl.replace(`${s.consoleRole}@`, 'stranger@');
    expect(await refused(stranger, 'SELECT podscope_create_day_partition(1)')).toBe(denied);
    await superuser('postgres', (c) => c.query('DROP OWNED BY stranger; DROP ROLE stranger'));
  });

  it('a console that may not migrate says what to run, on an empty or an older schema', async () => {
    const s = await setup();
    await expect(openClusterTimeline({ url: s.consoleUrl, migrate: 'off' })).rejects.toThrow(
      /schema is not there yet: run `podscope migrate`/,
    );
    // migrating as the console role fails: it may not create in the schema
    await expect(openClusterTimeline({ url: s.consoleUrl })).rejects.toThrow(
      /migrating the timeline .* failed: permission denied/,
    );
    // an older schema (the owner migrated to 0008 only)
    await (
      await openClusterTimeline({ url: s.ownerUrl, migrateTo: '0008_one_checkpoints_table' })
    ).close();
    await superuser(s.database, (c) =>
      c.query(
        `GRANT SELECT ON kysely_migration TO ${s.consoleRole}; GRANT USAGE ON SCHEMA public TO ${s.consoleRole}`,
      ),
    );
    await expect(openClusterTimeline({ url: s.consoleUrl, migrate: 'off' })).rejects.toThrow(
      /lacks 0009_partition_functions: run `podscope migrate`/,
    );
  });

  it('refuses role names that are not plain identifiers, and a role that does not exist', async () => {
    for (const bad of ['Console', 'a;drop table x', 'x"y', '', '1abc'])
      expect(() => checkRoleName(bad)).toThrow(/lower-case PostgreSQL identifier/);
    const s = await setup();
    await expect(migrate(['--database-url', s.ownerUrl, '--grant', 'nobody_here'])).rejects.toThrow(
      /role "nobody_here" does not exist/,
    );
  });
});
