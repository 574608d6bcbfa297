/**
 * Drift in the console, live: a second console server (the same build, `next start` on its own
 * port and data directory) watches one simulated node and joins the API server's view from the
 * fake API server in test/fake-apiserver, which this test runs and fills. The test then plays
 * the kubelet that has gone quiet on that node, so the two sides disagree in four ways the
 * engine detects (lib/drift through the DriftBridge):
 * - kubeletNotReporting: the node's Lease was last renewed minutes ago, the runtime answers;
 * - missingPod: the API server binds shop/payments to the node, the runtime has no sandbox;
 * - staleStatus (+ phaseMismatch): shop/checkout runs in the runtime, the API still shows it
 *   Pending with its container Waiting: ContainerCreating;
 * - orphanSandbox: debug/debug-shell runs in the runtime, the API server has no such pod.
 * The runtime side is made straight on the node's CRI socket, as a kubelet would. Checked in
 * Chromium: the Drift tab lists each with its explanation (English, and once in Chinese), the
 * drifting pods carry the ≠ badge in the diagram, a row selects its entity and the panel's drift
 * list shows it; usable on a phone; no axe violation with the tab open (e2e/support/axe.ts).
 * Screenshots go to test-results/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CriClient } from '@/server/cri/client';
import type { SandboxSpec } from '@/server/cri/types';
import { FakeApiServer } from '../test/fake-apiserver';
import { expectAccessible } from './support/axe';
import { startConsoleServer, type ConsoleServer } from './support/console-server';

const PORT = Number(process.env.E2E_DRIFT_PORT ?? 3109);
const BASE = `http://127.0.0.1:${PORT}`;
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
const IMAGE = 'podscope.local/busybox:1';

// Uids of our own making: the runtime's sandboxes carry them, the API objects match them.
const run = `${process.pid.toString(16)}${Date.now().toString(16)}`.slice(-12).padStart(12, '0');
const CHECKOUT_UID = `c0ffee00-0000-4000-8000-${run}`;
const DEBUG_UID = `deb00000-0000-4000-8000-${run}`;
const PAYMENTS_UID = `fa1100ed-0000-4000-8000-${run}`;
const CHECKOUT = { namespace: 'shop', name: 'checkout-6f9c7d5b8-k2x7p' };
const PAYMENTS = { namespace: 'shop', name: 'payments-7c4d8b9f6-q8w2n' };
const DEBUG = { namespace: 'debug', name: 'debug-shell' };

let api: FakeApiServer | undefined;
let server: ConsoleServer | undefined;
const temps: string[] = [];
let node = '';

test.describe.configure({ mode: 'serial' });

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

interface NodeSummary {
  name: string;
  endpoint: string;
}

/** A tRPC query's result over plain HTTP. */
async function query<T>(path: string): Promise<T> {
  const res = await fetch(`${BASE}/api/trpc/${path}`);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

/** The API server's side: the node, its (old) Lease, and two pods bound to it. */
function fillApiServer(fake: FakeApiServer, nodeName: string): void {
  const s = fake.store;
  s.upsert('nodes', {
    metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName } },
    status: {
      // The node controller's words after the kubelet went quiet three minutes ago.
      conditions: [
        {
          type: 'Ready',
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: iso(180_000),
          lastTransitionTime: iso(140_000),
        },
      ],
    },
  });
  s.upsert('leases', {
    metadata: { name: nodeName, namespace: 'kube-node-lease' },
    spec: { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime: iso(180_000) },
  });
  const pod = (
    ref: { namespace: string; name: string },
    uid: string,
    container: string,
    status: Record<string, unknown>,
  ) => ({
    metadata: { ...ref, uid, creationTimestamp: iso(120_000) },
    spec: {
      nodeName,
      hostNetwork: true,
      restartPolicy: 'Always',
      containers: [{ name: container, image: IMAGE, command: ['sleep', '3600'] }],
    },
    status,
  });
  const scheduled = { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(120_000) };
  // Running in the runtime (below); the last status the kubelet posted still says it is starting.
  s.upsert(
    'pods',
    pod(CHECKOUT, CHECKOUT_UID, 'checkout', {
      phase: 'Pending',
      conditions: [scheduled],
      containerStatuses: [
        {
          name: 'checkout',
          image: IMAGE,
          imageID: '',
          ready: false,
          started: false,
          restartCount: 0,
          state: { waiting: { reason: 'ContainerCreating' } },
        },
      ],
    }),
  );
  // Scheduled to the node, never started there.
  s.upsert(
    'pods',
    pod(PAYMENTS, PAYMENTS_UID, 'payments', { phase: 'Pending', conditions: [scheduled] }),
  );
}

