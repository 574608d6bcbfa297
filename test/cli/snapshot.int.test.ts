/**
 * `podscope snapshot` against real containerd and against the simulator, for the same pods put
 * on each through the kubelet stand-in: what the CLI prints is what the kubelet would say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { CriClient } from '@/server/cri/client';
import { Driver } from '@/server/driver/driver';
import type { SnapshotNode } from '@/server/cli/commands/snapshot';
import { skipContainerd } from '../containerd/harness';
import { startContainerdTarget, startSimTarget } from '../contract/targets';
import type { Target } from '../contract/scenario';

const run = promisify(execFile);
const IMAGE = 'podscope.local/busybox:1';

const pods: Record<string, V1Pod> = {
  exit3: {
    metadata: { name: 'exit3', namespace: 't' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: IMAGE, command: ['sh', '-c', 'sleep 1; exit 3'] }],
    },
  },
  exit0: {
    metadata: { name: 'exit0', namespace: 't' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: IMAGE, command: ['sh', '-c', 'sleep 1; exit 0'] }],
    },
  },
  oom: {
    metadata: { name: 'oom', namespace: 't' },
    spec: {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'c',
          image: IMAGE,
          command: ['sh', '-c', 'sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M'],
          resources: { limits: { memory: '32Mi' } },
        },
      ],
    },
  },
  nobinary: {
    metadata: { name: 'nobinary', namespace: 't' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: IMAGE, command: ['/no/such/binary'] }],
    },
  },
  stopped: {
    metadata: { name: 'stopped', namespace: 't' },
    spec: { containers: [{ name: 'c', image: IMAGE, command: ['sleep', '3600'] }] },
  },
};

async function snapshot(endpoint: string): Promise<SnapshotNode> {
  const { stdout } = await run(
    process.execPath,
    ['bin/podscope.mjs', 'snapshot', '--cri', `node=${endpoint}`, '--json'],
    { timeout: 60_000 },
  );
  const doc = JSON.parse(stdout) as { nodes: SnapshotNode[] };
  expect(doc.nodes).toHaveLength(1);
  const [node] = doc.nodes;
  if (!node) throw new Error('no node in the snapshot');
  return node;
}

const container = (node: SnapshotNode, pod: string): V1ContainerStatus | undefined =>
  node.pods.find((p) => p.metadata.name === pod)?.status.containerStatuses?.[0];

function suite(name: string, start: () => Promise<Target>, skip = false) {
  describe.skipIf(skip)(`podscope snapshot on ${name}`, () => {
    let target: Target;
    let client: CriClient;
    let driver: Driver;
    let node: SnapshotNode;

    beforeAll(async () => {
      target = await start();
      client = new CriClient(target.endpoint);
      driver = new Driver({ client, node: 'node', lab: true });
      const applied = await Promise.all(Object.values(pods).map((p) => driver.apply(p)));
      // Wait until the four one-shot pods have finished and the long runner is running.
      const deadline = Date.now() + 45_000;
      for (;;) {
        const list = await client.listContainers();
        const exited = list.filter((c) => c.state === 'exited').length;
        const running = list.filter((c) => c.state === 'running').length;
        if ((exited >= 4 && running >= 1) || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      // Stop the long runner's sandbox behind the driver's back, as a node problem would.
      await driver.stop();
      const uid = applied[4]?.metadata?.uid;
      const sandbox = (await client.listPodSandbox()).find((s) => s.uid === uid);
      if (sandbox) await client.stopPodSandbox(sandbox.id);
      node = await snapshot(target.endpoint);
    }, 120_000);

    afterAll(async () => {
      client?.close();
      await target?.stop();
    });

    it('names the runtime and reports node conditions', () => {
      expect(node.runtime.apiVersion).toBe('v1');
      expect(node.conditions.map((c) => c.type)).toContain('Ready');
    });

    it('a container that exits 3 is terminated with reason Error and exit code 3', () => {
      expect(container(node, 'exit3')?.state?.terminated).toMatchObject({
        exitCode: 3,
        reason: 'Error',
      });
      expect(node.pods.find((p) => p.metadata.name === 'exit3')?.status.phase).toBe('Failed');
    });

    it('exit 0 is Completed, and the Never pod Succeeded', () => {
      expect(container(node, 'exit0')?.state?.terminated).toMatchObject({
        exitCode: 0,
        reason: 'Completed',
      });
      expect(node.pods.find((p) => p.metadata.name === 'exit0')?.status.phase).toBe('Succeeded');
    });

    it('over its memory limit is OOMKilled, 137', () => {
      expect(container(node, 'oom')?.state?.terminated).toMatchObject({
        exitCode: 137,
        reason: 'OOMKilled',
      });
    });

    it('a missing binary is StartError, 128', () => {
      expect(container(node, 'nobinary')?.state?.terminated).toMatchObject({
        exitCode: 128,
        reason: 'StartError',
      });
    });

    it('a stopped sandbox makes PodReadyToStartContainers False', () => {
      const pod = node.pods.find((p) => p.metadata.name === 'stopped');
      expect(
        pod?.status.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status,
      ).toBe('False');
      expect(pod?.why.conditions.PodReadyToStartContainers).toBeTruthy();
    });

    it('explains every phase in words', () => {
      for (const p of node.pods) expect(p.why.phase.length).toBeGreaterThan(10);
    });
  });
}

suite('the simulator', startSimTarget);
suite(
  'real containerd',
  startContainerdTarget,
  skipContainerd('podscope snapshot on real containerd'),
);

describe('podscope snapshot with an unreadable endpoint', () => {
  it('exits non-zero with a one-line error', async () => {
    const err = await run(process.execPath, [
      'bin/podscope.mjs',
      'snapshot',
      '--cri',
      '/tmp/podscope-no-such.sock',
      '--json',
      '--timeout',
      '2s',
    ]).catch((e: unknown) => e as { code: number; stderr: string; stdout: string });
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
    expect((err as { stderr: string }).stderr).toMatch(/podscope-no-such\.sock/);
    expect((err as { stdout: string }).stdout).toBe('');
  }, 30_000);
});
