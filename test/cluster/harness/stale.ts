/**
 * Instances left behind by a test process that died without its exit hook (SIGKILL, OOM): each
 * instance folder records the test process that owns it and the server's PID. A folder whose
 * owner is gone is stale: its server is killed — only if that PID's command line still names the
 * folder, so a reused PID is never hit — and the folder removed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedTmpdir } from '../../shared-tmp';

export const BASE_DIR = join(sharedTmpdir(), 'podscope-cluster-test');

interface Owner {
  ownerPid: number;
  serverPid?: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

export function recordOwner(dir: string, serverPid?: number): void {
  const owner: Owner = { ownerPid: process.pid, ...(serverPid ? { serverPid } : {}) };
  writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
}

/** Removes stale instances of `prefix` under BASE_DIR; returns the folders removed. */
export function sweepStale(prefix: string): string[] {
  mkdirSync(BASE_DIR, { recursive: true });
  const removed: string[] = [];
  for (const name of readdirSync(BASE_DIR)) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(BASE_DIR, name);
    let owner: Owner | undefined;
    try {
      owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as Owner;
    } catch {
      owner = undefined; // a folder without a record: its creator died before writing one
    }
    if (owner && alive(owner.ownerPid)) continue;
    if (owner?.serverPid && cmdline(owner.serverPid).includes(dir)) {
      try {
        process.kill(owner.serverPid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
