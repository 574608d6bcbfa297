/**
 * Shareable incident timelines, end to end on the embedded simulated nodes:
 * 1. mark a period, save it with a title and an annotation pinned to a pod, copy the link, open
 *    it in a new browser context → the same view (state for state), read-only, annotation shown;
 * 2. importing a malformed file → a clear, located error;
 * 3. a hostile file (markup in pod names, container messages, annotation text) → rendered as
 *    inert text: no dialog, no script run, no injected element.
 */
import { expect, test, type Page } from '@playwright/test';
import { ConsolePage } from './pages/console';

test.use({ viewport: { width: 1440, height: 900 } });

type Drawn = [string | undefined, string | undefined, string | undefined, string | undefined][];

/** Every drawn entity with its state: what "the same view" means, comparably. */
async function drawn(page: Page): Promise<Drawn> {
  const rows = await page.locator('[data-layer][data-id]').evaluateAll((els): Drawn =>
    els.map((e) => {
      const d = e instanceof HTMLElement || e instanceof SVGElement ? e.dataset : {};
      return [d.layer, d.id, d.state, d.reason];
    }),
  );
  return rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** Fails the test if any JavaScript dialog opens (alert, confirm, prompt). */
function forbidDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (d) => {
    opened.push(d.message());
    void d.dismiss();
  });
  return opened;
}

