/**
 * "Running, not ready" in the panel's state machine, live on the npm-start demo: shop/cart's
 * readiness probe flaps (server/demo/workload.ts), so its selected container moves
 * running → not ready → running, each move animated along its edge (the travelling dot) and
 * labelled with what the prober changed; the diagram's pill says the same with `data-ready`.
 */
import { expect, test } from '@playwright/test';
import { ConsolePage } from './pages/console';

test.use({ viewport: { width: 1440, height: 900 } });

test('the cart container moves between Running and Running-not-ready, animated', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const c = new ConsolePage(page, 'live');
  await c.open();
  const pill = page.locator('[data-layer="container"][data-id$="/cart"]').first();
  await expect(pill).toBeVisible({ timeout: 60_000 });
  const id = (await pill.getAttribute('data-id')) ?? '';
  await c.select(id);
  const machine = page.locator('[data-panel-layer="container"] [data-machine="container"]');
  await expect(machine).toBeVisible();

  // From a ready moment on, both moves as they happen live: each is animated — the edge
  // flashes and a dot travels it.
  await expect(machine).toHaveAttribute('data-current', 'running', { timeout: 60_000 });
  for (const [state, edge, label] of [
    ['unready', 'running->unready', 'ready=false'],
    ['running', 'unready->running', 'ready=true'],
  ] as const) {
    await expect(machine).toHaveAttribute('data-current', state, { timeout: 60_000 });
    const moved = machine.locator(`[data-edge="${edge}"]`);
    await expect(moved).toHaveClass(/is-last/);
    await expect(moved).toHaveClass(/is-animating/);
    await expect(machine.locator('.ps-machine-label text')).toHaveAttribute('data-cause', label);
    if (state === 'unready') {
      await expect(machine).toHaveAttribute('data-ready', 'notready');
      await expect(machine.locator('[data-state="unready"]')).toContainText('Running, not ready');
      await expect(pill).toHaveAttribute('data-ready', 'notready');
    } else {
      await expect(machine).not.toHaveAttribute('data-ready', /./);
      await expect(pill).toHaveAttribute('data-ready', 'ready');
    }
  }
  await expect(machine.locator('.ps-machine-dot')).toHaveCount(1);
  // Never restarted for it.
  await expect(c.restartCount).toHaveText('0');
});
