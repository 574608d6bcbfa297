import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { KEEPER_ENTRY } from '@/server/cluster/timeline/keeper-thread';
import {
  RELIST_WORKER_ENTRY,
  WORKERS_DIR_ENV,
  workerBundleName,
  workerPaths,
} from '@/server/engine/workers/pool';
import { WORKER_ENTRIES, imageRef } from './build';
import { NODE_RUNTIME, enginesMajor } from './node-runtime';
import { CONTAINERD_NAME_ANNOTATION, nameLayout } from './oci';
import { assembleRootfs, parseLdd, prunedFromImage, WRITABLE } from './rootfs';

const work = mkdtempSync(join(tmpdir(), 'podscope-image-unit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('imageRef', () => {
  it('tags with the release number', () => {
    expect(imageRef('localhost/podscope', '0.1.0')).toBe('localhost/podscope:0.1.0');
    expect(imageRef('registry.example:5000/team/podscope', '1.2.3-rc.1')).toBe(
      'registry.example:5000/team/podscope:1.2.3-rc.1',
    );
  });

  it('never tags latest, and refuses a repository that carries a tag or capitals', () => {
    expect(() => imageRef('localhost/podscope', 'latest')).toThrow(/not a release number/);
    expect(() => imageRef('localhost/podscope:dev', '0.1.0')).toThrow(/not an image repository/);
    expect(() => imageRef('Localhost/Podscope', '0.1.0')).toThrow(/not an image repository/);
  });
});

describe('the Node.js runtime', () => {
  it("has the project's major version (package.json engines)", () => {
    expect(Number(NODE_RUNTIME.version.split('.')[0])).toBe(enginesMajor(pkg));
    expect(NODE_RUNTIME.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
  });

  it('reads the major from engines, and says so when there is none', () => {
    expect(enginesMajor({ version: '1.0.0', engines: { node: '>=20.19' } })).toBe(20);
    expect(() => enginesMajor({ version: '1.0.0' })).toThrow(/engines.node/);
  });
});

describe('parseLdd', () => {
  it('lists resolved libraries and the interpreter, not the vdso', () => {
    const out = [
      '\tlinux-vdso.so.1 (0x00007ffd)',
      '\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f2)',
      '\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f1)',
      '\t/lib64/ld-linux-x86-64.so.2 (0x00007f0)',
    ].join('\n');
    expect(parseLdd('node', out)).toEqual([
      '/lib/x86_64-linux-gnu/libstdc++.so.6',
      '/lib/x86_64-linux-gnu/libc.so.6',
      '/lib64/ld-linux-x86-64.so.2',
    ]);
  });

  it('fails naming a library the host does not have', () => {
    expect(() => parseLdd('addon.node', '\tlibfoo.so.1 => not found\n')).toThrow(
      /addon.node: libfoo.so.1 => not found/,
    );
  });
});

describe('prunedFromImage', () => {
  it('drops source maps, declarations, read-mes and next/image’s sharp; keeps code and licences', () => {
    for (const p of [
      '/x/node_modules/next/dist/server/a.js.map',
      '/x/node_modules/@kubernetes/client-node/dist/api.d.ts',
      '/x/node_modules/pg/README.md',
      '/x/node_modules/sharp/lib/index.js',
      '/x/node_modules/@img/sharp-linux-x64/lib/sharp.node',
    ])
      expect(prunedFromImage(p), p).toBe(true);
    for (const p of [
      '/x/node_modules/next/dist/server/a.js',
      '/x/node_modules/pg/LICENSE',
      '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      '/x/node_modules/readme-like/index.js',
    ])
      expect(prunedFromImage(p), p).toBe(false);
  });

  it('declares the writable folders the manifests mount', () => {
    expect(WRITABLE).toEqual(['data', 'app/.next/cache']);
  });
});

describe('nameLayout', () => {
  it('gives every manifest the name ctr import uses, keeping other annotations', () => {
    writeFileSync(
      join(work, 'index.json'),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [
          {
            mediaType: 'application/vnd.oci.image.manifest.v1+json',
            digest: 'sha256:00',
            size: 1,
            annotations: { 'org.opencontainers.image.ref.name': '0.1.0' },
          },
        ],
      }),
    );
    nameLayout(work, 'localhost/podscope:0.1.0');
    const index = JSON.parse(readFileSync(join(work, 'index.json'), 'utf8'));
    expect(index.manifests[0].annotations).toEqual({
      'org.opencontainers.image.ref.name': '0.1.0',
      [CONTAINERD_NAME_ANNOTATION]: 'localhost/podscope:0.1.0',
    });
  });
});

