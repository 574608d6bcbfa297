/**
 * Tearing down one containerd instance so that nothing of it remains: no process (containerd,
 * its shims, its containers), no mount, no cgroup, no folder. The same code serves `stop()` and
 * the sweep of instances left behind by a crashed test run, so it asks containerd nothing — it
 * finds what belongs to the instance from the instance folder, /proc and /sys/fs/cgroup.
 *
 * What belongs to an instance:
 *  - its containerd (recorded pid + start time) and every process whose command line names the
 *    instance folder (containerd, `containerd-shim-runc-v2 … -address <dir>/containerd.sock`);
 *  - every process in containerd's private mount namespace (the shims run there);
 *  - every process in the cgroups `k8s.io/<id>` of the ids found in the instance's own folders
 *    (task bundles, runc state, CRI container/sandbox folders): the containers themselves.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CRI_NAMESPACE, instancePaths } from './config';
import {
  cgroupDirsFor,
  isAlive,
  listPids,
  readCgroupPaths,
  readCmdline,
  readMntNs,
  readMountPoints,
  readStat,
} from './procfs';

/** What the harness writes to `<dir>/owner.json` as soon as it knows it. */
export interface InstanceRecord {
  /** The test process that started the instance; when it is gone, the instance is stale. */
  ownerPid: number;
  ownerStartTime?: string;
  containerdPid?: number;
  containerdStartTime?: string;
  /** containerd's private mount namespace (never the host's: checked before it is recorded). */
  mntNs?: string;
}

export const INSTANCE_PREFIX = 'inst-';

export function writeRecord(dir: string, record: InstanceRecord): void {
  const path = instancePaths(dir).owner;
  writeFileSync(`${path}.partial`, JSON.stringify(record));
  // rename keeps readers from ever seeing half a record
  renameSync(`${path}.partial`, path);
}

