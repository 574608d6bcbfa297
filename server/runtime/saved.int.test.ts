/**
 * Where the composition root (index.ts) keeps saved timelines in cluster mode: with
 * PODSCOPE_DATABASE_URL in the cluster database, so two replicas (two runtimes, each with its own
 * data directory) serve the same ones and neither data directory holds them; without it (the
 * cluster timeline in SQLite) in the replica's own store, as before. Real nats-server and
 * PostgreSQL (test/cluster/harness).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeTimelineFile } from '@/lib/timeline/file';
import { sampleFile } from '@/lib/timeline/file/testing';
import { loadConfig } from '@/server/config';
import {
  natsMissing,
  startNatsAndPostgres,
  type NatsInstance,
  type PostgresInstance,
} from '@/test/cluster/harness';
import { startRuntime, type PodscopeRuntime } from './index';

const skip = natsMissing();
let nats: NatsInstance;
let pgi: PostgresInstance;
let url: string;
const dirs: string[] = [];
const runtimes: PodscopeRuntime[] = [];

beforeAll(async () => {
  if (skip) return;
  [nats, pgi] = await startNatsAndPostgres();
  url = await pgi.createDatabase('runtime_saved');
}, 120_000);

afterAll(async () => {
  for (const r of runtimes) await r.stop();
  await nats?.destroy();
  await pgi?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function replica(env: Record<string, string>): Promise<PodscopeRuntime> {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-runtime-saved-'));
  dirs.push(dir);
  const runtime = await startRuntime(
    loadConfig({ PODSCOPE_NATS_URL: nats.url, PODSCOPE_DATA_DIR: dir, ...env }),
  );
  runtimes.push(runtime);
  return runtime;
}

describe.skipIf(skip)('saved timelines in the cluster runtime', () => {
  it('with PostgreSQL: shared by the replicas, in no data directory', async () => {
    const env = { PODSCOPE_CLUSTER: 'rtsaved', PODSCOPE_DATABASE_URL: url };
    const a = await replica(env);
    const b = await replica(env);
    const saved = await a.timelines.importText(serializeTimelineFile(sampleFile()));
    expect((await b.timelines.list()).map((t) => t.id)).toEqual([saved.id]);
    expect((await b.timelines.get(saved.id)).title).toBe('web-1 crash loop');
    expect(a.store.listTimelines()).toEqual([]);
    expect(b.store.listTimelines()).toEqual([]);
    expect(await b.timelines.delete(saved.id)).toBe(true);
    expect(await a.timelines.exists(saved.id)).toBe(false);
  }, 60_000);

  it('with the cluster timeline in SQLite: in the replica’s own data directory, as before', async () => {
    const c = await replica({ PODSCOPE_CLUSTER: 'rtsqlite' });
    const saved = await c.timelines.importText(serializeTimelineFile(sampleFile()));
    expect(c.store.listTimelines().map((t) => t.id)).toEqual([saved.id]);
  }, 60_000);
});
