import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeModulesCurrent } from './prepare.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Packages = Record<string, { version: string; optional?: boolean }>;

/** A checkout whose lockfile pins `lock` and whose node_modules records `installed`. */
function checkout(lock: Packages, installed: Packages | undefined, lockNewer = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-prepare-'));
  dirs.push(dir);
  const lockPath = join(dir, 'package-lock.json');
  writeFileSync(lockPath, JSON.stringify({ packages: { '': { name: 'x' }, ...lock } }));
  if (installed) {
    mkdirSync(join(dir, 'node_modules'));
    const marker = join(dir, 'node_modules', '.package-lock.json');
    writeFileSync(marker, JSON.stringify({ packages: installed }));
    // As in a fresh git worktree beside an older install: the lockfile is the newer file.
    const [older, newer] = [new Date(Date.now() - 60_000), new Date()];
    utimesSync(marker, lockNewer ? older : newer, lockNewer ? older : newer);
    utimesSync(lockPath, lockNewer ? newer : older, lockNewer ? newer : older);
  }
  return dir;
}

const LOCK: Packages = {
  'node_modules/a': { version: '1.0.0' },
  'node_modules/b/node_modules/c': { version: '2.1.0' },
  'node_modules/@esbuild/android-arm64': { version: '0.28.2', optional: true },
};
const INSTALLED: Packages = {
  'node_modules/a': { version: '1.0.0' },
  'node_modules/b/node_modules/c': { version: '2.1.0' },
};

describe('nodeModulesCurrent', () => {
  it('is current when the lockfile is newer but pins what is installed (optional absent)', () => {
    expect(nodeModulesCurrent(checkout(LOCK, INSTALLED))).toBe(true);
  });

  it('is current when npm recorded the install after the lockfile was written', () => {
    expect(nodeModulesCurrent(checkout(LOCK, {}, false))).toBe(true);
  });

  it('is not current without node_modules', () => {
    expect(nodeModulesCurrent(checkout(LOCK, undefined))).toBe(false);
  });

  it('is not current when a version, a required package or an extra one differs', () => {
    const changed = { ...INSTALLED, 'node_modules/a': { version: '1.0.1' } };
    expect(nodeModulesCurrent(checkout(LOCK, changed))).toBe(false);
    const missing: Packages = { 'node_modules/a': { version: '1.0.0' } };
    expect(nodeModulesCurrent(checkout(LOCK, missing))).toBe(false);
    const extra = { ...INSTALLED, 'node_modules/d': { version: '0.1.0' } };
    expect(nodeModulesCurrent(checkout(LOCK, extra))).toBe(false);
  });

  it('is not current when npm’s record cannot be read', () => {
    const dir = checkout(LOCK, INSTALLED);
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{ not json');
    utimesSync(join(dir, 'node_modules', '.package-lock.json'), new Date(0), new Date(0));
    expect(nodeModulesCurrent(dir)).toBe(false);
  });
});
