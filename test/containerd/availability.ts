/**
 * Can this machine run a private containerd? Integration suites ask once, at collection time,
 * and skip with the reason printed when it cannot (not Linux, not root, nothing to install
 * with, no private mount namespaces, no overlayfs). On a machine where it can, they run: the
 * answer installs what is missing rather than skipping for it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureContainerdInstalled } from './install';
import { CGROUP_ROOT, cgroupHierarchies } from './procfs';

export type Availability = { ok: true } | { ok: false; reason: string };

/** Set to `0`/`skip` to skip the containerd suites on purpose (the reason says so). */
export const OPT_OUT_ENV = 'PODSCOPE_CONTAINERD';

let memo: Availability | undefined;

function probe(): Availability {
  const optOut = process.env[OPT_OUT_ENV];
  if (optOut === '0' || optOut === 'skip' || optOut === 'off') {
    return { ok: false, reason: `${OPT_OUT_ENV}=${optOut} in the environment` };
  }
  if (process.platform !== 'linux')
    return { ok: false, reason: `needs Linux, this is ${process.platform}` };
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return { ok: false, reason: 'needs root (containerd, mount namespaces, cgroups)' };
  }
  let unshare: string;
  try {
    unshare = ensureContainerdInstalled().binaries.unshare;
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  try {
    if (!/\toverlay$/m.test(readFileSync('/proc/filesystems', 'utf8'))) {
      return {
        ok: false,
        reason: 'the kernel has no overlayfs (the overlayfs snapshotter needs it)',
      };
    }
  } catch (err) {
    return { ok: false, reason: `cannot read /proc/filesystems: ${(err as Error).message}` };
  }
  if (cgroupHierarchies().length === 0)
    return { ok: false, reason: `no cgroup hierarchy under ${CGROUP_ROOT}` };

  // The start recipe in one go: a private mount namespace in which a mount is allowed.
  const probeDir = mkdtempSync(join(tmpdir(), 'podscope-unshare-probe-'));
  try {
    const r = spawnSync(
      unshare,
      [
        '--mount',
        '--propagation',
        'private',
        '--',
        'mount',
        '-t',
        'tmpfs',
        'podscope-probe',
        probeDir,
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    if (r.error) return { ok: false, reason: `unshare --mount: ${r.error.message}` };
    if (r.status !== 0) {
      return { ok: false, reason: `unshare --mount / mount not permitted: ${r.stderr.trim()}` };
    }
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
  return { ok: true };
}

/** Memoized per process: the first call may install packages. */
export function containerdAvailability(): Availability {
  memo ??= probe();
  return memo;
}

/**
 * For `describe.skipIf(skipContainerd())`: true when containerd cannot run here, after printing
 * why — a skipped suite must never be silent.
 */
export function skipContainerd(suite: string): boolean {
  const a = containerdAvailability();
  if (a.ok) return false;
  console.warn(`[podscope] skipping ${suite}: real containerd unavailable — ${a.reason}`);
  return true;
}
