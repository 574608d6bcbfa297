// buildah, the way it works on a fresh Debian machine and inside a sandbox as root: its own
// storage (vfs: no overlay mounts needed) under the project's cache, chroot isolation (the
// Containerfile runs nothing, so no namespaces are needed; buildah allows no --network with it).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function buildahStorage(cacheDir: string): string[] {
  const root = join(cacheDir, 'containers', 'storage');
  const runroot = join(cacheDir, 'containers', 'run');
  mkdirSync(root, { recursive: true });
  mkdirSync(runroot, { recursive: true });
  return ['--root', root, '--runroot', runroot, '--storage-driver', 'vfs'];
}

export function buildah(storage: string[], args: string[], { quiet = false } = {}): string {
  return execFileSync('buildah', [...storage, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Removes `ref` from the storage when present (a rebuild replaces it; vfs layers are big). */
export function removeImage(storage: string[], ref: string): void {
  try {
    buildah(storage, ['rmi', '--force', ref], { quiet: true });
  } catch {
    // not there
  }
}