/** The runtime's side: a running pod sandbox + container, made the way the kubelet makes them. */
async function runPod(
  client: CriClient,
  ref: { namespace: string; name: string },
  uid: string,
  container: string,
): Promise<void> {
  const labels = {
    'io.kubernetes.pod.name': ref.name,
    'io.kubernetes.pod.namespace': ref.namespace,
    'io.kubernetes.pod.uid': uid,
  };
  const sandbox: SandboxSpec = { ...ref, uid, networkMode: 'NODE', labels };
  const sandboxId = await client.runPodSandbox(sandbox);
  const id = await client.createContainer(
    sandboxId,
    {
      name: container,
      image: IMAGE,
      command: ['sleep', '3600'],
      labels: { ...labels, 'io.kubernetes.container.name': container },
    },
    sandbox,
  );
  await client.startContainer(id);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  api = await new FakeApiServer().start();
  const kubeDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-drift-kube-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'podscope-e2e-drift-'));
  temps.push(kubeDir, dataDir);
  const kubeconfig = join(kubeDir, 'config');
  writeFileSync(kubeconfig, JSON.stringify(api.kubeconfig(), null, 2), { mode: 0o600 });

  server = await startConsoleServer({
    name: 'drift',
    port: PORT,
    dataDir,
    env: {
      PODSCOPE_SIM_NODES: '1',
      // No demo workload: the node runs only the pods this test puts there.
      PODSCOPE_SIM_DEMO: '0',
      PODSCOPE_KUBECONFIG: kubeconfig,
    },
  });
  const nodes = await query<NodeSummary[]>('nodes.list');
  const sim = nodes[0];
  if (!sim) throw new Error(`the drift server watches no node:\n${server.output()}`);
  node = sim.name;

  // The console's API watches are open before the API objects change, so the change reaches it
  // as a watch event at once (no waiting for a relist).
  await expect
    .poll(() => api?.openWatches('pods') ?? 0, { timeout: 60_000, message: 'API watches' })
    .toBeGreaterThan(0);
  fillApiServer(api, node);

  const client = new CriClient(sim.endpoint);
  try {
    await runPod(client, CHECKOUT, CHECKOUT_UID, 'checkout');
    await runPod(client, DEBUG, DEBUG_UID, 'shell');
  } finally {
    client.close();
  }
});