async function saveFromLiveConsole(
  page: Page,
  title: string,
  note: string,
): Promise<{ url: string; podId: string }> {
  const c = new ConsolePage(page, 'live');
  await c.open();
  // Some history first, then mark it: Home jumps to the earliest moment, End back to live.
  await page.waitForTimeout(3_000);
  await page.locator('body').press('Home');
  await page.getByTestId('mark-start').click();
  await page.locator('body').press('End');
  await page.getByTestId('mark-end').click();
  await expect(page.getByTestId('marked-period')).toBeVisible();
  await expect(page.getByTestId('period-marks')).toBeVisible();
  // Events observed just before the end mark may still be on their way into the store (a relist
  // notes the time it started, and records when it is done); let them land before saving, so
  // the saved period holds everything the server will later say happened by then.
  await page.waitForTimeout(1_500);

  const pod = c.pods.first();
  const podId = (await pod.getAttribute('data-id')) ?? '';
  await c.select(podId);

  await page.getByTestId('save-period').click();
  const dialog = page.getByTestId('save-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('save-title').fill(title);
  await dialog.getByTestId('save-notes').fill('Noticed by the on-call engineer.');
  await dialog.getByTestId('annotation-input').fill(note);
  await dialog.getByTestId('add-annotation').click();
  await dialog.getByTestId('save-submit').click();
  const link = dialog.getByTestId('share-url');
  await expect(link).toHaveValue(/\/en\/t\/[A-Za-z0-9_-]+\?at=/);
  return { url: await link.inputValue(), podId };
}

test('save a period with an annotation, copy the link, open it elsewhere: same view, read-only', async ({
  page,
  context,
  browser,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const title = `Crash loop ${Date.now()}`;
  const note = 'The pod started failing here';
  const { url, podId } = await saveFromLiveConsole(page, title, note);
  expect(url).toContain(`sel=${encodeURIComponent(podId)}`);

  await page.getByTestId('save-dialog').getByTestId('copy-link').click();
  await expect(page.getByTestId('save-dialog').getByRole('status').last()).toHaveText(
    'Link copied',
  );
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // The live console at the same moment, replayed from the server's own timeline.
  const at = new URL(url).searchParams.get('at') ?? '';
  const original = new ConsolePage(page, 'live');
  await original.open({ at, sel: podId });
  // Only once its history reaches back to `at` does the live console show that moment.
  await expect.poll(async () => (await original.slider()).now).toBe(Date.parse(at));
  const expected = await drawn(page);
  expect(expected.length).toBeGreaterThan(3);

  // A new, empty browser context: nothing shared with the first but the link.
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const shared = await other.newPage();
  const dialogs = forbidDialogs(shared);
  const view = new ConsolePage(shared, 'live');
  await view.openUrl(url);
  await expect(shared.getByTestId('timeline-title')).toHaveText(title);
  await expect.poll(() => drawn(shared)).toEqual(expected);
  await expect(view.entity(podId).first()).toHaveAttribute('aria-selected', 'true');

  // Read-only: no Live button, no marking or saving; the recording is labelled as such.
  await expect(view.live).toHaveCount(0);
  await expect(shared.getByTestId('save-period')).toHaveCount(0);
  await expect(shared.getByTestId('mark-start')).toHaveCount(0);
  await expect(shared.getByText('Read-only')).toBeVisible();

  // The annotation: in the notes panel and as a marker on the timeline that jumps to it.
  await expect(shared.getByTestId('annotation-text')).toHaveText(note);
  await expect(shared.getByTestId('timeline-notes')).toHaveText('Noticed by the on-call engineer.');
  const marker = shared.getByTestId('annotation-marker');
  await expect(marker).toHaveCount(1);
  await shared.locator('body').press('Escape');
  await expect(shared).not.toHaveURL(/sel=/);
  const { min, max } = await view.slider();
  await view.scrubTo(min);
  await marker.click();
  await expect(shared).toHaveURL(new RegExp(`sel=${encodeURIComponent(podId)}`));
  // The moment of the note (a note at the very end of the period sits at the end of the track).
  await expect
    .poll(async () => (await view.slider()).now)
    .toBe(Math.round(Math.min(Date.parse(at), max)));

  // The export link downloads the same timeline as a file.
  const id = new URL(url).pathname.split('/').pop() ?? '';
  const file = await shared.request.get(`/api/timelines/${id}/export`);
  expect(file.headers()['content-disposition']).toMatch(/^attachment; filename=/);
  expect(((await file.json()) as { title: string }).title).toBe(title);
  expect(dialogs).toEqual([]);
  await other.close();
});

test('importing a malformed file shows where it is broken', async ({ page }) => {
  await page.goto('/en/import');
  await expect(page.getByTestId('drop-zone')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('import-file').setInputFiles({
    name: 'broken.podscope.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"podscope.timeline","version":1,\n"title":"x",,\n}'),
  });
  const errors = page.getByTestId('import-errors');
  await expect(errors).toBeVisible();
  await expect(errors).toHaveAttribute('data-code', 'MALFORMED_JSON');
  await expect(errors).toContainText(
    'broken.podscope.json was not imported: it is not valid JSON.',
  );
  await expect(errors).toContainText('line 2, column 13 (byte 55)');
  await expect(errors).toContainText("expected a property name in double quotes, found ','");

  // A JSON file whose content is wrong: the path to the bad value.
  await page.getByTestId('import-file').setInputFiles({
    name: 'future.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"podscope.timeline","version":9}'),
  });
  await expect(errors).toHaveAttribute('data-code', 'UNSUPPORTED_VERSION');
  await expect(errors).toContainText('version');
  await expect(errors).toContainText(
    'this file is format version 9; this Podscope reads version 1',
  );
  await expect(page.getByTestId('import-summary')).toHaveCount(0);
});

test('a hostile file is shown as inert text', async ({ page, browser }) => {
  const { url } = await saveFromLiveConsole(page, 'to be made hostile', 'plain note');
  const id = new URL(url).pathname.split('/').pop() ?? '';
  const res = await page.request.get(`/api/timelines/${id}/export`);
  type Status = { name: string; state?: unknown };
  type Pod = {
    uid: string;
    name: string;
    spec: { containers: string[] };
    status: { containerStatuses?: Status[] };
  };
  const doc = (await res.json()) as {
    title: string;
    notes: string;
    annotations: { t: number; text: string; entity?: string }[];
    initialState: { nodes: Record<string, { pods: Record<string, Pod> }> };
    events: {
      kind: string;
      type: string;
      podUid?: string;
      pod?: Pod;
      name?: string;
      status?: Status;
    }[];
  };
  // A pod of the period, wherever it first appears: in the initial state or added later.
  const pods = [
    ...Object.values(doc.initialState.nodes).flatMap((n) => Object.values(n.pods)),
    ...doc.events.flatMap((e) =>
      e.kind === 'pod' && e.type === 'PodAdded' && e.pod ? [e.pod] : [],
    ),
  ];
  const target = pods.find((p) => p.spec.containers.length > 0);
  if (!target) throw new Error('no pod in the saved period');
  const uid = target.uid;
  const containerName = target.spec.containers[0] ?? '';
  const hostileName = '<img src=x onerror="window.__pwned=1">';
  const hostileState = {
    waiting: { reason: 'CrashLoopBackOff', message: '<script>window.__pwned=2</script>' },
  };
  for (const p of pods) if (p.uid === uid) p.name = hostileName;
  for (const p of pods.filter((x) => x.uid === uid))
    for (const st of p.status.containerStatuses ?? [])
      if (st.name === containerName) st.state = hostileState;
  for (const e of doc.events)
    if (e.kind === 'container' && e.podUid === uid && e.name === containerName && e.status)
      e.status.state = hostileState;
  doc.title = 'Incident \u0007 <script>alert(1)</script>';
  doc.notes = '<iframe src="javascript:alert(2)"></iframe>';
  const at = doc.annotations[0]?.t ?? Date.now();
  doc.annotations = [{ t: at, text: '<svg onload="alert(3)">look</svg>' }];

  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const hostile = await other.newPage();
  const dialogs = forbidDialogs(hostile);
  await hostile.goto('/en/import');
  await expect(hostile.getByTestId('drop-zone')).toHaveAttribute('data-ready', 'true');
  await hostile.getByTestId('import-file').setInputFiles({
    name: '<b>evil</b>.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  });
  await expect(hostile.getByTestId('import-summary')).toContainText(
    'Incident ␇ <script>alert(1)</script>',
  );
  await hostile.getByTestId('import-save').click();
  await expect(hostile).toHaveURL(/\/en\/t\/[A-Za-z0-9_-]+$/);
  const view = new ConsolePage(hostile, 'live');
  await view.ready();
  await hostile.goto(
    `${hostile.url()}?at=${encodeURIComponent(new Date(at).toISOString())}&sel=${encodeURIComponent(`${uid}/${containerName}`)}`,
  );
  await view.ready();

  await expect(hostile.getByTestId('timeline-title')).toHaveText(
    'Incident ␇ <script>alert(1)</script>',
  );
  await expect(hostile.getByTestId('timeline-notes')).toHaveText(
    '<iframe src="javascript:alert(2)"></iframe>',
  );
  await expect(hostile.getByTestId('annotation-text')).toHaveText(
    '<svg onload="alert(3)">look</svg>',
  );
  // Names may be shortened in the diagram; the text itself is there, as text.
  await expect(hostile.locator('body')).toContainText('<img src=x onerror=');
  await expect(hostile.locator('body')).toContainText('<script>window.__pwned=2</script>');

  // Nothing ran and nothing was injected.
  expect(
    await hostile.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  expect(
    await hostile.locator('img[src="x"], iframe, svg[onload], [onerror], [onload]').count(),
  ).toBe(0);
  expect(
    await hostile.evaluate(
      () => [...document.scripts].filter((s) => s.textContent?.includes('__pwned')).length,
    ),
  ).toBe(0);
  expect(dialogs).toEqual([]);
  await other.close();
});
