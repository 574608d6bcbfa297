/**
 * Builds the Podscope image from a prepared checkout (node_modules installed, Next's standalone
 * build done — scripts/image.mjs sees to both): bundle the CLI and the worker threads, assemble and pack the root file
 * system, `buildah build` the Containerfile, export the OCI layout (and the archive when asked).
 */
import { execFileSync } from 'node:child_process';
import type { BuildOptions, Metafile } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildah, buildahStorage, removeImage } from './buildah';
import { NODE_RUNTIME, nodeRuntimeTarball, type PackageJson } from './node-runtime';
import { layoutManifest, nameLayout, writeArchive } from './oci';
import { assembleRootfs, packRootfs } from './rootfs';

/** Where the image is named unless PODSCOPE_IMAGE_NAME says otherwise; the tag is always the version. */
export const DEFAULT_IMAGE_REPOSITORY = 'localhost/podscope';

export interface ImageBuildOptions {
  root: string;
  repository?: string;
  /** Write the OCI archive here. */
  out?: string;
  log: (line: string) => void;
}

export interface ImageBuildResult {
  ref: string;
  id: string;
  unpackedBytes: number;
  compressedBytes: number;
  archive: string | null;
}

/** `repository:version`; refuses a version that is not a release number (never `latest`). */
export function imageRef(repository: string, version: string): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new Error(`package.json version "${version}" is not a release number to tag with`);
  }
  if (!/^[a-z0-9]+([._-][a-z0-9]+)*(:\d+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/.test(repository)) {
    throw new Error(`"${repository}" is not an image repository (lower case, no tag)`);
  }
  return `${repository}:${version}`;
}

function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** What every Node.js bundle of the image is built with (the CLI's and the workers'). */
function nodeBundle(root: string): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    // Native addons stay files in node_modules (the standalone server's copy); pg-native is an
    // optional peer of pg that Podscope does not use.
    external: ['better-sqlite3', 'pg-native'],
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: {
      js: "import { createRequire as __podscopeRequire } from 'node:module'; const require = __podscopeRequire(import.meta.url);",
    },
    // Smaller without renaming anything: stack traces keep their function names.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * The CLI's bundles: `podscope.mjs` (every command) and `agent.mjs` (the agent alone). Also what
 * `npm run bench` measures the agent as (bench/suites/agent.ts). Resolves with esbuild's
 * metafile (which chunks each entry imports, statically or on demand, and what they hold).
 */
