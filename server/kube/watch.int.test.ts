/**
 * KubeView against the fake API server, over the same path a real cluster uses: a kubeconfig
 * (HTTPS with the server's CA, bearer token) read by client-node. Shows list → watch from the
 * list's resourceVersion with bookmarks, and that watches survive 410 Gone (HTTP and ERROR
 * event), dropped connections and a server outage without missing an update.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreV1Event } from '@kubernetes/client-node';
import {
  FakeApiServer,
  FIXTURE_NOW,
  opensslAvailable,
  seed,
  UIDS,
  waitFor,
} from '@/test/fake-apiserver';
import type { NewK8sEvent } from './events';
import { KubeView, type KubeChange } from './view';
import { sleep as realSleep } from './backoff';

const WEB = { ns: 'default', name: 'web-7d9f8b6c5-x2k4q' };

let server: FakeApiServer;
let view: KubeView;
let changes: KubeChange[];
let delays: number[];
let clock: number;

function newView(extra: Partial<ConstructorParameters<typeof KubeView>[0]> = {}): KubeView {
  const v = new KubeView({
    kubeconfig: server.writeKubeconfig(),
    pageSize: 3,
    backoff: { initialMs: 20, maxMs: 160, jitter: 0.5 },
    now: () => clock,
    // Record every back-off the reflectors take, then really wait (the server is real).
    sleep: (ms, signal) => {
      delays.push(ms);
      return realSleep(ms, signal);
    },
    ...extra,
  });
  v.onResourceChange((cs) => changes.push(...cs));
  return v;
}

async function started(extra?: Parameters<typeof newView>[0]): Promise<KubeView> {
  view = newView(extra);
  view.start();
  expect(await view.synced(10_000)).toBe(true);
  await waitFor('all watches open', () => view.status().connected);
  changes = [];
  return view;
}

function setWebPhase(phase: string): void {
  server.store.update('pods', WEB.ns, WEB.name, (o) => {
    (o.status as { phase: string }).phase = phase;
  });
}

const podRv = () => view.status().resourceVersions.pods;

beforeEach(async () => {
  server = new FakeApiServer();
  seed(server.store);
  await server.start();
  changes = [];
  delays = [];
  clock = FIXTURE_NOW;
});

afterEach(async () => {
  await view?.stop();
  await server.stop();
});

describe('KubeView list + watch', () => {
  it('lists every collection through the kubeconfig, then watches from the list’s resourceVersion with bookmarks', async () => {
    await started();
    expect(server.https).toBe(opensslAvailable());
    const listedAt = String(server.store.rv);
    const status = view.status();
    expect(status).toMatchObject({ synced: true, connected: true, relists: 0, server: server.url });
    expect(status.resourceVersions).toEqual({
      nodes: listedAt,
      pods: listedAt,
      leases: listedAt,
      events: listedAt,
    });
    // 7 pods in pages of 3: three list requests, the later ones with a continue token.
    const lists = server.listRequests('pods');
    expect(lists.map((r) => [r.query.limit, r.query.continue !== undefined])).toEqual([
      ['3', false],
      ['3', true],
      ['3', true],
    ]);
    for (const resource of ['nodes', 'pods', 'events', 'leases'] as const) {
      const [watch] = server.watchRequests(resource);
      expect(watch?.query).toMatchObject({
        resourceVersion: listedAt,
        allowWatchBookmarks: 'true',
        watch: 'true',
      });
      expect(Number(watch?.query.timeoutSeconds)).toBeGreaterThan(0);
    }
    expect(view.getPodByUid(UIDS.web)?.metadata?.name).toBe(WEB.name);
    expect(view.getPodByUid(UIDS.etcdStatic)?.metadata?.uid).toBe(UIDS.etcdMirror);
    expect(
      view
        .podsOnNode('node-a')
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['api-5c4b9d7f8-mq7zt', 'etcd-node-a', WEB.name, 'worker-6f7d9c8b7-8kq2n']);
    expect(
      view.getNode('node-b')?.status?.conditions?.find((c) => c.type === 'Ready')?.status,
    ).toBe('Unknown');
    // Listed objects come out typed: times are Dates (MicroTime too).
    expect(view.getLease('node-a')?.spec?.renewTime).toBeInstanceOf(Date);
    expect(view.getPodByUid(UIDS.web)?.status?.startTime).toBeInstanceOf(Date);
    // And so do watched ones.
    server.store.update('leases', 'kube-node-lease', 'node-a', (o) => {
      (o.spec as { renewTime: string }).renewTime = '2026-03-01T10:02:05.000001Z';
    });
    setWebPhase('Running');
    await waitFor(
      'watched lease',
      () =>
        view.getLease('node-a')?.spec?.renewTime?.getTime() === Date.parse('2026-03-01T10:02:05Z'),
    );
    await waitFor(
      'watched pod',
      () => view.status().resourceVersions.pods === String(server.store.rv),
    );
    expect(view.getLease('node-a')?.spec?.renewTime).toBeInstanceOf(Date);
    expect(view.getPodByUid(UIDS.web)?.status?.startTime).toBeInstanceOf(Date);
  });

  it('applies watch events in order, reports each change, and remembers deleted pods', async () => {
    await started();
    const hinted: string[][] = [];
    view.onChange((uids) => hinted.push(uids));
    setWebPhase('Failed');
    server.store.remove('pods', 'default', 'worker-6f7d9c8b7-8kq2n');
    const added = server.store.upsert('pods', {
      metadata: { name: 'late', namespace: 'default', uid: 'late-uid' },
      spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }] },
      status: { phase: 'Pending' },
    });
    await waitFor('the new pod', () => view.getPodByUid('late-uid') !== undefined);
    expect(view.getPodByUid(UIDS.web)?.status?.phase).toBe('Failed');
    expect(view.getPodByUid(UIDS.worker)).toBeUndefined();
    expect(
      changes.filter((c) => c.resource === 'pod').map((c) => [c.type, c.name, c.relist]),
    ).toEqual([
      ['modified', WEB.name, false],
      ['deleted', 'worker-6f7d9c8b7-8kq2n', false],
      ['added', 'late', false],
    ]);
    expect(hinted).toEqual([[UIDS.web], [UIDS.worker], ['late-uid']]);
    expect(view.apiObjects().deletedPods).toEqual({ [UIDS.worker]: FIXTURE_NOW });
    expect(podRv()).toBe(added.metadata.resourceVersion);
  });

  it('emits new API-server Events as timeline events, not the history already listed', async () => {
    await started();
    const emitted: NewK8sEvent[] = [];
    view.onEvent((e) => emitted.push(e));
    const backoff = server.store.get(
      'events',
      'default',
      'worker-6f7d9c8b7-8kq2n.182f3a1b2c3d4e03',
    );
    if (!backoff) throw new Error('fixture event missing');
    server.store.update('events', 'default', backoff.metadata.name, (o) => {
      const e = o as unknown as Omit<CoreV1Event, 'lastTimestamp'> & { lastTimestamp: string };
      e.count = 13;
      e.lastTimestamp = '2026-03-01T10:01:59Z';
    });
    server.store.upsert('events', {
      metadata: { name: 'web.scaled', namespace: 'default' },
      involvedObject: { kind: 'Deployment', name: 'web', namespace: 'default' },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set web-7d9f8b6c5 to 2',
      type: 'Normal',
      source: { component: 'deployment-controller' },
    });
    await waitFor(
      'the events watch to pass both',
      () => view.status().resourceVersions.events === String(server.store.rv),
    );
    expect(emitted).toEqual([
      expect.objectContaining({
        kind: 'k8s',
        type: 'Event',
        node: 'node-a',
        reason: 'BackOff',
        eventType: 'Warning',
        count: 13,
        podUid: UIDS.worker,
        container: 'worker',
        t: FIXTURE_NOW,
        lastTimestamp: Date.parse('2026-03-01T10:01:59Z'),
      }),
    ]);
  });

  it('tracks BOOKMARKs, so a reconnect after compaction resumes without a relist', async () => {
    await started();
    // Writes elsewhere in the cluster move the revision on; only the bookmark tells us.
    const bookmarkRv = String(server.store.advance(500));
    expect(server.bookmark()).toBe(4);
    await waitFor('bookmarks applied', () =>
      Object.values(view.status().resourceVersions).every((rv) => rv === bookmarkRv),
    );
    server.store.compact();
    expect(server.dropWatches()).toBe(4);
    setWebPhase('Succeeded');
    await waitFor(
      'the change after the drop',
      () => view.getPodByUid(UIDS.web)?.status?.phase === 'Succeeded',
    );
    const resumed = server.watchRequests('pods').at(-1);
    expect(resumed?.query.resourceVersion).toBe(bookmarkRv);
    expect(resumed?.status).toBe(200);
    expect(view.status().relists).toBe(0);
    expect(view.status().resources.pods?.bookmarks).toBe(1);
  });

  it('relists on HTTP 410 Gone and reports, from the diff, every change made while it was away', async () => {
    await started();
    await server.down();
    await waitFor('the view to notice', () => !view.status().connected);
    setWebPhase('Failed');
    server.store.remove('pods', 'batch-jobs', 'report-29500000-abcde');
    server.store.upsert('pods', {
      metadata: { name: 'new', namespace: 'default', uid: 'new-uid' },
      spec: { nodeName: 'node-b' },
      status: { phase: 'Pending' },
    });
    server.store.compact();
    changes = [];
    await server.up();
    await waitFor(
      'relist and watch',
      () => view.status().connected && (view.status().resources.pods?.relists ?? 0) === 1,
    );
    const podChanges = changes
      .filter((c) => c.resource === 'pod')
      .map((c) => [c.type, c.name, c.relist]);
    expect(podChanges).toEqual(
      expect.arrayContaining([
        ['modified', WEB.name, true],
        ['deleted', 'report-29500000-abcde', true],
        ['added', 'new', true],
      ]),
    );
    expect(podChanges).toHaveLength(3);
    expect(server.watchRequests('pods').some((r) => r.status === 410)).toBe(true);
    expect(view.getPodByUid(UIDS.web)?.status?.phase).toBe('Failed');
    expect(view.getPodByUid(UIDS.job)).toBeUndefined();
    expect(view.podsOnNode('node-b').map((p) => p.metadata?.name)).toContain('new');
    // The store equals the server's list again, and the new watch starts from the relist.
    expect(
      view
        .apiObjects()
        .pods.map((p) => `${p.metadata?.uid}@${p.metadata?.resourceVersion}`)
        .sort(),
    ).toEqual(
      server.store
        .list('pods')
        .map((p) => `${p.metadata.uid}@${p.metadata.resourceVersion}`)
        .sort(),
    );
    expect(server.watchRequests('pods').at(-1)?.query.resourceVersion).toBe(
      String(server.store.rv),
    );
  });

  it('relists on a 410 ERROR event in the stream (a watcher that fell behind) without missing the changes', async () => {
    await started();
    // The watch cache stops feeding this watcher, changes happen, then it says "too old".
    server.holdWatches('pods');
    setWebPhase('Unknown');
    server.store.remove('pods', 'default', 'puller-0');
    expect(server.expireWatches('pods')).toBe(1);
    await waitFor(
      'relist',
      () => view.status().resources.pods?.relists === 1 && view.status().connected,
    );
    expect(view.getPodByUid(UIDS.web)?.status?.phase).toBe('Unknown');
    expect(view.getPodByUid(UIDS.puller)).toBeUndefined();
    expect(
      changes.filter((c) => c.resource === 'pod').map((c) => [c.type, c.name, c.relist]),
    ).toEqual([
      ['modified', WEB.name, true],
      ['deleted', 'puller-0', true],
    ]);
    setWebPhase('Running');
    await waitFor('live again', () => view.getPodByUid(UIDS.web)?.status?.phase === 'Running');
  });

  it('relists when a reconnect is answered 200 + ERROR 410 instead of HTTP 410', async () => {
    server.expireMode = 'event';
    await started();
    await server.down();
    await waitFor('the view to notice', () => !view.status().connected);
    setWebPhase('Failed');
    server.store.compact();
    await server.up();
    await waitFor(
      'relist',
      () => (view.status().resources.pods?.relists ?? 0) === 1 && view.status().connected,
    );
    expect(view.getPodByUid(UIDS.web)?.status?.phase).toBe('Failed');
    expect(server.watchRequests('pods').every((r) => r.status === 200)).toBe(true);
  });

  it('survives a dropped connection: resumes from the last resourceVersion, no relist, no missed update', async () => {
    await started();
    const before = podRv();
    server.dropWatches();
    setWebPhase('Pending');
    setWebPhase('Running');
    server.store.upsert('pods', {
      metadata: { name: 'after-drop', namespace: 'default', uid: 'after-uid' },
      spec: { nodeName: 'node-a' },
      status: { phase: 'Pending' },
    });
    await waitFor('all three changes', () => view.getPodByUid('after-uid') !== undefined);
    const seen = changes.filter((c) => c.resource === 'pod').map((c) => [c.type, c.name, c.relist]);
    expect(seen).toEqual([
      ['modified', WEB.name, false],
      ['modified', WEB.name, false],
      ['added', 'after-drop', false],
    ]);
    const resumes = server.watchRequests('pods');
    expect(resumes).toHaveLength(2);
    expect(resumes[1]?.query.resourceVersion).toBe(before);
    expect(view.status().relists).toBe(0);
    expect(view.status().resources.pods?.lastError).toMatch(
      /watch \/api\/v1\/pods from resourceVersion/,
    );
  });

  it('backs off (bounded) while the API server is down, keeps its data, and catches up when it returns', async () => {
    await started();
    await server.down();
    // Four reflectors back off independently; wait until one has reached the cap.
    await waitFor('back-off to reach its cap', () => delays.includes(160));
    const status = view.status();
    expect(status.connected).toBe(false);
    expect(status.lastError).toMatch(/fetch failed|ECONNREFUSED/);
    expect(Math.max(...delays)).toBeLessThanOrEqual(160);
    expect(delays.slice(0, 4).every((d) => d >= 20)).toBe(true);
    expect(view.getPodByUid(UIDS.web)?.metadata?.name).toBe(WEB.name);
    setWebPhase('Failed');
    await server.up();
    await waitFor(
      'reconnected and caught up',
      () => view.status().connected && view.getPodByUid(UIDS.web)?.status?.phase === 'Failed',
    );
    expect(view.status().relists).toBe(0);
  });

  it('backs off when watches end at once without an event, instead of spinning', async () => {
    await started();
    server.flapWatches = true;
    server.dropWatches('pods');
    await waitFor('three short watches', () => delays.length >= 3);
    expect(delays.slice(0, 3).map((d) => d >= 20 && d <= 160)).toEqual([true, true, true]);
    expect(view.status().resources.pods?.lastError).toMatch(
      /closed after \d+ ms without any event/,
    );
    server.flapWatches = false;
    setWebPhase('Failed');
    await waitFor(
      'a normal watch again',
      () => view.getPodByUid(UIDS.web)?.status?.phase === 'Failed',
    );
    expect(view.status().relists).toBe(0);
  });

  it('stop() closes every watch', async () => {
    await started();
    expect(server.openWatches()).toBe(4);
    await view.stop();
    await waitFor('watches closed on the server', () => server.openWatches() === 0);
    expect(view.status().connected).toBe(false);
  });
});

describe('KubeView over plain HTTP (the fake’s fallback when openssl is missing)', () => {
  it('works when the kubeconfig sets insecure-skip-tls-verify, as client-node 2.x requires for http://', async () => {
    const plain = new FakeApiServer({ transport: 'http' });
    seed(plain.store);
    await plain.start();
    const v = new KubeView({
      kubeconfig: plain.writeKubeconfig(),
      backoff: { initialMs: 20, maxMs: 100 },
    });
    try {
      expect(plain.url.startsWith('http://')).toBe(true);
      v.start();
      expect(await v.synced(10_000)).toBe(true);
      expect(v.getPodByUid(UIDS.web)?.metadata?.name).toBe(WEB.name);
    } finally {
      await v.stop();
      await plain.stop();
    }
  });
});
