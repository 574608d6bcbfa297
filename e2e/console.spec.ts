/**
 * The console's "Done when": the three layers render; a crash-looping container goes
 * Running → Terminated → Waiting (CrashLoopBackOff) with restartCount rising; scrubbing back
 * shows the earlier state; a link with a cursor time opens at that time.
 */
import { expect, test } from '@playwright/test';
import { ConsolePage, SOURCES } from './pages/console';

// The layout the console is designed for; the scrubber's precision depends on the track width.
test.use({ viewport: { width: 1440, height: 900 } });

for (const source of SOURCES) {
  test.describe(`console (${source})`, () => {
    test('draws nodes, the pods inside them and the containers inside those', async ({ page }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      await expect(c.pods.first()).toBeVisible();
      await expect(c.containers.first()).toBeVisible();
      expect(await c.nodes.count()).toBeGreaterThanOrEqual(1);

      for (const node of await c.nodes.all()) {
        expect(await node.getAttribute('data-state')).toMatch(/^(ready|notready|unknown)$/);
      }
      for (const pod of await c.pods.all()) {
        expect(await pod.getAttribute('data-state')).toMatch(
          /^(pending|running|succeeded|failed|unknown)$/,
        );
        // A pod is drawn inside its node's card.
        expect(
          await pod.evaluate((el) =>
            el.parentElement?.closest('[data-layer]')?.getAttribute('data-layer'),
          ),
        ).toBe('node');
      }
      for (const container of await c.containers.all()) {
        expect(await container.getAttribute('data-state')).toMatch(
          /^(waiting|running|terminated)$/,
        );
        const id = await container.getAttribute('data-id');
        const podId = await container.evaluate((el) =>
          el.parentElement?.closest('[data-layer="pod"]')?.getAttribute('data-id'),
        );
        expect(id?.startsWith(`${podId}/`)).toBe(true);
      }
    });

    test('a crash-looping container goes Running → Terminated → Waiting (CrashLoopBackOff), restartCount rising', async ({
      page,
    }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      const id = await c.crashLoopingContainer();
      await c.select(id);
      // The kubelet restarts a container's first exit at once (its back-off entry starts then):
      // only from the second exit on is there a CrashLoopBackOff in between. So the run walked
      // back to below must itself be a restart, and live must be past it.
      await expect.poll(() => c.restarts(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      await expect(page.getByTestId('entity-state')).toContainText('CrashLoopBackOff', {
        timeout: 60_000,
      });
      const atLive = await c.restarts();

      // Walk back through this container's own events (the log follows the selection) to a run
      // that has since been restarted.
      let steps = 0;
      for (;;) {
        const { state } = await c.stateOf(id);
        const restarts = await c.restarts();
        if (state === 'running' && restarts >= 1 && restarts < atLive) break;
        if (++steps > 60) throw new Error(`no earlier run of ${id} in the buffered history`);
        await c.previous.click();
      }
      expect(await c.isLive()).toBe(false);
      const before = await c.restarts();

      // Forward: it exits, the kubelet backs off, and it runs again with one more restart.
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        await c.next.click();
        const { state, reason } = await c.stateOf(id);
        const entry = `${state}${reason ? `:${reason}` : ''}`;
        if (seen[seen.length - 1] !== entry) seen.push(entry);
        if (state === 'running') break;
      }
      const terminated = seen.findIndex((s) => s.startsWith('terminated'));
      const backoff = seen.indexOf('waiting:CrashLoopBackOff');
      expect(terminated, seen.join(' → ')).toBeGreaterThanOrEqual(0);
      expect(backoff, seen.join(' → ')).toBeGreaterThan(terminated);
      expect(seen[seen.length - 1]).toBe('running');
      expect(await c.restarts()).toBe(before + 1);
    });

    test('scrubbing back shows the earlier state, and Live returns to now', async ({ page }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      const id = await c.crashLoopingContainer();
      await c.select(id);
      const atLive = await c.restarts();

      // The first time the selected container started, from its own log rows.
      const firstRun = c.logRows.filter({ hasText: '→ Running' }).last();
      const t = Number(await firstRun.getAttribute('data-t'));
      await c.scrubTo(t + 3000);

      await expect.poll(() => c.isLive()).toBe(false);
      const { now, max } = await c.slider();
      expect(Math.abs(now - (t + 3000))).toBeLessThan(10_000);
      expect(now).toBeLessThan(max);
      await expect.poll(() => c.restarts()).toBeLessThan(atLive);
      await expect(page).toHaveURL(/[?&]at=/);

      await c.live.click();
      await expect.poll(() => c.isLive()).toBe(true);
      await expect.poll(() => c.restarts()).toBeGreaterThanOrEqual(atLive);
      await expect(page).not.toHaveURL(/[?&]at=/);
    });

    test('a link with a cursor time opens at that time', async ({ page, browser }) => {
      const c = new ConsolePage(page, source);
      await c.open();
      const id = await c.crashLoopingContainer();
      await c.select(id);
      const atLive = await c.restarts();
      // Jump to an earlier exit of the container from the log (log → diagram and cursor).
      const exit = c.logRows.filter({ hasText: 'ContainerExited' }).nth(1);
      await exit.click();
      await expect(page).toHaveURL(/[?&]at=/);
      const link = page.url();
      const there = {
        ...(await c.stateOf(id)),
        restarts: await c.restarts(),
        cursor: (await c.slider()).now,
      };
      expect(there.restarts).toBeLessThan(atLive);
      expect(there.state).not.toBe('running');

      const other = await browser.newContext();
      const p2 = await other.newPage();
      const c2 = new ConsolePage(p2, source);
      await c2.openUrl(link);
      await expect(c2.restartCount).toBeVisible();
      expect(await c2.isLive()).toBe(false);
      await expect
        .poll(async () => Math.abs((await c2.slider()).now - there.cursor))
        .toBeLessThan(1000);
      await expect.poll(() => c2.stateOf(id)).toEqual({ state: there.state, reason: there.reason });
      expect(await c2.restarts()).toBe(there.restarts);
      await other.close();
    });
  });
}