test.afterAll(async () => {
  await server?.stop();
  await api?.stop();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const driftRow = (page: Page, kind: string) =>
  page.getByTestId('drift-view').locator(`tr[data-drift-kind="${kind}"]`);

/** Opens the console in `locale` and shows the Drift tab once every arranged drift is listed. */
async function openDrift(page: Page, locale: 'en' | 'zh-CN'): Promise<void> {
  await page.goto(`${BASE}/${locale}`);
  // The tab appears once the API server's view is joined (checkout's spec comes from it).
  const tab = page.getByTestId('bottom-tab-drift');
  await expect(tab).toBeVisible({ timeout: 60_000 });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('drift-view')).toBeVisible();
  // Each disagreement is listed once it has outlasted normal status propagation.
  for (const kind of ['kubeletNotReporting', 'missingPod', 'orphanSandbox', 'staleStatus'])
    await expect(driftRow(page, kind), kind).toHaveCount(1, { timeout: 60_000 });
}

test('the Drift tab lists each disagreement with why, and the drifting pods and node carry the badge', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDrift(page, 'en');
  const why = (kind: string) => driftRow(page, kind).locator('td.ps-drift-why');

  await expect(why('missingPod')).toHaveText(
    `The API server has ${PAYMENTS.namespace}/${PAYMENTS.name} bound to ${node} (Pending), but the runtime there has no sandbox for it.`,
  );
  await expect(driftRow(page, 'missingPod')).toContainText('Pod missing on node');
  await expect(why('orphanSandbox')).toHaveText(
    `The runtime has a sandbox for ${DEBUG.namespace}/${DEBUG.name} (uid ${DEBUG_UID}) that the API server does not have, with 1 container running: it was started outside the kubelet, or its API object is gone.`,
  );
  await expect(why('staleStatus')).toHaveText(
    /^The API server still shows checkout as Waiting: ContainerCreating; in the runtime it became Running \d+ s ago\. The kubelet has not posted the newer status yet\.$/,
  );
  await expect(why('kubeletNotReporting')).toHaveText(
    new RegExp(
      `^The kubelet on ${node} last reported \\d+ s ago \\(Lease duration 40 s\\), yet the runtime answered Podscope \\d+ s ago: the kubelet, not the runtime, has stopped reporting\\.$`,
    ),
  );
  // Both sides' values, as kubectl would print them.
  const stale = driftRow(page, 'staleStatus');
  await expect(stale.locator('td').nth(2)).toHaveText('Waiting: ContainerCreating');
  await expect(stale.locator('td').nth(3)).toHaveText('Running');
  await expect(driftRow(page, 'kubeletNotReporting').locator('td').nth(3)).toHaveText('reachable');
  // The kubelet's silence also shows as the node controller's Ready=Unknown.
  await expect(driftRow(page, 'nodeConditionMismatch')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('bottom-tab-drift')).toContainText('≠');

  // The pods that drift carry the ≠ badge in the diagram, and so does the node (its own drift).
  for (const uid of [CHECKOUT_UID, DEBUG_UID])
    await expect(
      page.locator(`[data-layer="pod"][data-id="${uid}"] .ps-badge-drift`),
      uid,
    ).toBeVisible();
  await expect(
    page.locator(`[data-layer="node"][data-id="${node}"] > .ps-badge-drift`),
  ).toBeVisible();

  // A pod's row selects the pod; its panel lists the pod's drift.
  await driftRow(page, 'phaseMismatch').getByRole('button').click();
  const panel = page.locator(`[data-panel-layer="pod"][data-panel-id="${CHECKOUT_UID}"]`);
  await expect(panel).toBeVisible();
  await expect(page.locator(`[data-layer="pod"][data-id="${CHECKOUT_UID}"]`)).toHaveClass(
    /is-selected/,
  );
  const podDrift = panel.getByTestId('drift-list');
  await expect(podDrift.locator('[data-drift="staleStatus"]')).toContainText(
    'status.containerStatuses[checkout].state',
  );
  await expect(podDrift.locator('[data-drift="phaseMismatch"]')).toContainText('Pending');
  await expect(driftRow(page, 'phaseMismatch')).toHaveClass(/is-selected/);

  // The missing pod is nowhere in the runtime: its row selects the node it is bound to.
  await driftRow(page, 'missingPod').getByRole('button').click();
  const nodePanel = page.locator(`[data-panel-layer="node"][data-panel-id="${node}"]`);
  await expect(nodePanel).toBeVisible();
  await expect(
    nodePanel.getByTestId('drift-list').locator('[data-drift="missingPod"]'),
  ).toContainText('spec.nodeName');
  await expect(
    nodePanel.getByTestId('drift-list').locator('[data-drift="kubeletNotReporting"]'),
  ).toBeVisible();

  // The orphan's row selects the orphaned pod.
  await driftRow(page, 'orphanSandbox').getByRole('button').click();
  await expect(
    page
      .locator(`[data-panel-layer="pod"][data-panel-id="${DEBUG_UID}"]`)
      .getByTestId('drift-list'),
  ).toContainText('metadata.uid');

  // The picture: the checkout pod selected, its drift in the panel, the Drift tab open.
  await driftRow(page, 'phaseMismatch').getByRole('button').click();
  await expect(panel.getByTestId('drift-list')).toBeVisible();
  // The list from its top, as someone opening the tab would see it.
  await page
    .getByTestId('drift-view')
    .locator('.ps-drift-scroll')
    .evaluate((el) => {
      el.scrollTop = 0;
    });
  await expectAccessible(page, '/en with the Drift tab open, a drifting pod selected');
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, 'drift-en-1440x900.png');
  await page.screenshot({ path });
  await info.attach('drift-en-1440x900.png', { path, contentType: 'image/png' });
});

