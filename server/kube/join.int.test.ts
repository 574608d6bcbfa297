/**
 * The join: CRI sandboxes to API pods by the io.kubernetes.pod.uid label, through the fake API
 * server. With KubeView as the engine's 'apiserver' provider, the real spec replaces the one the
 * engine would otherwise infer from CRI records (which carry no restartPolicy, no readiness gates,
 * no grace period), and the kubelet's sync errors come along as hints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LABELS,
  type RuntimeContainer,
  type RuntimePodStatus,
  type RuntimeSandbox,
} from '@/lib/kubelet/runtime';
import { choosePodSpec, summarizeSpec } from '@/server/engine/pods/pod-view';
import { FakeApiServer, FIXTURE_NOW, seed, UIDS, waitFor } from '@/test/fake-apiserver';
import { KubeView } from './view';

let server: FakeApiServer;
let view: KubeView;

beforeAll(async () => {
  server = new FakeApiServer();
  seed(server.store);
  await server.start();
  view = new KubeView({
    kubeconfig: server.writeKubeconfig(),
    now: () => FIXTURE_NOW,
    backoff: { initialMs: 20, maxMs: 100 },
  });
  view.start();
  expect(await view.synced(10_000)).toBe(true);
});

afterAll(async () => {
  await view.stop();
  await server.stop();
});

/** A sandbox as the kubelet creates it: the pod's identity in metadata and labels. */
function sandbox(uid: string, name: string, namespace: string, id = `sb-${name}`): RuntimeSandbox {
  return {
    id,
    name,
    namespace,
    uid,
    attempt: 0,
    state: 'ready',
    createdAt: FIXTURE_NOW - 60_000,
    labels: { [LABELS.podName]: name, [LABELS.podNamespace]: namespace, [LABELS.podUid]: uid },
    annotations: {},
    inspected: true,
  };
}

function container(
  sb: RuntimeSandbox,
  name: string,
  state: RuntimeContainer['state'],
  type: 'container' | 'init' = 'container',
): RuntimeContainer {
  return {
    id: `c-${sb.name}-${name}`,
    sandboxId: sb.id,
    name,
    attempt: 0,
    state,
    createdAt: FIXTURE_NOW - 50_000,
    ...(state !== 'created' ? { startedAt: FIXTURE_NOW - 49_000 } : {}),
    ...(state === 'exited'
      ? { finishedAt: FIXTURE_NOW - 40_000, exitCode: 0, reason: 'Completed' }
      : {}),
    image: 'registry.example/x:1',
    imageRef: 'sha256:0',
    restartCount: 0,
    labels: { [LABELS.podUid]: sb.uid, [LABELS.containerName]: name },
    annotations: { 'io.kubernetes.container.type': type },
    inspected: true,
  };
}

const runtimePod = (sb: RuntimeSandbox, containers: RuntimeContainer[]): RuntimePodStatus => ({
  uid: sb.uid,
  name: sb.name,
  namespace: sb.namespace,
  sandboxes: [sb],
  containers,
});

