/**
 * What an instance has put on the machine, captured while it runs, and the check that none of it
 * is left after stop(): no process (by pid and start time, by command line, by mount namespace,
 * by cgroup), no mount under its folder in any mount namespace, no `k8s.io/<id>` cgroup, no folder.
 */
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inIdCgroup, instanceIds, instanceProcesses, namesFolder, readRecord } from './cleanup';
import { CRI_NAMESPACE } from './config';
import {
  cgroupDirsFor,
  listPids,
  readCgroupPaths,
  readCmdline,
  readMntNs,
  readMountPoints,
  readStat,
} from './procfs';

export interface Footprint {
  dir: string;
  mntNs?: string;
  /** pid → start time, for every process of the instance seen at capture. */
  processes: Map<number, string>;
  /** Container and sandbox ids (cgroup names). */
  ids: string[];
  cgroups: string[];
}

export function captureFootprint(dir: string): Footprint {
  const record = readRecord(dir);
  const ids = instanceIds(dir);
  const processes = new Map<number, string>();
  for (const pid of instanceProcesses(dir, record, ids)) {
    const start = readStat(pid)?.startTime;
    if (start !== undefined) processes.set(pid, start);
  }
  return {
    dir,
    mntNs: record?.mntNs,
    processes,
    ids: [...ids],
    cgroups: cgroupDirsFor(ids, CRI_NAMESPACE),
  };
}

/** Everything of the footprint still on the machine, in words; empty when clean. */
export function findLeftovers(fp: Footprint): string[] {
  const left: string[] = [];
  const describe = (pid: number) =>
    `${pid} ${(readCmdline(pid) ?? []).join(' ')} [${readStat(pid)?.state ?? '?'}]`;
  const pids = listPids().filter((pid) => pid !== process.pid);
  const survivors = pids.filter((pid) => {
    const start = fp.processes.get(pid);
    return start !== undefined && readStat(pid)?.startTime === start;
  });
  // A namespace inode number is reused once the namespace dies: it still names the instance's
  // namespace only while one of the instance's own processes lives in it.
  const nsAlive = fp.mntNs !== undefined && survivors.some((pid) => readMntNs(pid) === fp.mntNs);
  for (const pid of pids) {
    if (survivors.includes(pid)) left.push(`process (seen while running) ${describe(pid)}`);
    else if (namesFolder(readCmdline(pid), fp.dir))
      left.push(`process naming the folder ${describe(pid)}`);
    else if (nsAlive && readMntNs(pid) === fp.mntNs) {
      left.push(`process in the private mount namespace ${describe(pid)}`);
    } else if (inIdCgroup(readCgroupPaths(pid), fp.ids)) {
      left.push(`process in an instance cgroup ${describe(pid)}`);
    }
    for (const point of readMountPoints(pid)) {
      if (point === fp.dir || point.startsWith(fp.dir + sep)) {
        left.push(`mount ${point} (seen by pid ${pid})`);
      }
    }
  }
  for (const cg of cgroupDirsFor(fp.ids, CRI_NAMESPACE)) left.push(`cgroup ${cg}`);
  if (existsSync(fp.dir)) left.push(`folder ${fp.dir}`);
  return [...new Set(left)];
}

/**
 * Polls findLeftovers until it is empty or `timeoutMs` passes. Killed processes whose parent
 * is PID 1 stay zombies until init reaps them (on this VM within about a second), so the check
 * gives the machine that long.
 */
export async function waitForNoLeftovers(fp: Footprint, timeoutMs = 5_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let left = findLeftovers(fp);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = findLeftovers(fp);
  }
  return left;
}