test('in Chinese: the tab, the kinds and the explanations', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDrift(page, 'zh-CN');
  await expect(page.getByTestId('bottom-tab-drift')).toContainText('偏差');
  await expect(page.getByTestId('bottom-tab-log')).toHaveText('事件');
  const missing = driftRow(page, 'missingPod');
  await expect(missing).toContainText('节点上缺少 Pod');
  await expect(missing.locator('td.ps-drift-why')).toHaveText(
    `API 服务器中 ${PAYMENTS.namespace}/${PAYMENTS.name} 绑定在 ${node} 上（Pending），但该节点的运行时中没有它的沙箱。`,
  );
  await expect(driftRow(page, 'kubeletNotReporting').locator('td.ps-drift-why')).toContainText(
    '停止上报的是 kubelet，而不是运行时',
  );
  await driftRow(page, 'staleStatus').getByRole('button').click();
  // A container's row selects the container; its panel lists that container's drift.
  const container = page.locator(
    `[data-panel-layer="container"][data-panel-id="${CHECKOUT_UID}/checkout"]`,
  );
  await expect(container.getByTestId('drift-list')).toContainText(
    /API 服务器仍显示 checkout 为 Waiting: ContainerCreating；运行时中它在 \d+ 秒前已变为 Running。/,
  );
  await expectAccessible(page, '/zh-CN with the Drift tab open, a drifting container selected');
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, 'drift-zh-CN-1440x900.png');
  await page.screenshot({ path });
  await info.attach('drift-zh-CN-1440x900.png', { path, contentType: 'image/png' });
});

test('on a phone the drift list reads as cards, without sideways scrolling', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDrift(page, 'en');
  const view = page.getByTestId('drift-view');
  await view.scrollIntoViewIfNeeded();
  const overflow = await view.evaluate((el) => {
    const scroll = el.querySelector('.ps-drift-scroll');
    return {
      page: document.documentElement.scrollWidth - window.innerWidth,
      list: scroll ? scroll.scrollWidth - scroll.clientWidth : 0,
    };
  });
  expect(overflow.page).toBeLessThanOrEqual(0);
  expect(overflow.list).toBeLessThanOrEqual(0);
  // The column headers give way to cards; both sides keep their names (drift.css labels them).
  expect((await view.locator('thead').boundingBox())?.height ?? 0).toBeLessThanOrEqual(1);
  const stale = driftRow(page, 'staleStatus');
  await expect(stale.locator('td').nth(2)).toHaveAttribute('data-label', 'API server');
  await expect(stale.locator('td').nth(3)).toHaveAttribute('data-label', 'Runtime');
  await expect(stale.locator('td.ps-drift-why')).toBeVisible();
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, 'drift-en-390x844.png');
  await view.screenshot({ path });
  await info.attach('drift-en-390x844.png', { path, contentType: 'image/png' });
});
