// Shared by `npm start` and `npm test`: make a fresh checkout runnable — install what is
// missing, build when the sources changed — so both commands work as the first thing run.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

export function log(message) {
  process.stderr.write(`[podscope] ${message}\n`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

/** The packages a lockfile (or npm's record of an install) lists: path → { version, optional }. */
export function lockedPackages(lockText) {
  const packages = JSON.parse(lockText).packages ?? {};
  return new Map(
    Object.entries(packages)
      .filter(([path]) => path !== '') // the project itself
      .map(([path, p]) => [path, { version: p.version, optional: p.optional === true }]),
  );
}

/**
 * Whether node_modules holds what package-lock.json pins: npm's record of the install
 * (node_modules/.package-lock.json) is newer than the lockfile, or lists every package of the lock
 * at its version (optional ones — other platforms' binaries — may be absent) and nothing else.
 * A fresh checkout or git worktree has a newer lockfile than a node_modules installed from the
 * same lock, often one shared through a symlink: `npm ci` there would empty the other's install.
 */
export function nodeModulesCurrent(dir = root) {
  const marker = join(dir, 'node_modules', '.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  if (!existsSync(marker)) return false;
  if (statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return true;
  try {
    const want = lockedPackages(readFileSync(lock, 'utf8'));
    const have = lockedPackages(readFileSync(marker, 'utf8'));
    for (const [path, p] of want) {
      const got = have.get(path);
      if (got ? got.version !== p.version : !p.optional) return false;
    }
    for (const path of have.keys()) if (!want.has(path)) return false;
    return true;
  } catch {
    return false; // an unreadable record: install
  }
}

/** `npm ci` when node_modules is missing or does not hold what package-lock.json pins. */
export function ensureNodeModules() {
  if (nodeModulesCurrent()) return;
  log('installing dependencies (npm ci) …');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * A fingerprint of the sources: with git it is cheap and exact. No `paths`: everything (what
 * `next build` reads); else only what lies under those paths.
 */
export function sourceStamp(paths = []) {
  try {
    const git = (args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    const head =
      paths.length === 0
        ? git(['rev-parse', 'HEAD']).trim()
        : git(['rev-parse', ...paths.map((p) => `HEAD:${p}`)]).trim();
    const dirty = git(['status', '--porcelain', '--untracked-files=all', '--', ...paths]);
    const h = createHash('sha256').update(head);
    for (const line of dirty.split('\n').filter(Boolean)) {
      const file = join(root, line.slice(3).split(' -> ').pop());
      h.update(line);
      if (existsSync(file) && statSync(file).isFile()) h.update(readFileSync(file));
    }
    return h.digest('hex');
  } catch {
    return `nogit-${Date.now()}`;
  }
}

/** What the browser demo's recording is made from (scripts/record-demo.mjs, server/demo/asset.ts). */
export const DEMO_SOURCES = ['lib', 'server', 'proto', 'package-lock.json'];

/**
 * Records the browser demo (`?source=demo`) unless its file was made from these sources: starts
 * scripts/record-demo.mjs and resolves when it ends. Start it before ensureBuild(), so it runs
 * beside `next build`. A failed recording is reported, not fatal: the demo then says it has none.
 */
export function ensureDemoRecording() {
  const child = spawn(process.execPath, [join(root, 'scripts', 'record-demo.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  return new Promise((resolve) => {
    child.on('error', (err) => {
      log(`recording the demo failed: ${err.message}`);
      resolve(false);
    });
    child.on('exit', (code, signal) => {
      if (code !== 0)
        log(`recording the demo failed (${code ?? signal}); ?source=demo will say so`);
      resolve(code === 0);
    });
  });
}

/**
 * `next build` unless .next holds a build of exactly these sources. `standalone` also asks for
 * Next's standalone server (.next/standalone, for the container image); such a build serves
 * `next start` as well, so it satisfies an ordinary request too.
 */
export function ensureBuild({ force = false, standalone = false } = {}) {
  const stampFile = join(root, '.next', 'podscope-build-stamp');
  const stamp = sourceStamp();
  const want = standalone ? `${stamp} standalone` : stamp;
  const have =
    existsSync(join(root, '.next', 'BUILD_ID')) && existsSync(stampFile)
      ? readFileSync(stampFile, 'utf8')
      : '';
  if (!force && (have === want || (!standalone && have === `${stamp} standalone`))) return;
  log(`building the console (next build${standalone ? ', standalone' : ''}) …`);
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  if (standalone) env.PODSCOPE_NEXT_STANDALONE = '1';
  else delete env.PODSCOPE_NEXT_STANDALONE;
  run('npx', ['next', 'build'], { env });
  writeFileSync(stampFile, want);
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = () => existsSync('/usr/bin/apt-get');

/** Debian packages the tests need (Chromium for Playwright; containerd for the real-runtime suite). */
export function ensureAptPackages(packages) {
  const missing = packages.filter(({ check }) => !existsSync(check));
  if (missing.length === 0) return true;
  const names = missing.map((p) => p.name);
  if (process.platform !== 'linux' || !isRoot() || !hasApt()) {
    log(`missing ${names.join(', ')} and cannot install them here (needs root and apt-get)`);
    return false;
  }
  log(`installing ${names.join(', ')} (apt-get) …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...names], { env });
  return true;
}

export const TEST_PACKAGES = [
  { name: 'chromium', check: '/usr/bin/chromium' },
  { name: 'containerd', check: '/usr/bin/containerd' },
  { name: 'runc', check: '/usr/sbin/runc' },
  { name: 'busybox-static', check: '/bin/busybox' },
  // A CJK font, so the Chinese console renders (and its screenshots read) in headless Chromium.
  { name: 'fonts-wqy-microhei', check: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc' },
  // Cluster mode: the event bus and the timeline database the cluster tests run for real.
  { name: 'nats-server', check: '/usr/sbin/nats-server' },
  { name: 'postgresql', check: '/usr/lib/postgresql/15/bin/initdb' },
  // The container image (npm run image) is built with buildah, offline.
  { name: 'buildah', check: '/usr/bin/buildah' },
  // The conformance tests decompress crictl and critest (../shared/tools/critools/*.xz).
  { name: 'xz-utils', check: '/usr/bin/xz' },
];
