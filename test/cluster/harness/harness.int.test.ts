import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BASE_DIR,
  startNats,
  startNatsAndPostgres,
  startPostgres,
  sweepStale,
  NATS_PORTS,
  PG_PORTS,
} from './index';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('nats-server harness', () => {
  it('runs JetStream on a loopback port of the range; stop/start keeps the store; destroy leaves nothing', async () => {
    const nats = await startNats();
    try {
      expect(nats.port).toBeGreaterThanOrEqual(NATS_PORTS.from);
      expect(nats.port).toBeLessThanOrEqual(NATS_PORTS.to);
      const pid = nats.pid as number;
      expect(alive(pid)).toBe(true);

      let nc = await connect({ servers: nats.url });
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'H', subjects: ['h.>'] });
      await jetstream(nc).publish('h.1', 'one');
      await nc.close();

      await nats.stop();
      await nats.stop(); // idempotent
      expect(nats.running).toBe(false);
      expect(alive(pid)).toBe(false);
      await nats.start();
      nc = await connect({ servers: nats.url });
      const info = await (await jetstreamManager(nc)).streams.info('H');
      expect(info.state.messages).toBe(1);
      await nc.close();
    } finally {
      const pid = nats.pid;
      await nats.destroy();
      await nats.destroy();
      expect(existsSync(nats.dir)).toBe(false);
      if (pid) expect(alive(pid)).toBe(false);
    }
  });
});

describe('PostgreSQL harness', () => {
  let pgi: Awaited<ReturnType<typeof startPostgres>> | undefined;
  afterAll(async () => {
    await pgi?.destroy();
  });

  it('runs PG 15 as postgres on loopback; data survives stop, crash (kill) and restart', async () => {
    pgi = await startPostgres();
    expect(pgi.port).toBeGreaterThanOrEqual(PG_PORTS.from);
    expect(pgi.port).toBeLessThanOrEqual(PG_PORTS.to);
    const url = await pgi.createDatabase('harness');
    const q = async (sql: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(sql)).rows as Record<string, unknown>[];
      } finally {
        await c.end();
      }
    };
    expect(
      ((await q('SHOW server_version'))[0] as { server_version: string }).server_version,
    ).toMatch(/^15\./);
    await q('CREATE TABLE t (x int)');
    await q('INSERT INTO t VALUES (1)');
    await pgi.restart();
    await q('INSERT INTO t VALUES (2)');
    await pgi.kill();
    expect(pgi.running).toBe(false);
    await pgi.start();
    expect((await q('SELECT count(*)::int AS n FROM t'))[0]).toEqual({ n: 2 });
    const dir = pgi.dir;
    await pgi.destroy();
    await pgi.destroy();
    expect(existsSync(dir)).toBe(false);
  });
});

describe('both servers at once', () => {
  it('destroys the one that started when the other cannot start, and rethrows', async () => {
    let started: { pid: number; dir: string } | undefined;
    const missing = new Error('/usr/sbin/nats-server not found: apt-get install -y nats-server');
    await expect(
      startNatsAndPostgres({
        nats: () => Promise.reject(missing),
        postgres: async () => {
          const pgi = await startPostgres();
          started = { pid: pgi.pid as number, dir: pgi.dir };
          return pgi;
        },
      }),
    ).rejects.toBe(missing);
    expect(started).toBeDefined();
    expect(alive(started!.pid)).toBe(false);
    expect(existsSync(started!.dir)).toBe(false);
  });
});

describe('stale instance sweep', () => {
  it('removes folders whose owner process is gone and keeps live ones', () => {
    mkdirSync(BASE_DIR, { recursive: true });
    const stale = join(BASE_DIR, 'nats-stale-test');
    mkdirSync(stale, { recursive: true });
    // PID 2^22+1 is above pid_max's default ceiling: never a live process.
    writeFileSync(join(stale, 'owner.json'), JSON.stringify({ ownerPid: 4_194_305 }));
    const mine = join(BASE_DIR, 'nats-live-test');
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, 'owner.json'), JSON.stringify({ ownerPid: process.pid }));
    const removed = sweepStale('nats-');
    expect(removed).toContain(stale);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(mine)).toBe(true);
    sweepStale('nothing-');
    // clean up our own "live" folder
    writeFileSync(join(mine, 'owner.json'), JSON.stringify({ ownerPid: 4_194_305 }));
    sweepStale('nats-live-');
    expect(existsSync(mine)).toBe(false);
  });
});
