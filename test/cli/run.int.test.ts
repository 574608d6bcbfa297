/**
 * `podscope run` as a user runs it (the CLI binary, a manifest file): on the embedded simulated
 * node and on a private real containerd (#lab), the same Pod with a readiness probe and a field
 * the stand-in does not implement — after --for seconds the snapshot JSON shows the kubelet's
 * started/ready and the warning, and the pods are gone. A bad manifest fails with located errors.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriClient } from '@/server/cri/client';
import type { SnapshotNode } from '@/server/cli/commands/snapshot';
import { skipContainerd, startContainerd, type ContainerdInstance } from '../containerd/harness';

const exec = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'podscope.mjs');

const MANIFEST = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: { name: slow-ready, namespace: demo }
    spec:
      terminationGracePeriodSeconds: 1
      volumes: [{ name: data, emptyDir: {} }]
      containers:
        - name: web
          image: podscope.local/busybox:1
          command: ["sh", "-c", "sleep 1; touch /tmp/ready; exec sleep 3600"]
          readinessProbe:
            exec: { command: ["cat", "/tmp/ready"] }
            periodSeconds: 1
  - apiVersion: v1
    kind: Pod
    metadata: { name: never-ready, namespace: demo }
    spec:
      terminationGracePeriodSeconds: 1
      containers:
        - name: web
          image: podscope.local/busybox:1
          command: ["sleep", "3600"]
          readinessProbe:
            exec: { command: ["cat", "/tmp/ready"] }
            periodSeconds: 1
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'podscope-run-'));
  await writeFile(join(dir, 'pods.yaml'), MANIFEST);
  await writeFile(
    join(dir, 'bad.yaml'),
    'kind: Pod\nmetadata: { name: x }\nspec:\n  containers:\n    - name: a\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function check(doc: { nodes: SnapshotNode[] }): void {
  const pods = doc.nodes.flatMap((n) => n.pods);
  const byName = (name: string) => pods.find((p) => p.metadata.name === name);
  const slow = byName('slow-ready');
  const never = byName('never-ready');
  expect(slow?.status.phase).toBe('Running');
  expect(slow?.status.containerStatuses?.[0]).toMatchObject({ started: true, ready: true });
  expect(slow?.unsupported).toEqual(['spec.volumes']);
  // Its readiness probe passes: Ready=True, whatever the node's Ready — a NotReady the kubelet
  // reports itself (a lab containerd without CNI: network not ready) marks no pod (issue 32).
  expect(slow?.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  // Each value names its upstream writer: the kubelet posts this pod's phase, Ready and states.
  expect(slow?.writers).toMatchObject({
    phase: 'kubelet',
    conditions: { Ready: 'kubelet', ContainersReady: 'kubelet' },
    containers: { web: 'kubelet' },
  });
  const node = doc.nodes.find((n) => n.pods.includes(slow as (typeof pods)[number]));
  expect(node?.writers.Ready).toBe('kubelet');
  if (node?.conditions.find((c) => c.type === 'Ready')?.status === 'False')
    expect(slow?.why.conditions.Ready).toContain(
      'the controller taints the node, it does not mark its pods',
    );
  expect(never?.status.containerStatuses?.[0]).toMatchObject({ started: true, ready: false });
  expect(never?.status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
    status: 'False',
    reason: 'ContainersNotReady',
  });
  expect(never?.why.containers.web).toMatch(/readiness probe failed \d+ times? in a row/);
}

describe('podscope run', () => {
  it('on the embedded simulator: --for prints the snapshot with probe results', async () => {
    const { stdout } = await exec(
      'node',
      [BIN, 'run', '-f', join(dir, 'pods.yaml'), '--for', '6', '--json'],
      {
        timeout: 120_000,
      },
    );
    check(JSON.parse(stdout) as { nodes: SnapshotNode[] });
  }, 150_000);

  it('a bad manifest: located errors, exit 1', async () => {
    const err = await exec('node', [BIN, 'run', '-f', join(dir, 'bad.yaml'), '--for', '1']).catch(
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(err).toMatchObject({ code: 1 });
    expect((err as { stderr: string }).stderr).toContain(
      `${join(dir, 'bad.yaml')}: spec.containers[0].image: expected a non-empty string, found nothing`,
    );
  }, 60_000);

  it('refuses a runtime not marked #lab (usage error)', async () => {
    const err = await exec('node', [
      BIN,
      'run',
      '-f',
      join(dir, 'pods.yaml'),
      '--cri',
      'unix:///nonexistent.sock',
    ]).catch((e: unknown) => e as { code: number; stderr: string });
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toContain('mark a disposable runtime with #lab');
  }, 60_000);
});

const skip = skipContainerd('podscope run on real containerd');

describe.skipIf(skip)('podscope run on real containerd (lab)', () => {
  let ctrd: ContainerdInstance | undefined;
  beforeAll(async () => {
    ctrd = await startContainerd();
  }, 180_000);
  afterAll(async () => {
    await ctrd?.stop();
  }, 120_000);

  it('runs the pods, reports them, and removes them', async () => {
    const endpoint = ctrd?.endpoint ?? '';
    const { stdout } = await exec(
      'node',
      [
        BIN,
        'run',
        '-f',
        join(dir, 'pods.yaml'),
        '--cri',
        `lab=${endpoint}#lab`,
        '--for',
        '6',
        '--json',
      ],
      { timeout: 120_000 },
    );
    const doc = JSON.parse(stdout) as { nodes: SnapshotNode[] };
    check(doc);
    // The lab containerd has no CNI configured: its node is NotReady, reported by the kubelet.
    const ready = doc.nodes[0]?.conditions.find((c) => c.type === 'Ready');
    expect(ready?.status).toBe('False');
    expect(ready?.message).toContain('network not ready');
    const client = new CriClient(endpoint);
    try {
      expect(await client.listPodSandbox()).toEqual([]);
    } finally {
      client.close();
    }
  }, 150_000);
});