export async function bundleCli(root: string, outdir: string): Promise<Metafile> {
  const { build } = await import('esbuild');
  const result = await build({
    ...nodeBundle(root),
    entryPoints: {
      podscope: join(root, 'deploy', 'image', 'cli.ts'),
      agent: join(root, 'deploy', 'image', 'agent.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    // What both use (the engine, the CRI client, NATS) is one shared chunk, not two copies.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
  });
  return result.metafile;
}

/**
 * The worker threads' entries, from the project root. The image has neither server/ nor tsx, so
 * each is bundled on its own (`<name>.mjs`, no shared chunk: a worker loads one file) and
 * workerPaths (server/engine/workers/pool.ts) finds it through PODSCOPE_WORKERS_DIR.
 */
export const WORKER_ENTRIES = {
  'relist-worker': ['server', 'engine', 'workers', 'relist-worker.ts'],
  'keeper-worker': ['server', 'cluster', 'timeline', 'keeper-worker.ts'],
} as const;

/** Bundles every worker entry into `outdir` (relist-worker.mjs, keeper-worker.mjs). */
export async function bundleWorkers(root: string, outdir: string): Promise<string[]> {
  const { build } = await import('esbuild');
  const names = Object.keys(WORKER_ENTRIES) as (keyof typeof WORKER_ENTRIES)[];
  await build({
    ...nodeBundle(root),
    entryPoints: Object.fromEntries(names.map((n) => [n, join(root, ...WORKER_ENTRIES[n])])),
    outdir,
    outExtension: { '.js': '.mjs' },
  });
  return names.map((n) => join(outdir, `${n}.mjs`));
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

export async function buildImage(o: ImageBuildOptions): Promise<ImageBuildResult> {
  const { root, log } = o;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  const ref = imageRef(o.repository || DEFAULT_IMAGE_REPOSITORY, pkg.version);
  const tag = pkg.version;
  const cacheDir = join(root, 'node_modules', '.cache', 'podscope-image');
  mkdirSync(cacheDir, { recursive: true });
  const runtime = nodeRuntimeTarball(cacheDir, pkg, log);
  const mtime = Number(process.env.SOURCE_DATE_EPOCH || git(root, ['log', '-1', '--format=%ct']));
  const revision = git(root, ['rev-parse', 'HEAD']) ?? 'unknown';

  const context = mkdtempSync(join(tmpdir(), 'podscope-image-'));
  try {
    log('bundling the CLI and the worker threads (esbuild) …');
    const cliDir = join(context, 'cli');
    const workersDir = join(context, 'workers');
    await Promise.all([bundleCli(root, cliDir), bundleWorkers(root, workersDir)]);

    log('assembling the root file system …');
    execFileSync('tar', ['-xzf', runtime, '-C', context, 'package/bin/node', 'package/LICENSE']);
    const strip = has('strip');
    const { rootfs, libs } = assembleRootfs({
      context,
      root,
      nodeBinary: join(context, 'package', 'bin', 'node'),
      nodeLicense: join(context, 'package', 'LICENSE'),
      cliDir,
      workersDir,
      strip,
    });
    const layerTar = join(context, 'rootfs.tar');
    packRootfs(rootfs, layerTar, Number.isFinite(mtime) ? mtime : 0);
    rmSync(rootfs, { recursive: true, force: true });
    rmSync(join(context, 'package'), { recursive: true, force: true });
    rmSync(cliDir, { recursive: true });
    rmSync(workersDir, { recursive: true });

    log(`building ${ref} (buildah, FROM scratch) …`);
    const storage = buildahStorage(cacheDir);
    removeImage(storage, ref);
    // buildah ≥1.28: --timestamp also fixes the image's created date (reproducible config).
    buildah(storage, [
      'build',
      '--isolation',
      'chroot',
      '--pull-never',
      '--layers=false',
      '--timestamp',
      String(Number.isFinite(mtime) ? mtime : 0),
      '--build-arg',
      `VERSION=${tag}`,
      '--build-arg',
      `REVISION=${revision}`,
      '-f',
      join(root, 'Containerfile'),
      '-t',
      ref,
      context,
    ]);
    const id = buildah(
      storage,
      ['images', '--noheading', '--no-trunc', '--format', '{{.ID}}', ref],
      { quiet: true },
    ).trim();

    // The OCI layout tells the compressed size; with `out` it becomes the archive.
    const layout = join(context, 'oci');
    buildah(storage, ['push', '--quiet', ref, `oci:${layout}:${tag}`], { quiet: true });
    nameLayout(layout, ref);
    const compressed = layoutManifest(layout).layers.reduce((n, l) => n + l.size, 0);
    const unpacked = statSync(layerTar).size;
    if (o.out) {
      mkdirSync(dirname(o.out), { recursive: true });
      writeArchive(layout, o.out, Number.isFinite(mtime) ? mtime : 0);
    }

    log(`built ${ref}`);
    log(`  image id        ${id}`);
    log(`  size            ${mb(unpacked)} unpacked, ${mb(compressed)} compressed (one layer)`);
    log(
      `  node.js         ${NODE_RUNTIME.package}@${NODE_RUNTIME.version}${strip ? ' (stripped)' : ''}`,
    );
    log(`  host libraries  ${libs.join(' ')}`);
    if (o.out) log(`  OCI archive     ${o.out} — ctr -n k8s.io images import ${o.out}`);
    log(`  buildah storage ${storage.join(' ')}`);
    return {
      ref,
      id,
      unpackedBytes: unpacked,
      compressedBytes: compressed,
      archive: o.out ?? null,
    };
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
