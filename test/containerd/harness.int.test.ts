/**
 * The harness against the real thing: a private containerd starts, answers, has the image, runs
 * containers in its own mount namespace — and after stop() nothing of it is left on the
 * machine. Crashed runs are swept by the next start; live instances of other processes are not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriClient } from '@/server/cri';
import { exited, kubeletContainer, kubeletSandbox, Timeline, watch } from '../contract/scenario';
import { skipContainerd } from './availability';
import { readRecord, sweepStaleInstances } from './cleanup';
import { captureFootprint, waitForNoLeftovers } from './footprint';
import { startContainerd, type ContainerdInstance } from './instance';
import { isAlive, readMntNs, readMountPoints } from './procfs';

const skip = skipContainerd('test/containerd harness');

/** A base folder of our own, so sweeps here never meet instances of other test files. */
const base = mkdtempSync(join(tmpdir(), 'podscope-harness-test-'));
const started: ContainerdInstance[] = [];

async function start(): Promise<ContainerdInstance> {
  const instance = await startContainerd({ tmpDir: base });
  started.push(instance);
  return instance;
}

afterAll(async () => {
  // stop() is idempotent: whatever a failed test left running goes here.
  await Promise.allSettled(started.map((i) => i.stop()));
  rmSync(base, { recursive: true, force: true });
});

const runSleeper = (i: ContainerdInstance, id: string) =>
  i.ctr(['run', '-d', '--null-io', i.image.name, id, 'sleep', '3600']);

describe.skipIf(skip)('startContainerd', () => {
  let ctrd: ContainerdInstance;
  beforeAll(async () => {
    ctrd = await start();
  });

  it('answers on its own socket with the busybox image imported, CRI plugin loaded', async () => {
    expect(ctrd.endpoint).toBe(`unix://${ctrd.dir}/containerd.sock`);
    expect(isAlive(ctrd.pid)).toBe(true);
    const images = await ctrd.ctr(['images', 'ls']);
    expect(images).toContain(ctrd.image.name);
    expect(images).toContain(ctrd.image.manifestDigest);
    const plugins = await ctrd.ctr(['plugins', 'ls']);
    expect(plugins).toMatch(/io\.containerd\.grpc\.v1\s+cri\s+\S+\s+ok/);
    expect(plugins).not.toMatch(/\serror\s*$/m);
    console.info(
      `[podscope] containerd ready in ${ctrd.timings.readyMs.toFixed(0)} ms, image import ` +
        `${ctrd.timings.importMs.toFixed(0)} ms, startContainerd total ${ctrd.timings.totalMs.toFixed(0)} ms`,
    );
  });

  it('runs in a private mount namespace whose /run is a folder of the instance', async () => {
    expect(readMntNs(ctrd.pid)).not.toBe(readMntNs(process.pid));
    expect(readMountPoints(ctrd.pid)).toContain('/run');
    await runSleeper(ctrd, 'nsprobe');
    // The shim's socket landed in the instance's run folder, not the host's /run.
    expect(readdirSync(join(ctrd.paths.run, 'containerd', 's')).length).toBeGreaterThan(0);
    expect(readRecord(ctrd.dir)?.mntNs).toBe(readMntNs(ctrd.pid));
  });

  it('gives concurrent instances their own folders and sockets; stopping one leaves the other', async () => {
    const other = await start();
    expect(other.dir).not.toBe(ctrd.dir);
    expect(other.socketPath).not.toBe(ctrd.socketPath);
    // Ids must differ between live instances (CRI's are random): runc names the cgroup after them.
    await runSleeper(other, 'twin-a');
    await runSleeper(ctrd, 'twin-b');
    const fp = captureFootprint(other.dir);
    await other.stop();
    expect(await waitForNoLeftovers(fp)).toEqual([]);
    expect(await ctrd.ctr(['tasks', 'ls'])).toMatch(/twin-b\s+\d+\s+RUNNING/);
  });
});