describe('the worker threads in the image', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const before = process.env[WORKERS_DIR_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[WORKERS_DIR_ENV];
    else process.env[WORKERS_DIR_ENV] = before;
  });

  it('bundles exactly the entries the console starts, under the names workerPaths looks for', () => {
    expect(WORKER_ENTRIES).toEqual({
      'relist-worker': RELIST_WORKER_ENTRY,
      'keeper-worker': KEEPER_ENTRY,
    });
    for (const [name, entry] of Object.entries(WORKER_ENTRIES))
      expect(workerBundleName(entry)).toBe(`${name}.mjs`);
  });

  it('workerPaths prefers the bundle in PODSCOPE_WORKERS_DIR, else boots the checkout through tsx', () => {
    const dir = join(work, 'bundles');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'relist-worker.mjs'), '');
    process.env[WORKERS_DIR_ENV] = dir;
    expect(workerPaths().boot).toBe(join(dir, 'relist-worker.mjs'));
    // No keeper bundle there: the checkout's boot file, as without the variable.
    const checkout = workerPaths(KEEPER_ENTRY);
    expect(checkout.boot).toBe(join(root, 'server', 'engine', 'workers', 'boot.mjs'));
    expect(checkout.entry).toMatch(/\/server\/cluster\/timeline\/keeper-worker\.ts$/);
    delete process.env[WORKERS_DIR_ENV];
    expect(workerPaths().boot).toBe(checkout.boot);
  });

  it("the image's entry points PODSCOPE_WORKERS_DIR at its workers/ folder, unless it is set", () => {
    const app = join(work, 'entry');
    mkdirSync(join(app, 'cli'), { recursive: true });
    copyFileSync(join(root, 'deploy', 'image', 'entry.mjs'), join(app, 'podscope.mjs'));
    writeFileSync(
      join(app, 'cli', 'podscope.mjs'),
      `process.stdout.write(process.env.${WORKERS_DIR_ENV} ?? 'unset');\n`,
    );
    const run = (env: NodeJS.ProcessEnv) =>
      execFileSync(process.execPath, [join(app, 'podscope.mjs'), 'version'], {
        cwd: work,
        env,
        encoding: 'utf8',
      });
    const { [WORKERS_DIR_ENV]: _unset, ...env } = process.env;
    expect(run(env)).toBe(join(app, 'workers'));
    expect(run({ ...env, [WORKERS_DIR_ENV]: '/elsewhere' })).toBe('/elsewhere');
  });

  it('assembleRootfs puts the worker bundles in /app/workers beside the CLI', () => {
    const fake = join(work, 'project');
    const files: Record<string, string> = {
      '.next/standalone/server.js': '',
      '.next/standalone/package.json': '{}',
      '.next/standalone/.next/BUILD_ID': 'x',
      '.next/standalone/node_modules/x/index.js': '',
      '.next/static/a.js': '',
      'proto/runtime/v1/api.proto': '',
      'deploy/image/entry.mjs': '',
      'cli/podscope.mjs': '',
      'workers/relist-worker.mjs': '',
      'workers/keeper-worker.mjs': '',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(fake, path, '..'), { recursive: true });
      writeFileSync(join(fake, path), text);
    }
    const context = join(work, 'context');
    mkdirSync(context);
    const { rootfs } = assembleRootfs({
      context,
      root: fake,
      nodeBinary: process.execPath,
      nodeLicense: join(fake, 'proto', 'runtime', 'v1', 'api.proto'),
      cliDir: join(fake, 'cli'),
      workersDir: join(fake, 'workers'),
      strip: false,
    });
    expect(readdirSync(join(rootfs, 'app', 'workers')).sort()).toEqual([
      'keeper-worker.mjs',
      'relist-worker.mjs',
    ]);
    expect(existsSync(join(rootfs, 'app', 'cli', 'podscope.mjs'))).toBe(true);
    expect(existsSync(join(rootfs, 'app', 'proto', 'runtime', 'v1', 'api.proto'))).toBe(true);
  });
});
