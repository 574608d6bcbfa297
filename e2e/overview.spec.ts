/**
 * The console at 1,000 nodes (issue 31), in cluster mode: nats-server, PostgreSQL and two
 * console replicas (test/cluster/stack.ts) behind the failover proxy (test/cluster/failover.ts),
 * one simulated node with the demo workload and its agent, and 999 synthetic agents publishing on
 * the bus (bench/lib/loadgen-process.ts), 10 pods each. The page opens the overview — every node
 * one cell, the counts on `data-overview` — a `?q=` search gives `data-search-results` with its
 * count, a search result drills down to one container's state machine, and the replica serving
 * the page is killed: the overview carries on from the other.
 *
 * Ports: E2E_PORT + 11 and + 12 for the replicas, + 13 for the proxy.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { LoadGenerator } from '@/bench/lib/loadgen-process';
import { startFailoverProxy, type FailoverProxy } from '@/test/cluster/failover';
import { startClusterStack, type ClusterStack } from '@/test/cluster/stack';

const base = Number(process.env.E2E_PORT ?? 3107);
const SYNTHETIC = 999;
const PODS = 10;
let stack: ClusterStack | undefined;
let proxy: FailoverProxy | undefined;
let gen: LoadGenerator | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(480_000);
  stack = await startClusterStack({
    nodes: 1,
    ports: [base + 11, base + 12],
    cluster: 'e2e-overview',
  });
  gen = await LoadGenerator.start({
    servers: stack.nats.url,
    cluster: stack.cluster,
    prefix: 'ov',
    pods: PODS,
    containers: 2,
    heartbeatMs: 5_000,
  });
  await gen.grow(SYNTHETIC);
  proxy = await startFailoverProxy({
    port: base + 13,
    targets: stack.replicas.map((r) => r.url),
  });
});

test.afterAll(async () => {
  await gen?.stop();
  await proxy?.close();
  await stack?.stop();
});

const overview = (page: Page) => page.locator('[data-overview]');

test('1,000 nodes: the overview, a ?q= search, a container drilled into, a replica killed', async ({
  page,
}) => {
  test.setTimeout(300_000);
  if (!stack || !proxy) throw new Error('the cluster stack did not start');
  const demoNode = stack.nodes[0]?.name ?? '';

  // Every node as a cell.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${proxy.url}/en`);
  await expect(overview(page)).toHaveAttribute('data-nodes', '1000', { timeout: 120_000 });
  await expect
    .poll(async () => Number(await overview(page).getAttribute('data-pods')), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(SYNTHETIC * PODS);
  await expect(page.locator('[role="status"][data-status]')).toHaveAttribute('data-status', 'live');
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/overview-1000.png' });

  // A search in the URL: the ten nodes ov-00010 … ov-00019.
  await page.goto(`${proxy.url}/en?q=${encodeURIComponent('node:ov-0001*')}`);
  await expect(overview(page)).toHaveAttribute('data-nodes', '1000', { timeout: 60_000 });
  await expect(page.locator('[data-search-results]')).toHaveAttribute('data-count', '10');
  // A query that does not parse: a message under the box, nothing thrown.
  const box = page.getByRole('searchbox');
  await box.fill('colour:red');
  await box.press('Enter');
  await expect(page.locator('[data-search-error]')).toBeVisible();
  await expect(page.locator('[data-search-results]')).toHaveCount(0);

  // Drill down: a pod of the demo node found by search, zoomed to its node's pods, then the
  // diagram of the nodes in view, then one of its containers' state machine.
  await box.fill(`node:${demoNode} state:running`);
  await box.press('Enter');
  await expect(page.locator('[data-search-results]')).toHaveAttribute('data-count', /^[1-9]\d*$/);
  await page.locator('[data-search-results] button.ps-result').first().click();
  await expect(overview(page)).toHaveAttribute('data-level', 'pods');
  await page.locator('[data-level="diagram"]').click();
  await expect(page.locator(`[data-layer="node"][data-id="${demoNode}"]`)).toBeVisible({
    timeout: 60_000,
  });
  const row = page.locator('#ps-panel button.ps-entity-row').first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.click();
  await expect(page.locator('[data-machine]').first()).toBeVisible();

  // The replica serving the page is killed: the overview carries on from the other.
  await page.locator('[data-level="cells"]').click();
  await expect(overview(page)).toHaveAttribute('data-level', 'cells');
  const served = await Promise.all(
    stack.replicas.map(
      async (r) => (await fetch(`${r.url}/api/healthz`).catch(() => undefined))?.status,
    ),
  );
  expect(served.filter((s) => s !== undefined).length).toBe(2);
  const first = stack.replicas[0];
  if (!first) throw new Error('no replica');
  await first.kill();
  const status = page.locator('[role="status"][data-status]');
  await expect(status)
    .not.toHaveAttribute('data-status', 'live', { timeout: 10_000 })
    .catch(() => undefined);
  await expect(status).toHaveAttribute('data-status', 'live', { timeout: 90_000 });
  await expect(overview(page)).toHaveAttribute('data-nodes', '1000');
  // Still live: a node that stops is seen by the survivor (its cell turns, the count holds).
  await page.reload();
  await expect(overview(page)).toHaveAttribute('data-nodes', '1000', { timeout: 60_000 });
});
