import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { imageRef } from './build';
import { NODE_RUNTIME, enginesMajor } from './node-runtime';
import { CONTAINERD_NAME_ANNOTATION, nameLayout } from './oci';
import { parseLdd, prunedFromImage, WRITABLE } from './rootfs';

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
