/**
 * Makes sure the real runtime is on this machine: containerd (with ctr and the runc v2 shim),
 * runc, and a static busybox for the test image. On a Debian-like machine, as root, whatever is
 * missing is installed with apt-get; anywhere else a missing tool is an error naming it.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface ContainerdBinaries {
  containerd: string;
  ctr: string;
  shim: string;
  runc: string;
  busybox: string;
  unshare: string;
  mount: string;
  umount: string;
}

/** Tool → the Debian package that ships it. */
const PACKAGES: Record<keyof ContainerdBinaries, string> = {
  containerd: 'containerd',
  ctr: 'containerd',
  shim: 'containerd',
  runc: 'runc',
  busybox: 'busybox-static',
  unshare: 'util-linux',
  mount: 'mount',
  umount: 'mount',
};

const COMMANDS: Record<keyof ContainerdBinaries, string> = {
  containerd: 'containerd',
  ctr: 'ctr',
  shim: 'containerd-shim-runc-v2',
  runc: 'runc',
  busybox: 'busybox',
  unshare: 'unshare',
  mount: 'mount',
  umount: 'umount',
};

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** PATH lookup, plus the sbin folders a non-login root shell may lack. */
export function findExecutable(command: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter),
    '/usr/sbin',
    '/sbin',
    '/usr/bin',
    '/bin',
  ];
  for (const dir of dirs) {
    if (dir.length === 0) continue;
    const candidate = join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function locateAll(): {
  found: Partial<ContainerdBinaries>;
  missing: (keyof ContainerdBinaries)[];
} {
  const found: Partial<ContainerdBinaries> = {};
  const missing: (keyof ContainerdBinaries)[] = [];
  for (const key of Object.keys(COMMANDS) as (keyof ContainerdBinaries)[]) {
    // The image needs a *static* busybox at exactly /bin/busybox (busybox-static puts it there).
    const path =
      key === 'busybox'
        ? isExecutable('/bin/busybox')
          ? '/bin/busybox'
          : undefined
        : findExecutable(COMMANDS[key]);
    if (path === undefined) missing.push(key);
    else found[key] = path;
  }
  return { found, missing };
}

function complete(found: Partial<ContainerdBinaries>): ContainerdBinaries | undefined {
  const { containerd, ctr, shim, runc, busybox, unshare, mount, umount } = found;
  if (!containerd || !ctr || !shim || !runc || !busybox || !unshare || !mount || !umount) {
    return undefined;
  }
  return { containerd, ctr, shim, runc, busybox, unshare, mount, umount };
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.trim().slice(-2000)}`,
    );
  }
}

export interface InstallResult {
  binaries: ContainerdBinaries;
  /** Debian packages installed by this call (empty when everything was already there). */
  installed: string[];
}

/**
 * Finds containerd, ctr, the runc v2 shim, runc and /bin/busybox; installs the missing packages
 * (`containerd runc busybox-static`) when running as root on Linux with apt-get. Throws an Error
 * whose message says what is missing and why it could not be installed.
 */
export function ensureContainerdInstalled(): InstallResult {
  const first = locateAll();
  const ready = complete(first.found);
  if (ready) return { binaries: ready, installed: [] };

  const packages = [...new Set(first.missing.map((key) => PACKAGES[key]))];
  const missing = first.missing.map((key) => COMMANDS[key]).join(', ');
  if (process.platform !== 'linux') {
    throw new Error(
      `missing ${missing}; containerd tests need Linux (this is ${process.platform})`,
    );
  }
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(`missing ${missing}; installing ${packages.join(' ')} needs root`);
  }
  const aptGet = findExecutable('apt-get');
  if (aptGet === undefined) {
    throw new Error(`missing ${missing}; no apt-get to install ${packages.join(' ')} with`);
  }
  // Wait for the dpkg lock rather than fail when another test file installs at the same time.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  run(aptGet, ['update', '-q', ...lock]);
  run(aptGet, ['install', '-y', '-q', '--no-install-recommends', ...lock, ...packages]);

  const second = locateAll();
  const installedNow = complete(second.found);
  if (!installedNow) {
    const still = second.missing.map((key) => COMMANDS[key]).join(', ');
    throw new Error(`installed ${packages.join(' ')} but still missing ${still}`);
  }
  return { binaries: installedNow, installed: packages };
}