describe('joining the runtime to the API server', () => {
  it('joins sandboxes by io.kubernetes.pod.uid (mirror pods by their static uid) and names the orphans', () => {
    const sandboxes = [
      sandbox(UIDS.web, 'web-7d9f8b6c5-x2k4q', 'default'),
      sandbox(UIDS.api, 'api-5c4b9d7f8-mq7zt', 'default'),
      sandbox(UIDS.etcdStatic, 'etcd-node-a', 'kube-system'),
      sandbox('0d15ea5e-0000-4000-8000-000000000000', 'debug-by-hand', 'default'),
    ];
    const { joined, orphans } = view.join(sandboxes);
    expect(joined.map((j) => [j.sandbox.name, j.pod.metadata?.uid])).toEqual([
      ['web-7d9f8b6c5-x2k4q', UIDS.web],
      ['api-5c4b9d7f8-mq7zt', UIDS.api],
      ['etcd-node-a', UIDS.etcdMirror],
    ]);
    expect(orphans.map((s) => s.name)).toEqual(['debug-by-hand']);
  });

  it('replaces the inferred spec with the API server’s (restartPolicy, sidecars, readiness gates, grace period)', () => {
    const sb = sandbox(UIDS.api, 'api-5c4b9d7f8-mq7zt', 'default');
    const runtime = runtimePod(sb, [
      container(sb, 'migrate', 'exited', 'init'),
      container(sb, 'log-shipper', 'running', 'init'),
      container(sb, 'api', 'running'),
    ]);
    const inferred = choosePodSpec(runtime, []);
    const joined = choosePodSpec(runtime, [view]);
    expect(inferred.source).toBe('inferred');
    expect(joined.source).toBe('apiserver');
    expect(joined.pod).toBe(view.specFor(UIDS.api));
    const summary = summarizeSpec(joined.pod);
    expect(summary).toEqual({
      restartPolicy: 'Always',
      initContainers: [
        { name: 'migrate', sidecar: false },
        { name: 'log-shipper', sidecar: true },
      ],
      containers: ['api'],
      hostNetwork: false,
      terminationGracePeriodSeconds: 60,
      readinessGates: ['example.com/load-balancer-ready'],
      probes: summarizeSpec(joined.pod).probes,
    });
    expect(summary.probes?.api).toContain('readiness');
    // What inference could not know from CRI records.
    const guessed = summarizeSpec(inferred.pod);
    expect(guessed.readinessGates).toBeUndefined();
    expect(guessed.terminationGracePeriodSeconds).toBeUndefined();
    expect(joined.pod.spec?.containers[0]?.readinessProbe?.httpGet?.path).toBe('/healthz/ready');
  });

  it('gives a Job pod its real restartPolicy Never, which inference would get wrong', () => {
    const sb = sandbox(UIDS.job, 'report-29500000-abcde', 'batch-jobs');
    const runtime = runtimePod(sb, [container(sb, 'report', 'exited')]);
    expect(summarizeSpec(choosePodSpec(runtime, []).pod).restartPolicy).toBe('Always');
    const joined = choosePodSpec(runtime, [view]);
    expect(summarizeSpec(joined.pod).restartPolicy).toBe('Never');
    expect(joined.hints.podIsTerminal).toBe(true);
  });

  it('passes the kubelet’s sync errors, which the CRI cannot show, as hints', () => {
    expect(view.hintsFor(UIDS.puller)?.syncErrors).toEqual({
      app: expect.objectContaining({
        reason: 'ErrImagePull',
        message: expect.stringContaining('not found'),
      }),
    });
    expect(view.hintsFor(UIDS.settings)?.syncErrors?.settings?.reason).toBe(
      'CreateContainerConfigError',
    );
    expect(view.hintsFor(UIDS.worker)?.syncErrors?.worker?.reason).toBe('CrashLoopBackOff');
    // The kubelet's started/ready, which only it can know (probe results), tied to the container.
    const web = view.hintsFor(UIDS.web);
    expect(Object.keys(web ?? {})).toEqual(['probes']);
    expect(Object.values(web?.probes ?? {})[0]).toMatchObject({
      containerId: expect.any(String),
      readiness: expect.any(Boolean),
    });
    expect(view.hintsFor('no-such-uid')).toBeUndefined();
  });

  it('tells the engine when a pod’s hints change (deletion started)', async () => {
    const notified: string[][] = [];
    const off = view.onChange((uids) => notified.push(uids));
    server.store.update('pods', 'default', 'web-7d9f8b6c5-x2k4q', (o) => {
      o.metadata.deletionTimestamp = '2026-03-01T10:02:01Z';
      o.metadata.deletionGracePeriodSeconds = 30;
    });
    await waitFor('the change to arrive', () => notified.length > 0);
    off();
    expect(notified).toEqual([[UIDS.web]]);
    expect(view.hintsFor(UIDS.web)).toMatchObject({
      deletionTimestamp: Date.parse('2026-03-01T10:02:01Z'),
    });
  });
});
