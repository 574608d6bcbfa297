/**
 * Issue 16 through the whole path in a browser: the embedded simulated nodes → the engine's
 * ListContainerStats and Status → the console's panel. The node panel shows the runtime's own
 * conditions (RuntimeReady / NetworkReady) and its pods' CPU and memory; the pod panel its
 * containers'. Run live; the browser demo's recording holds the same figures (server/demo/record.ts).
 */
import { expect, test } from '@playwright/test';
import { ConsolePage } from './pages/console';

test.use({ viewport: { width: 1440, height: 900 } });

test('node and pod panels show the runtime conditions and CPU / memory from ListContainerStats', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const c = new ConsolePage(page, 'live');
  await c.open();
  const nodeId = (await c.nodes.first().getAttribute('data-id')) ?? '';
  await c.open({ sel: nodeId }); // the URL holds the selection (a click could land on a pod)
  const panel = page.locator(`[data-panel-layer="node"][data-panel-id="${nodeId}"]`);
  await expect(
    panel.locator('[data-runtime-condition="RuntimeReady"][data-status="true"]'),
  ).toBeVisible();
  await expect(
    panel.locator('[data-runtime-condition="NetworkReady"][data-status="true"]'),
  ).toBeVisible();
  // No API server and no --kubelet-version: the newest minor's rules, said to be the default.
  await expect(
    panel.locator('[data-kubelet-version="1.36"][data-kubelet-version-source="default"]'),
  ).toContainText('Kubelet version not known');
  // Memory after the first sample (10 s), CPU once a second one gave a delta.
  const rows = panel.locator('[data-usage="node"] [data-usage-pod]');
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  await expect
    .poll(
      async () =>
        Number(await rows.first().locator('[data-memory-bytes]').getAttribute('data-memory-bytes')),
      {
        timeout: 60_000,
      },
    )
    .toBeGreaterThan(0);
  await expect
    .poll(
      async () =>
        await panel
          .locator('[data-usage="node"] [data-cpu-cores]:not([data-cpu-cores=""])')
          .count(),
      {
        timeout: 60_000,
      },
    )
    .toBeGreaterThan(0);

  const podUid = (await rows.first().getAttribute('data-usage-pod')) ?? '';
  await c.open({ sel: podUid });
  const pod = page.locator(`[data-panel-layer="pod"][data-panel-id="${podUid}"]`);
  await expect(pod.locator('[data-usage="pod"] [data-usage-container]').first()).toBeVisible();
  await expect(pod.locator('[data-usage="pod"] [data-usage-total]')).toBeVisible();
});
