/**
 * The image as a cluster runs it: `npm run image` builds the OCI archive, the test suite's own
 * containerd imports it with `ctr images import`, and the CRI runs it the way a kubelet runs
 * the manifests' pods — the console as uid 65532 on a read-only root file system with emptyDirs
 * at the declared writable paths, no privilege escalation, every capability dropped, on the
 * host network. Also: the image has no shell, and its root file system refuses writes.
 *
 * The DaemonSet path: the agent runs from the image as a pod on that same containerd — host
 * network, the containerd socket mounted as the manifests mount it, uid 0 with every capability
 * dropped, read-only root fs — watching the very containerd it runs on and publishing to the
 * test's nats-server; a console replica's view of the bus (server/cluster/view.ts) then shows
 * that node and the agent's own pod, Running.
 *
 * Set PODSCOPE_TEST_IMAGE_ARCHIVE to a prebuilt archive to skip the build.
 */
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { CriClient } from '@/server/cri/client';
import type { ContainerSpec, SandboxSpec } from '@/server/cri/types';
import {
  skipContainerd,
  startContainerd,
  type ContainerdInstance,
} from '@/test/containerd/harness';
import { connectBus, type BusConnection } from '@/server/cluster/bus/connection';
import { readLive } from '@/server/cluster/bus/kv';
import { ReplicaReader } from '@/server/cluster/bus/reader';
import { ClusterView, followBus } from '@/server/cluster/view';
import { startNats, natsMissing, type NatsInstance } from '@/test/cluster/harness';
import { APP_UID } from './rootfs';

const REF = `localhost/podscope:${pkg.version}`;
/** This worktree's E2E port: the console listens on the host network. */
const PORT = Number(process.env.E2E_PORT ?? 3807);

const skip =
  skipContainerd('the image on containerd') ||
  (natsMissing()
    ? (console.warn(`the image on containerd: skipped, ${natsMissing()}`), true)
    : false) ||
  (!existsSync('/usr/bin/buildah') && !process.env.PODSCOPE_TEST_IMAGE_ARCHIVE
    ? (console.warn('the image on containerd: skipped, buildah is not installed'), true)
    : false);