/** The record, or what the folder name says (`inst-<ownerPid>-…`) when none was written. */
export function readRecord(dir: string): InstanceRecord | undefined {
  try {
    return JSON.parse(readFileSync(instancePaths(dir).owner, 'utf8')) as InstanceRecord;
  } catch {
    const match = /(?:^|\/)inst-(\d+)-[^/]*$/.exec(dir);
    return match?.[1] === undefined ? undefined : { ownerPid: Number(match[1]) };
  }
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Container and sandbox ids this instance has run or may still run (folder names it wrote). */
export function instanceIds(dir: string): Set<string> {
  const p = instancePaths(dir);
  const ids = new Set<string>();
  const folders = [
    join(p.state, 'io.containerd.runtime.v2.task', CRI_NAMESPACE),
    join(p.runcRoot, CRI_NAMESPACE),
    join(p.root, 'io.containerd.grpc.v1.cri', 'containers'),
    join(p.root, 'io.containerd.grpc.v1.cri', 'sandboxes'),
    join(p.state, 'io.containerd.grpc.v1.cri', 'containers'),
    join(p.state, 'io.containerd.grpc.v1.cri', 'sandboxes'),
  ];
  for (const folder of folders) {
    for (const name of namesIn(folder)) if (!name.startsWith('.')) ids.add(name);
  }
  return ids;
}

/** Whether a `/proc/<pid>/cgroup` path is the cgroup of one of the ids (or below it). */
export function inIdCgroup(paths: readonly string[], ids: Iterable<string>): boolean {
  const suffixes = [...ids].map((id) => `/${CRI_NAMESPACE}/${id}`);
  return paths.some((path) => suffixes.some((s) => path === s || path.startsWith(`${s}/`)));
}

export function namesFolder(cmdline: readonly string[] | undefined, dir: string): boolean {
  return cmdline?.some((arg) => arg === dir || arg.startsWith(dir + sep)) ?? false;
}

/**
 * Every live process of the instance, by the rules in the header, plus the descendants of those
 * (a container's processes while its shim lives). Never this process.
 *
 * The mount-namespace rule applies only once a process found by another rule is seen in that
 * namespace: the kernel reuses the inode numbers of dead namespaces, so a recorded `mnt:[…]` of
 * a crashed instance may by now name another, live instance's namespace.
 *
 * Container ids must be unique among instances running at once (CRI ids are random 64-hex):
 * the cgroup `k8s.io/<id>` is shared by every runc that uses that id.
 */
export function instanceProcesses(
  dir: string,
  record: InstanceRecord | undefined,
  ids: Set<string>,
): number[] {
  const live = listPids()
    .filter((pid) => pid !== process.pid)
    .map((pid) => ({ pid, stat: readStat(pid) }))
    .filter((p) => p.stat !== undefined && p.stat.state !== 'Z' && p.stat.state !== 'X');
  const found = new Set<number>();
  for (const { pid, stat } of live) {
    const isContainerd =
      record?.containerdPid === pid && stat?.startTime === record.containerdStartTime;
    if (
      isContainerd ||
      namesFolder(readCmdline(pid), dir) ||
      inIdCgroup(readCgroupPaths(pid), ids)
    ) {
      found.add(pid);
    }
  }
  const ns = record?.mntNs;
  if (
    ns !== undefined &&
    ns !== readMntNs(process.pid) &&
    [...found].some((pid) => readMntNs(pid) === ns)
  ) {
    for (const { pid } of live) if (readMntNs(pid) === ns) found.add(pid);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const { pid, stat } of live) {
      if (!found.has(pid) && stat !== undefined && found.has(stat.ppid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

async function waitGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter((pid) => isAlive(pid));
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(10);
    alive = alive.filter((pid) => isAlive(pid));
  }
  return alive;
}

/** A paused (frozen) container cannot die of SIGKILL until thawed. */
function thaw(cgroupDir: string): void {
  const state = join(cgroupDir, 'freezer.state');
  if (existsSync(state)) {
    try {
      writeFileSync(state, 'THAWED');
    } catch {
      // not frozen or gone
    }
  }
}

/** rmdir depth-first; a v1 cgroup can stay busy for a moment after its last task exits. */
async function removeCgroup(dir: string, timeoutMs: number): Promise<boolean> {
  for (const d of readdirSafe(dir)) await removeCgroup(join(dir, d), timeoutMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      rmdirSync(dir);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      // Busy: a task is still exiting — or another instance reuses the id (then it stays).
      if (Date.now() >= deadline) return false;
      await sleep(20);
    }
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/** Mounts under the folder visible from this process, deepest first. */
function mountsUnder(dir: string): string[] {
  return readMountPoints('self')
    .filter((point) => point === dir || point.startsWith(dir + sep))
    .sort((a, b) => b.length - a.length);
}

export interface TeardownReport {
  dir: string;
  killed: number[];
  cgroupsRemoved: string[];
  unmounted: string[];
  /** Whatever could not be removed; empty on success. */
  leftovers: string[];
}

export interface TeardownOptions {
  /** How long containerd gets to exit on SIGTERM before SIGKILL. */
  termTimeoutMs?: number;
}

/**
 * Stops everything of the instance in `dir` and removes the folder. Order matters: containerd
 * first (so it does not react to its shims dying), then shims and containers by SIGKILL until
 * none is left, then cgroups, mounts, and the folder.
 */
export async function teardownInstance(
  dir: string,
  opts: TeardownOptions = {},
): Promise<TeardownReport> {
  const record = readRecord(dir);
  const report: TeardownReport = {
    dir,
    killed: [],
    cgroupsRemoved: [],
    unmounted: [],
    leftovers: [],
  };

  // Only by pid *and* start time: a bare pid may have been reused since a crashed run. Without
  // a start time containerd is still found below, by its command line naming the folder.
  const pid = record?.containerdPid;
  const started = record?.containerdStartTime;
  if (pid !== undefined && started !== undefined && isAlive(pid, started)) {
    signal(pid, 'SIGTERM');
    const still = await waitGone([pid], opts.termTimeoutMs ?? 5_000);
    if (still.length > 0) signal(pid, 'SIGKILL');
    report.killed.push(pid);
  }

  // Shims and containers: kill until a pass finds nothing (a container may fork meanwhile).
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ids = instanceIds(dir);
    for (const cg of cgroupDirsFor(ids, CRI_NAMESPACE)) thaw(cg);
    const pids = instanceProcesses(dir, record, ids);
    if (pids.length === 0) break;
    for (const p of pids) signal(p, 'SIGKILL');
    report.killed.push(...pids.filter((p) => !report.killed.includes(p)));
    const left = await waitGone(pids, 2_000);
    if (Date.now() > deadline) {
      report.leftovers.push(
        ...left.map((p) => `process ${p} (${(readCmdline(p) ?? []).join(' ')})`),
      );
      break;
    }
  }

  const ids = instanceIds(dir);
  for (const cg of cgroupDirsFor(ids, CRI_NAMESPACE)) {
    if (await removeCgroup(cg, 3_000)) report.cgroupsRemoved.push(cg);
    else report.leftovers.push(`cgroup ${cg}`);
  }

  for (const point of mountsUnder(dir)) {
    const r = spawnSync('umount', ['-l', point], { encoding: 'utf8' });
    if (r.status === 0) report.unmounted.push(point);
    else report.leftovers.push(`mount ${point}: ${r.stderr.trim()}`);
  }

  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch (err) {
    report.leftovers.push(`folder ${dir}: ${(err as Error).message}`);
  }
  return report;
}

/** Exclusive right to clean a stale folder; a lock whose holder died is taken over. */
function tryLock(dir: string): (() => void) | undefined {
  const lock = join(dir, 'cleanup.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      const stat = readStat(process.pid);
      writeFileSync(fd, JSON.stringify({ pid: process.pid, startTime: stat?.startTime }));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lock);
        } catch {
          // the folder is gone with it
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
      try {
        const holder = JSON.parse(readFileSync(lock, 'utf8')) as {
          pid: number;
          startTime?: string;
        };
        if (isAlive(holder.pid, holder.startTime)) return undefined;
      } catch {
        // unreadable: written by a holder that died mid-write
      }
      try {
        unlinkSync(lock);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Tears down every instance under `baseDir` whose owning test process is gone (a crashed or
 * killed run). Instances of live processes — other test files running now — are left alone.
 */
export async function sweepStaleInstances(baseDir: string): Promise<TeardownReport[]> {
  const reports: TeardownReport[] = [];
  for (const name of namesIn(baseDir)) {
    if (!name.startsWith(INSTANCE_PREFIX)) continue;
    const dir = join(baseDir, name);
    const record = readRecord(dir);
    if (record !== undefined && isAlive(record.ownerPid, record.ownerStartTime)) continue;
    const unlock = tryLock(dir);
    if (unlock === undefined) continue;
    try {
      reports.push(await teardownInstance(dir, { termTimeoutMs: 2_000 }));
    } finally {
      unlock();
    }
  }
  return reports;
}
