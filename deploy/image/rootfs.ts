// Assembles the image's root file system as one tar (the Containerfile ADDs it): from the Node.js
// tarball, Next's standalone output, the bundled CLI and worker threads, and the host's shared
// libraries. Everything is owned by root except the declared writable folders, which belong to the console's uid. Pure file
// work: nothing here runs inside the image.
import { execFileSync } from 'node:child_process';
import {
  type Dirent,
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The console's user: the same uid:gid the Containerfile's USER and the manifests name. */
export const APP_UID = 65532;

/** Folders the console writes (owned by APP_UID): the timeline (PODSCOPE_DATA_DIR) and Next's cache. */
export const WRITABLE = ['data', 'app/.next/cache'];

/** Files a running server never reads: source maps, type declarations, read-mes. */
const PRUNED_FILE =
  /\.(map|d\.ts|d\.mts|d\.cts|tsbuildinfo)$|^(readme|changelog|history)(\.\w+)?$/i;
/** sharp and its libvips serve next/image optimisation, which Podscope does not use (images.unoptimized). */
const PRUNED_PACKAGE = /\/node_modules\/(sharp|@img)(\/|$)/;

export function prunedFromImage(path: string): boolean {
  return PRUNED_PACKAGE.test(path) || PRUNED_FILE.test(basename(path));
}

/** Shared objects an ELF file loads, as ldd resolves them on this host (the interpreter included). */
export function sharedLibraries(elf: string): string[] {
  return parseLdd(elf, execFileSync('ldd', [elf], { encoding: 'utf8' }));
}

/** The paths in ldd's output; a library ldd could not find is an error naming it. */
export function parseLdd(elf: string, out: string): string[] {
  const libs: string[] = [];
  for (const line of out.split('\n')) {
    const arrow = /=>\s+(\/\S+)/.exec(line);
    const bare = /^\s*(\/\S+)\s+\(/.exec(line);
    const path = arrow?.[1] ?? bare?.[1];
    if (path) libs.push(path);
    else if (/not found/.test(line)) throw new Error(`${elf}: ${line.trim()}`);
  }
  return libs;
}

function walk(dir: string, visit: (path: string, entry: Dirent) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path, entry);
  }
}

function mkdir(path: string, mode?: number): void {
  mkdirSync(path, { recursive: true });
  if (mode !== undefined) chmodSync(path, mode);
}

/**
 * Builds the tree in `<context>/rootfs`.
 */
export function assembleRootfs(o: {
  context: string;
  root: string;
  nodeBinary: string;
  nodeLicense: string;
  /** The CLI's bundles (podscope.mjs, agent.mjs). */
  cliDir: string;
  /** The worker threads' bundles (relist-worker.mjs, keeper-worker.mjs): /app/workers. */
  workersDir: string;
  strip: boolean;
}): { rootfs: string; libs: string[] } {
  const rootfs = join(o.context, 'rootfs');
  const app = join(rootfs, 'app');
  const standalone = join(o.root, '.next', 'standalone');
  if (!existsSync(join(standalone, 'server.js'))) {
    throw new Error(`${standalone}/server.js is missing: the standalone build did not run`);
  }

  // Node.js, stripped of its symbol table when binutils is there (−12 MB, same code).
  const node = join(rootfs, 'usr', 'local', 'bin', 'node');
  mkdir(dirname(node));
  copyFileSync(o.nodeBinary, node);
  chmodSync(node, 0o755);
  if (o.strip) execFileSync('strip', [node]);
  mkdir(join(rootfs, 'usr', 'local', 'share', 'doc', 'node'));
  copyFileSync(o.nodeLicense, join(rootfs, 'usr', 'local', 'share', 'doc', 'node', 'LICENSE'));

  // The app: Next's standalone server (only the files it traced), its static assets, proto/, the
  // CLI (app/cli) and the worker threads (app/workers, found through PODSCOPE_WORKERS_DIR).
  mkdir(app);
  for (const f of ['server.js', 'package.json']) copyFileSync(join(standalone, f), join(app, f));
  const copyTree = (from: string, to: string) =>
    cpSync(from, to, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !prunedFromImage(src) && !src.endsWith(`${join('.next', 'cache')}`),
    });
  copyTree(join(standalone, '.next'), join(app, '.next'));
  copyTree(join(standalone, 'node_modules'), join(app, 'node_modules'));
  copyTree(join(o.root, '.next', 'static'), join(app, '.next', 'static'));
  if (existsSync(join(o.root, 'public'))) copyTree(join(o.root, 'public'), join(app, 'public'));
  copyTree(join(o.root, 'proto'), join(app, 'proto'));
  // The browser demo's recording (server/demo/asset.ts; GET /api/demo reads it from the cwd).
  const demo = join(o.root, '.podscope', 'demo');
  if (existsSync(demo)) copyTree(demo, join(app, '.podscope', 'demo'));
  cpSync(o.cliDir, join(app, 'cli'), { recursive: true });
  cpSync(o.workersDir, join(app, 'workers'), { recursive: true });
  copyFileSync(join(o.root, 'deploy', 'image', 'entry.mjs'), join(app, 'podscope.mjs'));

  // glibc and libstdc++ as node and every native addon link them, from this host.
  const elves: string[] = [node];
  walk(app, (path) => {
    if (path.endsWith('.node')) elves.push(path);
  });
  const libs = new Set(elves.flatMap(sharedLibraries));
  for (const lib of libs) {
    const to = join(rootfs, lib);
    mkdir(dirname(to));
    copyFileSync(realpathSync(lib), to);
    chmodSync(to, 0o755);
  }

  // Users, groups and name resolution; no shell anywhere.
  mkdir(join(rootfs, 'etc'));
  writeFileSync(
    join(rootfs, 'etc', 'passwd'),
    `root:x:0:0:root:/root:/nonexistent\npodscope:x:${APP_UID}:${APP_UID}:podscope:/nonexistent:/nonexistent\n`,
  );
  writeFileSync(join(rootfs, 'etc', 'group'), `root:x:0:\npodscope:x:${APP_UID}:\n`);
  writeFileSync(join(rootfs, 'etc', 'nsswitch.conf'), 'hosts: files dns\n');
  mkdir(join(rootfs, 'tmp'), 0o1777);

  for (const dir of WRITABLE) mkdir(join(rootfs, dir), 0o700);
  return { rootfs, libs: [...libs] };
}

/**
 * Packs the tree into `tarPath` with GNU tar: sorted, one mtime, numeric owners — root for all
 * but the WRITABLE folders, which are appended owned by APP_UID.
 */
export function packRootfs(rootfs: string, tarPath: string, mtime: number): void {
  const common = ['-C', rootfs, '--sort=name', `--mtime=@${mtime}`, '--numeric-owner'];
  const writable = WRITABLE.map((d) => `./${d}`);
  execFileSync('tar', [
    ...common,
    '--owner=0',
    '--group=0',
    ...writable.map((d) => `--exclude=${d}`),
    '-cf',
    tarPath,
    '.',
  ]);
  execFileSync('tar', [
    ...common,
    `--owner=${APP_UID}`,
    `--group=${APP_UID}`,
    '--no-recursion',
    '-rf',
    tarPath,
    ...writable,
  ]);
}

/** Bytes under a folder (files and symlinks as stored, not followed). */
export function treeBytes(dir: string): number {
  let total = 0;
  walk(dir, (path, entry) => {
    if (entry.isFile()) total += statSync(path).size;
  });
  return total;
}