describe.skipIf(skip)('the image on containerd, run through the CRI', () => {
  let ctrd: ContainerdInstance;
  let cri: CriClient;
  let work: string;
  let nats: NatsInstance;
  let bus: BusConnection | undefined;
  const sandboxes: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'podscope-image-cri-'));
    let archive = process.env.PODSCOPE_TEST_IMAGE_ARCHIVE;
    if (!archive) {
      archive = join(work, 'podscope.tar');
      const r = spawnSync(process.execPath, ['scripts/image.mjs'], {
        env: { ...process.env, PODSCOPE_IMAGE_OUT: archive },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (r.status !== 0) throw new Error(`npm run image failed:\n${r.stderr.slice(-3000)}`);
    }
    nats = await startNats();
    ctrd = await startContainerd();
    await ctrd.ctr(['images', 'import', archive]);
    cri = new CriClient(ctrd.endpoint, { timeoutMs: 30_000 });
  }, 20 * 60_000);

  afterAll(async () => {
    for (const id of sandboxes) {
      await cri?.stopPodSandbox(id).catch(() => undefined);
      await cri?.removePodSandbox(id).catch(() => undefined);
    }
    cri?.close();
    await bus?.close();
    await ctrd?.stop();
    await nats?.destroy();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A folder the console's uid owns, as an emptyDir with fsGroup would be. */
  function emptyDir(name: string): string {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    chownSync(dir, APP_UID, APP_UID);
    return dir;
  }

  async function run(
    name: string,
    container: Omit<ContainerSpec, 'name' | 'image'>,
    namespace = 'podscope',
  ) {
    const logs = join(work, `logs-${name}`);
    mkdirSync(logs, { recursive: true });
    const sandbox: SandboxSpec = {
      name,
      namespace,
      uid: `${name}-${process.pid}`,
      networkMode: 'NODE',
      logDirectory: logs,
    };
    const sandboxId = await cri.runPodSandbox(sandbox);
    sandboxes.push(sandboxId);
    const spec: ContainerSpec = {
      name,
      image: REF,
      logPath: `${name}.log`,
      // As the manifests: no escalation, no capability, the image's non-root user.
      noNewPrivs: true,
      dropCapabilities: ['ALL'],
      ...container,
    };
    const id = await cri.createContainer(sandboxId, spec, sandbox);
    await cri.startContainer(id).catch(() => undefined); // a StartError shows in the status
    return {
      id,
      podUid: sandbox.uid,
      log: () => {
        try {
          return readFileSync(join(logs, `${name}.log`), 'utf8');
        } catch {
          return '(no log)';
        }
      },
    };
  }

  async function exited(id: string, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const c = await cri.containerStatus(id);
      if (c.state === 'exited') return c;
      if (Date.now() > deadline) throw new Error(`container ${id} still ${c.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('the archive was imported under its versioned name (never latest)', async () => {
    const images = await cri.listImages();
    const tags = images.flatMap((i) => i.repoTags);
    expect(tags).toContain(REF);
    expect(tags.some((t) => t.endsWith(':latest'))).toBe(false);
  });

  it('the console serves from a read-only root file system as uid 65532', async () => {
    const { id, log } = await run('console', {
      args: ['console'],
      env: { PODSCOPE_HOST: '127.0.0.1', PODSCOPE_PORT: String(PORT) },
      runAsUser: APP_UID,
      runAsGroup: APP_UID,
      readonlyRootfs: true,
      mounts: [
        { containerPath: '/tmp', hostPath: emptyDir('tmp') },
        { containerPath: '/data', hostPath: emptyDir('data') },
        { containerPath: '/app/.next/cache', hostPath: emptyDir('next-cache') },
      ],
    });
    const deadline = Date.now() + 90_000;
    let health: { ok?: boolean; nodes?: Record<string, unknown> } | undefined;
    while (!health?.ok) {
      const c = await cri.containerStatus(id);
      if (c.state === 'exited') throw new Error(`the console exited ${c.exitCode}:\n${log()}`);
      if (Date.now() > deadline) throw new Error(`no /api/healthz in time:\n${log()}`);
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}/api/healthz`);
        if (res.ok) health = (await res.json()) as typeof health;
      } catch {
        // not listening yet
      }
      if (!health?.ok) await new Promise((r) => setTimeout(r, 250));
    }
    // The embedded simulated nodes: the whole runtime started inside the image.
    expect(Object.keys(health.nodes ?? {}).length).toBeGreaterThan(0);
    const page = await fetch(`http://127.0.0.1:${PORT}/en`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Podscope');
    // The timeline was written where the image declares it, by the console's uid.
    expect(statSync(join(work, 'data', 'timeline.db')).uid).toBe(APP_UID);
    await cri.stopContainer(id, 10);
    expect((await exited(id)).exitCode).not.toBe(137);
  });

  it('has no shell', async () => {
    const { id } = await run('no-shell', { command: ['/bin/sh', '-c', 'true'] });
    const c = await exited(id);
    expect(c.reason).toBe('StartError');
  });

  it('refuses writes to its root file system (read-only) and accepts them in /tmp', async () => {
    const write = (path: string) => ({
      command: [
        '/usr/local/bin/node',
        '-e',
        `try { require('fs').writeFileSync(${JSON.stringify(path)}, 'x'); } catch (e) { console.log(e.code); process.exit(3); }`,
      ],
      runAsUser: APP_UID,
      readonlyRootfs: true,
      mounts: [{ containerPath: '/tmp', hostPath: emptyDir('tmp-write') }],
    });
    const root = await run('write-root', write('/app/owned'));
    expect((await exited(root.id)).exitCode).toBe(3);
    expect(root.log()).toMatch(/EROFS/);
    const tmp = await run('write-tmp', write('/tmp/ok'));
    expect((await exited(tmp.id)).exitCode).toBe(0);
  });

  it('the agent runs as a DaemonSet pod: watches the containerd it runs on and publishes that node, its own pod included, to NATS', async () => {
    const node = 'node-under-test';
    const cluster = 'image-test';
    const listen = `127.0.0.1:${PORT + 1}`;
    // As deploy/kubernetes/base/agent/daemonset.yaml: the socket at /run/podscope/cri.sock,
    // uid 0 (the socket's owner) with ALL capabilities dropped, read-only root fs, /tmp emptyDir.
    const agent = await run(
      'podscope-agent',
      {
        args: ['agent'],
        env: {
          PODSCOPE_NODE_NAME: node,
          PODSCOPE_CRI: 'unix:///run/podscope/cri.sock',
          PODSCOPE_NATS_URL: nats.url,
          PODSCOPE_CLUSTER: cluster,
          PODSCOPE_AGENT_LISTEN: listen,
          NODE_OPTIONS: '--max-old-space-size=96',
        },
        runAsUser: 0,
        runAsGroup: 0,
        readonlyRootfs: true,
        mounts: [
          { containerPath: '/run/podscope/cri.sock', hostPath: ctrd.socketPath, readonly: true },
          { containerPath: '/tmp', hostPath: emptyDir('agent-tmp') },
        ],
      },
      'podscope-agent',
    );
    // A console replica's view of the cluster, followed from the bus as the console follows it.
    bus = await connectBus({ servers: nats.url, cluster, log: () => {} });
    const view = new ClusterView({ graceMs: 40_000, startedAt: Date.now() });
    const following = new AbortController();
    try {
      const deadline = Date.now() + 60_000;
      let followed = false;
      for (;;) {
        const c = await cri.containerStatus(agent.id);
        if (c.state === 'exited') {
          throw new Error(`the agent exited ${c.exitCode}:\n${agent.log()}`);
        }
        if (!followed && (await readLive(bus)).states.has(node)) {
          await followBus(new ReplicaReader(bus), view, { signal: following.signal });
          followed = true;
        }
        const shown = followed ? view.snapshot(Date.now()).nodes[node] : undefined;
        const own = shown && Object.values(shown.pods).find((p) => p.uid === agent.podUid);
        if (own) {
          expect(own).toMatchObject({ name: 'podscope-agent', namespace: 'podscope-agent' });
          expect(own.status.phase).toBe('Running');
          expect(shown.runtime?.name).toBe('containerd');
          const ready = shown.conditions.find((cond) => cond.type === 'Ready');
          // containerd here has no CNI: the kubelet's rule says NotReady, "network is not ready".
          expect(ready?.status).toBe('False');
          break;
        }
        if (Date.now() > deadline) {
          throw new Error(`the node or the agent's pod did not reach the view:\n${agent.log()}`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      following.abort();
    }
    const health = await fetch(`http://${listen}/healthz`);
    expect(health.status).toBe(200);
    const metrics = await (await fetch(`http://${listen}/metrics`)).text();
    expect(metrics).toMatch(/podscope_agent_published_events_total [1-9]/);
    await cri.stopContainer(agent.id, 10);
    expect((await exited(agent.id)).exitCode).toBe(0);
  });
});
