/**
 * Reading /proc and /sys/fs/cgroup: how the harness finds what belongs to one containerd
 * instance (its daemon, its shims, its containers' processes, its mounts and cgroups) without
 * asking containerd — which may be dead when a crashed test run is cleaned up.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export const CGROUP_ROOT = '/sys/fs/cgroup';

/** Every pid currently in /proc. */
export function listPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export function readCmdline(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter((part) => part.length > 0);
  } catch {
    return undefined;
  }
}

interface ProcStat {
  state: string;
  ppid: number;
  /** Clock ticks since boot: with the pid, it names a process even after pid reuse. */
  startTime: string;
}

export function readStat(pid: number): ProcStat | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const rest = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    const ppid = rest[1];
    const startTime = rest[19];
    if (state === undefined || ppid === undefined || startTime === undefined) return undefined;
    return { state, ppid: Number(ppid), startTime };
  } catch {
    return undefined;
  }
}

/** The mount namespace id, e.g. `mnt:[4026532201]`. */
export function readMntNs(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/mnt`);
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie; with `startTime`, also the same process that was recorded. */
export function isAlive(pid: number, startTime?: string): boolean {
  const stat = readStat(pid);
  if (stat === undefined || stat.state === 'Z' || stat.state === 'X') return false;
  return startTime === undefined || stat.startTime === startTime;
}

/** `/proc/<pid>/cgroup` paths, e.g. `/k8s.io/<id>`, one per hierarchy line. */
export function readCgroupPaths(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1));
  } catch {
    return [];
  }
}

/** The mount points (unescaped) of one process's mount namespace. */
export function readMountPoints(pid: number | 'self'): string[] {
  try {
    return readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => unescapeMount(line.split(' ')[4] ?? ''));
  } catch {
    return [];
  }
}

/** mountinfo escapes space, tab, newline and backslash as \ooo octal. */
function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/**
 * Where runc's cgroupfs driver may put `k8s.io/<id>`: each v1 hierarchy under /sys/fs/cgroup
 * (`memory`, `pids`, `systemd`, `unified`, …), or /sys/fs/cgroup itself on a pure v2 host.
 */
export function cgroupHierarchies(): string[] {
  const isCgroup = (dir: string) => existsSync(join(dir, 'cgroup.procs'));
  const found = isCgroup(CGROUP_ROOT) ? [CGROUP_ROOT] : [];
  try {
    for (const d of readdirSync(CGROUP_ROOT, { withFileTypes: true })) {
      const dir = join(CGROUP_ROOT, d.name);
      if (d.isDirectory() && isCgroup(dir)) found.push(dir);
    }
  } catch {
    // no cgroup filesystem: nothing to find
  }
  return found;
}

/** Existing cgroup folders named `k8s.io/<id>` in any hierarchy, for the given ids. */
export function cgroupDirsFor(ids: Iterable<string>, namespace = 'k8s.io'): string[] {
  const wanted = [...ids];
  const found: string[] = [];
  for (const hierarchy of cgroupHierarchies()) {
    let names: string[];
    try {
      names = readdirSync(join(hierarchy, namespace));
    } catch {
      continue;
    }
    for (const id of wanted) if (names.includes(id)) found.push(join(hierarchy, namespace, id));
  }
  return found;
}