describe.skipIf(skip)('stop()', () => {
  it('leaves no process, mount, cgroup or folder behind', async () => {
    const ctrd = await start();
    await runSleeper(ctrd, 'a');
    await runSleeper(ctrd, 'b');
    await ctrd.ctr([
      'run',
      '-d',
      '--null-io',
      ctrd.image.name,
      'c',
      'sh',
      '-c',
      'sleep 3600 & sleep 3600',
    ]);
    const fp = captureFootprint(ctrd.dir);
    // containerd, three shims, the sleepers (one container forks a child)
    expect(fp.processes.size).toBeGreaterThanOrEqual(1 + 3 + 4);
    expect(fp.processes.has(ctrd.pid)).toBe(true);
    expect(fp.ids.sort()).toEqual(['a', 'b', 'c']);
    expect(fp.cgroups.some((c) => c.endsWith('/memory/k8s.io/a'))).toBe(true);

    const report = await ctrd.stop();
    expect(report.leftovers).toEqual([]);
    expect(await waitForNoLeftovers(fp)).toEqual([]);
    await expect(ctrd.stop()).resolves.toBe(report); // idempotent
  });

  it('unmounts whatever is mounted under its folder in the host namespace', async () => {
    const ctrd = await start();
    const point = join(ctrd.dir, 'root', 'stray-mount');
    mkdirSync(point);
    const r = spawnSync('mount', ['-t', 'tmpfs', 'podscope-stray', point], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readMountPoints('self')).toContain(point);
    const fp = captureFootprint(ctrd.dir);
    const report = await ctrd.stop();
    expect(report.unmounted).toEqual([point]);
    expect(readMountPoints('self')).not.toContain(point);
    expect(await waitForNoLeftovers(fp)).toEqual([]);
  });

  it('cleans up when containerd died first and its shims outlived it', async () => {
    const ctrd = await start();
    await runSleeper(ctrd, 'survivor');
    const fp = captureFootprint(ctrd.dir);
    process.kill(ctrd.pid, 'SIGKILL');
    const until = Date.now() + 5_000;
    while (isAlive(ctrd.pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(isAlive(ctrd.pid)).toBe(false);
    // The shim and the container are still there: that is what stop() must handle.
    expect(
      [...fp.processes.keys()].filter((pid) => pid !== ctrd.pid && isAlive(pid)).length,
    ).toBeGreaterThanOrEqual(2);
    await ctrd.stop();
    expect(await waitForNoLeftovers(fp)).toEqual([]);
  });
});

describe.skipIf(skip)('restart()', () => {
  it('restarts containerd under a running container, which survives and whose exit is reported', async () => {
    const ctrd = await start();
    const cri = new CriClient(ctrd.endpoint, { timeoutMs: 10_000 });
    try {
      const pod = kubeletSandbox('restart', ctrd.paths.logs);
      const podId = await cri.runPodSandbox(pod);
      const spec = kubeletContainer(pod, 'main', ['sh', '-c', 'sleep 2; exit 7']);
      const id = await cri.createContainer(podId, spec, pod);
      await cri.startContainer(id);
      const before = ctrd.pid;
      const fp = captureFootprint(ctrd.dir);

      await ctrd.restart({ downMs: 100 });
      expect(ctrd.pid).not.toBe(before);
      expect(isAlive(before)).toBe(false);
      expect((await cri.containerStatus(id)).state).toBe('running');

      const timeline = { status: new Timeline(), list: new Timeline() };
      const done = await watch(cri, id, exited, timeline);
      expect({ exitCode: done.exitCode, reason: done.reason }).toEqual({
        exitCode: 7,
        reason: 'Error',
      });

      const after = captureFootprint(ctrd.dir);
      await ctrd.stop();
      // Both generations: the first containerd's namespace (its shims) and the second's.
      expect(await waitForNoLeftovers(fp)).toEqual([]);
      expect(await waitForNoLeftovers(after)).toEqual([]);
    } finally {
      cri.close();
    }
  });
});

/** Runs fixtures/crashing-owner.ts: a test process that starts containerd and never stops it. */
function startCrashingOwner(baseDir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./fixtures/crashing-owner.ts', import.meta.url)),
      baseDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise<{ dir: string; pid: number }>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve(JSON.parse(line) as { dir: string; pid: number }),
    );
    child.once('exit', (code) => reject(new Error(`crashing-owner exited early with ${code}`)));
  });
  return { child, ready };
}

describe.skipIf(skip)('sweeping after a crashed run', () => {
  it('leaves the instance of a live owner alone, and removes it all once the owner is dead', async () => {
    const crashBase = join(base, 'crash');
    mkdirSync(crashBase);
    const owner = startCrashingOwner(crashBase);
    const { dir, pid } = await owner.ready;
    const fp = captureFootprint(dir);
    expect(fp.processes.has(pid)).toBe(true);
    expect(fp.ids).toEqual(['orphan']);

    // Another test file starting now must not touch it: its owner is alive.
    expect(await sweepStaleInstances(crashBase)).toEqual([]);
    expect(isAlive(pid)).toBe(true);

    const exited = new Promise((r) => owner.child.once('exit', r));
    owner.child.kill('SIGKILL');
    await exited;
    expect(isAlive(pid)).toBe(true); // containerd outlives its crashed owner…

    // …until the next start sweeps it.
    const next = await startContainerd({ tmpDir: crashBase });
    started.push(next);
    expect(await waitForNoLeftovers(fp)).toEqual([]);
    expect(readdirSync(crashBase)).toEqual([next.dir.slice(crashBase.length + 1)]);
    await next.stop();
  }, 90_000);

  it('removes a folder whose owner died before it wrote its record', async () => {
    const crashBase = join(base, 'early');
    // The owner pid in the name is a process that has certainly exited.
    const gone = spawn('true');
    await new Promise((r) => gone.once('exit', r));
    const dir = join(crashBase, `inst-${gone.pid}-early`);
    mkdirSync(join(dir, 'state'), { recursive: true });
    const reports = await sweepStaleInstances(crashBase);
    expect(reports.map((r) => r.dir)).toEqual([dir]);
    expect(existsSync(dir)).toBe(false);
  });
});
