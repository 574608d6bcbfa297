/**
 * The cluster-mode composition root (cluster.ts) with an API server: PODSCOPE_KUBECONFIG makes
 * the replica take part in the Lease election of the configured Lease, the holder watches the
 * fake API server, and a clean stop releases the Lease and closes the watches. Real nats-server
 * (test/cluster/harness); the cluster timeline in SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/server/config';
import { FakeApiServer, seed, waitFor } from '@/test/fake-apiserver';
import { natsMissing, startNats, type NatsInstance } from '@/test/cluster/harness';
import { startCluster } from './cluster';

const skip = natsMissing();
let nats: NatsInstance;
let api: FakeApiServer;
let dir: string;

beforeAll(async () => {
  if (skip) return;
  nats = await startNats();
  api = new FakeApiServer();
  seed(api.store);
  await api.start();
  dir = mkdtempSync(join(tmpdir(), 'podscope-cluster-runtime-'));
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await nats?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const holder = () =>
  (api.store.get('leases', 'team-a', 'console-view')?.spec as { holderIdentity?: string })
    ?.holderIdentity;

describe.skipIf(skip)('the cluster runtime with an API server', () => {
  it('elects through the configured Lease, watches the API server while it holds it, releases it on stop', async () => {
    const config = loadConfig({
      PODSCOPE_NATS_URL: nats.url,
      PODSCOPE_CLUSTER: 'runtime',
      PODSCOPE_DATA_DIR: dir,
      PODSCOPE_KUBECONFIG: api.writeKubeconfig(),
      PODSCOPE_LEASE_NAME: 'console-view',
      PODSCOPE_LEASE_NAMESPACE: 'team-a',
      PODSCOPE_LEASE_DURATION_MS: '3000',
    });
    expect(config.cluster.lease).toEqual({
      name: 'console-view',
      namespace: 'team-a',
      durationMs: 3000,
    });
    const lines: string[] = [];
    const parts = await startCluster(config, (line) => lines.push(line));
    try {
      await waitFor('the Lease held', () => /_\d+_[0-9a-f]{6}$/.test(holder() ?? ''), 15_000);
      await waitFor('the API watches', () => api.openWatches() === 4, 15_000);
      expect(await parts.source.metrics()).toMatch(/^podscope_cluster_api_view_leading 1$/m);
      expect(lines.some((l) => l.includes('electing through the Lease team-a/console-view'))).toBe(
        true,
      );
    } finally {
      for (const stop of parts.stops) await stop();
    }
    expect(holder()).toBe('');
    await waitFor('the watches closed', () => api.openWatches() === 0, 5_000);
  }, 60_000);

  it('refuses a Lease name or duration it cannot use, naming the setting', () => {
    expect(() => loadConfig({ PODSCOPE_LEASE_NAME: 'Not_A_Name' })).toThrow(ConfigError);
    expect(() => loadConfig({ PODSCOPE_LEASE_NAME: 'Not_A_Name' })).toThrow(
      /cluster\.lease\.name: a Lease name is a DNS-1123 subdomain/,
    );
    expect(() => loadConfig({ PODSCOPE_LEASE_DURATION_MS: '100' })).toThrow(
      /cluster\.lease\.durationMs/,
    );
  });
});
