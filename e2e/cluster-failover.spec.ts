/**
 * Cluster mode, a console replica killed while a browser watches (issue 13): nats-server,
 * PostgreSQL, simulated nodes with the demo workload, an agent per node and two console
 * replicas (test/cluster/stack.ts, as `npm run cluster:demo` runs them), behind a loopback proxy
 * that sends each request to the first replica accepting connections (test/cluster/failover.ts).
 * The serving replica is SIGKILLed; the page's event stream reconnects through the proxy to the
 * other replica with its Last-Event-ID and carries on: every global id after the page's snapshot
 * that PostgreSQL holds reached the page once, in order, with no second snapshot. The time from
 * the kill to the next event the page receives is the bench key replica_failover_gap_ms.
 *
 * Ports: E2E_PORT + 1 and + 2 for the replicas, + 3 for the proxy; nats-server and PostgreSQL
 * take theirs from PODSCOPE_TEST_NATS_PORTS / PODSCOPE_TEST_PG_PORTS (test/cluster/harness).
 */
import { expect, test } from '@playwright/test';
import { openClusterTimeline } from '@/server/cluster/timeline/timeline';
import {
  killServingReplica,
  startFailoverProxy,
  type FailoverProxy,
} from '@/test/cluster/failover';
import { startClusterStack, type ClusterStack } from '@/test/cluster/stack';

const base = Number(process.env.E2E_PORT ?? 3107);
let stack: ClusterStack | undefined;
let proxy: FailoverProxy | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  stack = await startClusterStack({ nodes: 3, ports: [base + 1, base + 2], cluster: 'e2e' });
  proxy = await startFailoverProxy({
    port: base + 3,
    targets: stack.replicas.map((r) => r.url),
  });
});

test.afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

test('the serving replica killed: the page carries on from the other, no gap, no duplicate', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  if (!stack || !proxy) throw new Error('the cluster stack did not start');
  const tap = proxy;
  await page.goto(`${tap.url}/en`);
  await expect(page.locator('[data-layer="node"]').first()).toBeVisible({ timeout: 60_000 });
  const status = page.locator('[role="status"][data-status]');
  await expect(status).toHaveAttribute('data-status', 'live');
  // Live events reach the page from the first replica.
  await expect.poll(() => tap.received.length, { timeout: 90_000 }).toBeGreaterThan(3);
  expect(tap.snapshots).toHaveLength(1);
  const lastBefore = tap.received.at(-1)?.seq ?? 0;
  const failover = await killServingReplica(tap, stack.replicas);
  const survivor = stack.replicas.find((r) => r.url !== failover.killed);
  if (!survivor) throw new Error('no second replica');
  info.annotations.push({ type: 'replica_failover_gap_ms', description: String(failover.gapMs) });
  console.log(
    `replica_failover_gap_ms ${failover.gapMs} (reconnected after ${failover.reconnectMs} ms)`,
  );

  // The page goes on from the survivor, live.
  await expect
    .poll(() => tap.received.filter((r) => r.target === survivor.url).length, { timeout: 60_000 })
    .toBeGreaterThan(3);
  await expect(status).toHaveAttribute('data-status', 'live');
  expect(tap.snapshots).toHaveLength(1); // resumed, not restarted
  expect(Number(failover.resumedFrom)).toBeGreaterThanOrEqual(lastBefore);
  expect(tap.received.length).toBeGreaterThan(failover.before);
  expect(tap.check()).toEqual({ duplicates: [], outOfOrder: [] });

  // No gap: every event PostgreSQL holds after the page's snapshot, up to the last the page got.
  // What the page had at this moment: events go on arriving while PostgreSQL is read.
  const got = tap.received.map((r) => r.seq);
  const from = tap.snapshots[0]?.seq ?? 0;
  const to = got.at(-1) ?? 0;
  const timeline = await openClusterTimeline({ url: stack.databaseUrl });
  try {
    // A message the killed replica's writer had fetched but not committed is redelivered to the
    // survivor's after the consumer's ack wait (30 s): wait for the database to hold all of it.
    await expect
      .poll(
        async () => {
          const rows = await timeline.eventsAfter(from, 1_000_000, to);
          return rows.filter((e) => e.kind !== 'gap').map((e) => e.seq);
        },
        { timeout: 90_000, intervals: [500] },
      )
      .toEqual(got);
  } finally {
    await timeline.close();
  }
});
