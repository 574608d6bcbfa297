/**
 * Hostile strings render as inert text. A hostile runtime — one of the suite server's embedded
 * simulated nodes, driven directly over its CRI socket by this test, as anything on that node
 * could — puts script payloads where a runtime controls text:
 * - the pod name (sandbox metadata and the kubelet's pod-name label),
 * - a container message (a start error quoting the argv[0] it could not exec),
 * - an annotation (the pod-spec annotation, naming a container),
 * and an imported timeline file carries them in its title, a pod name and a container message.
 * Each must show up as text: no dialog opens, no injected element exists, nothing runs, and the
 * payload is visible as the characters it is.
 */
import { expect, test, type Page } from '@playwright/test';
import { CriClient } from '@/server/cri/client';
import { serializeTimelineFile } from '@/lib/timeline/file';
import { sampleFile } from '@/lib/timeline/file/testing';

test.use({ viewport: { width: 1440, height: 900 } });

// Markup that runs if it is ever parsed as HTML; `data-xss` marks any element it would create.
const POD_NAME = '<img src=x onerror=window.__xss=1 data-xss>';
const EXEC = '<script data-xss>window.__xss=2</script>';
const CONTAINER = '<svg onload=window.__xss=3 data-xss>';
const TITLE = '<iframe data-xss srcdoc=x></iframe> incident';

/** Watches a page for anything a payload could do. */
function guard(page: Page): { dialogs: string[]; check(): Promise<void> } {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return {
    dialogs,
    async check() {
      expect(dialogs).toEqual([]);
      expect(
        await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
      ).toBeUndefined();
      expect(await page.locator('[data-xss]').count()).toBe(0);
      expect(await page.locator('img[src="x"], iframe[srcdoc]').count()).toBe(0);
    },
  };
}

interface NodeSummary {
  name: string;
  endpoint: string;
}

test('payloads from a hostile runtime (pod name, container message, annotation) render as text', async ({
  page,
  request,
}) => {
  const res = await request.get('/api/trpc/nodes.list');
  const nodes = ((await res.json()) as { result: { data: NodeSummary[] } }).result.data;
  const node = nodes[0];
  if (!node) throw new Error('the suite server watches no node');

  // The hostile runtime's pod: created straight on the node's CRI socket.
  const uid = `xss-${Date.now()}`;
  const client = new CriClient(node.endpoint);
  try {
    const sandbox = {
      name: POD_NAME,
      namespace: 'xss',
      uid,
      networkMode: 'NODE' as const,
      labels: {
        'io.kubernetes.pod.name': POD_NAME,
        'io.kubernetes.pod.namespace': 'xss',
        'io.kubernetes.pod.uid': uid,
      },
      annotations: {
        'podscope.dev/pod-spec': JSON.stringify({
          metadata: { name: POD_NAME, namespace: 'xss', uid },
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'boom', image: 'podscope.local/busybox:1' }, { name: CONTAINER }],
          },
        }),
      },
    };
    const sandboxId = await client.runPodSandbox(sandbox);
    const id = await client.createContainer(
      sandboxId,
      {
        name: 'boom',
        image: 'podscope.local/busybox:1',
        command: [EXEC],
        labels: {
          'io.kubernetes.container.name': 'boom',
          'io.kubernetes.pod.uid': uid,
          'io.kubernetes.pod.name': POD_NAME,
          'io.kubernetes.pod.namespace': 'xss',
        },
      },
      sandbox,
    );
    await client.startContainer(id).catch(() => undefined); // fails: that is the point (StartError)
  } finally {
    client.close();
  }

  const watch = guard(page);
  await page.goto(`/en?sel=${encodeURIComponent(uid)}`);
  const pod = page.locator(`[data-layer="pod"][data-id="${uid}"]`);
  await expect(pod).toBeVisible({ timeout: 60_000 });
  // The pod's name, as the panel's title: exactly the characters, as text.
  await expect(page.getByText(`xss/${POD_NAME}`, { exact: true }).first()).toBeVisible();
  await watch.check();

  // The container that failed to start: the runtime's message quotes the payload.
  await page.goto(`/en?sel=${encodeURIComponent(`${uid}/boom`)}`);
  await expect(page.getByTestId('entity-state')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(EXEC, { exact: false }).first()).toBeVisible();
  await watch.check();

  // The container named by the annotation: drawn, selectable, its name shown as text.
  await page.goto(`/en?sel=${encodeURIComponent(`${uid}/${CONTAINER}`)}`);
  await expect(page.getByTestId('entity-state')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(CONTAINER, { exact: true }).first()).toBeVisible();
  await watch.check();
});

test('payloads in an imported timeline render as text', async ({ page, request }) => {
  // A valid file with hostile strings: the title, a pod name, a container message.
  const doc = JSON.parse(serializeTimelineFile(sampleFile({ cycles: 1 }))) as Record<
    string,
    unknown
  >;
  doc.title = TITLE;
  let text = JSON.stringify(doc).replaceAll('"web-1"', JSON.stringify(POD_NAME));
  text = text.replace(/"message":"[^"]*"/, `"message":${JSON.stringify(EXEC)}`);
  expect(text).toContain(JSON.stringify(POD_NAME));
  const res = await request.post('/api/timelines/import', {
    data: text,
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };

  const watch = guard(page);
  await page.goto(`/en/t/${id}`);
  await expect(page.getByTestId('timeline-title')).toHaveText(TITLE);
  await expect(page.locator('[data-layer="pod"]').first()).toBeVisible({ timeout: 60_000 });
  await watch.check();
  // The hostile pod, selected: its name as text.
  const uid = await page.evaluate((name) => {
    for (const el of document.querySelectorAll('[data-layer="pod"]')) {
      if ((el.getAttribute('aria-label') ?? el.textContent ?? '').includes(name))
        return el.getAttribute('data-id');
    }
    return null;
  }, POD_NAME);
  expect(uid).not.toBeNull();
  await page.goto(`/en/t/${id}?sel=${encodeURIComponent(uid ?? '')}`);
  await expect(page.getByText(POD_NAME, { exact: false }).first()).toBeVisible({ timeout: 30_000 });
  await watch.check();
});
