import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUSYBOX_CMD, BUSYBOX_IMAGE, buildBusyboxImage, ociLayout, rootfsEntries } from './image';
import { writeTar, type TarEntry } from './tar';

const work = mkdtempSync(join(tmpdir(), 'podscope-image-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const hasBusybox = existsSync('/bin/busybox');
const sha = (data: Uint8Array) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** GNU tar's verbose listing, numeric owners: the archive as an independent reader sees it. */
function gnuList(tar: Uint8Array): string[] {
  const file = join(mkdtempSync(join(work, 'list-')), 'a.tar');
  writeFileSync(file, tar);
  const r = spawnSync('tar', ['--numeric-owner', '--full-time', '-tvf', file], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.trim().split('\n');
}

describe('writeTar', () => {
  it('writes ustar that GNU tar reads back: types, modes, owners 0:0, mtime 0, link targets', () => {
    const entries: TarEntry[] = [
      { type: 'dir', path: 'etc', mode: 0o755 },
      { type: 'file', path: 'etc/hello', mode: 0o644, data: new TextEncoder().encode('hi\n') },
      { type: 'dir', path: 'tmp', mode: 0o1777 },
      { type: 'symlink', path: 'bin-sh', target: '/bin/busybox' },
      { type: 'file', path: 'empty', mode: 0o600, data: new Uint8Array(0) },
    ];
    expect(gnuList(writeTar(entries))).toEqual([
      'drwxr-xr-x 0/0               0 1970-01-01 00:00:00 etc/',
      '-rw-r--r-- 0/0               3 1970-01-01 00:00:00 etc/hello',
      'drwxrwxrwt 0/0               0 1970-01-01 00:00:00 tmp/',
      'lrwxrwxrwx 0/0               0 1970-01-01 00:00:00 bin-sh -> /bin/busybox',
      '-rw------- 0/0               0 1970-01-01 00:00:00 empty',
    ]);
  });

  it('pads file data to 512-byte blocks and ends with two zero blocks', () => {
    const tar = writeTar([
      { type: 'file', path: 'x', mode: 0o644, data: new Uint8Array(513).fill(7) },
    ]);
    expect(tar.length).toBe(512 + 1024 + 1024);
    expect(tar.subarray(512 + 1024).every((b) => b === 0)).toBe(true);
  });

  it('refuses a path that does not fit the ustar name field', () => {
    expect(() => writeTar([{ type: 'dir', path: 'x'.repeat(101), mode: 0o755 }])).toThrow(
      /longer than 100/,
    );
  });
});

describe('rootfsEntries', () => {
  const entries = rootfsEntries(new Uint8Array([1, 2, 3]), [
    'bin/sh',
    'usr/bin/[',
    'usr/local/bin/x',
    'bin/sh',
  ]);

  it('has busybox, passwd, group, one symlink per applet (deduplicated) and every parent folder', () => {
    const byPath = new Map(entries.map((e) => [e.path, e]));
    expect(byPath.get('bin/busybox')).toMatchObject({ type: 'file', mode: 0o755 });
    expect(byPath.get('bin/sh')).toEqual({
      type: 'symlink',
      path: 'bin/sh',
      target: '/bin/busybox',
    });
    expect(byPath.get('usr/bin/[')).toEqual({
      type: 'symlink',
      path: 'usr/bin/[',
      target: '/bin/busybox',
    });
    expect(byPath.get('usr/local')).toMatchObject({ type: 'dir' });
    expect(byPath.get('tmp')).toMatchObject({ type: 'dir', mode: 0o1777 });
    const passwd = byPath.get('etc/passwd');
    expect(passwd?.type === 'file' && new TextDecoder().decode(passwd.data)).toMatch(
      /^root:x:0:0:/,
    );
    expect(byPath.get('etc/group')).toMatchObject({ type: 'file' });
    expect(entries.filter((e) => e.path === 'bin/sh')).toHaveLength(1);
  });

  it('orders every parent before its children', () => {
    const seen = new Set<string>();
    for (const e of entries) {
      const parent = e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : undefined;
      if (parent !== undefined) expect(seen.has(parent), `${parent} before ${e.path}`).toBe(true);
      seen.add(e.path);
    }
  });
});

describe('ociLayout', () => {
  const layer = writeTar([{ type: 'file', path: 'f', mode: 0o644, data: new Uint8Array([42]) }]);
  const built = ociLayout(layer, 'example.local/thing:7', 'amd64');

  function extract(tar: Uint8Array): string {
    const dir = mkdtempSync(join(work, 'oci-'));
    writeFileSync(join(dir, 'image.tar'), tar);
    const r = spawnSync('tar', ['-xf', 'image.tar'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return dir;
  }

  it('every blob is stored under its own sha256, and index → manifest → config/layer agree', () => {
    const dir = extract(built.tar);
    const blobDir = join(dir, 'blobs', 'sha256');
    for (const name of readdirSync(blobDir)) {
      expect(sha(readFileSync(join(blobDir, name)))).toBe(`sha256:${name}`);
    }
    const blob = (digest: string) => readFileSync(join(blobDir, digest.slice('sha256:'.length)));
    interface IndexJson {
      manifests: {
        digest: string;
        size: number;
        platform: unknown;
        annotations: Record<string, string>;
      }[];
    }
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as IndexJson;
    expect(JSON.parse(readFileSync(join(dir, 'oci-layout'), 'utf8'))).toEqual({
      imageLayoutVersion: '1.0.0',
    });
    expect(index.manifests).toHaveLength(1);
    const m = index.manifests[0]!;
    expect(m.digest).toBe(built.manifestDigest);
    expect(m.platform).toEqual({ architecture: 'amd64', os: 'linux' });
    expect(m.annotations['io.containerd.image.name']).toBe('example.local/thing:7');
    expect(m.annotations['org.opencontainers.image.ref.name']).toBe('7');
    expect(m.size).toBe(blob(m.digest).length);

    const manifest = JSON.parse(blob(built.manifestDigest).toString('utf8'));
    expect(manifest.config.digest).toBe(built.configDigest);
    expect(manifest.layers).toEqual([
      {
        mediaType: 'application/vnd.oci.image.layer.v1.tar',
        digest: built.layerDigest,
        size: layer.length,
      },
    ]);
    const config = JSON.parse(blob(built.configDigest).toString('utf8'));
    // An uncompressed layer: its diff_id is its digest.
    expect(config.rootfs).toEqual({ type: 'layers', diff_ids: [sha(layer)] });
    expect(config.config.Cmd).toEqual([...BUSYBOX_CMD]);
    expect(config.os).toBe('linux');
  });
});

describe.skipIf(!hasBusybox)('buildBusyboxImage (real /bin/busybox)', () => {
  it('is reproducible: two fresh builds give identical bytes and digests', () => {
    const a = buildBusyboxImage(join(work, 'cache-a'));
    const b = buildBusyboxImage(join(work, 'cache-b'));
    expect(a.cached).toBe(false);
    expect(b.cached).toBe(false);
    expect(readFileSync(a.path).equals(readFileSync(b.path))).toBe(true);
    expect(b.manifestDigest).toBe(a.manifestDigest);
    expect(a.name).toBe(BUSYBOX_IMAGE);
    expect(a.busyboxSha256).toBe(
      createHash('sha256').update(readFileSync('/bin/busybox')).digest('hex'),
    );
  });

  it('reuses the cached tar keyed by busybox hash', () => {
    const dir = join(work, 'cache-c');
    const first = buildBusyboxImage(dir);
    const second = buildBusyboxImage(dir);
    expect(second.cached).toBe(true);
    expect(second.path).toBe(first.path);
    expect(second.manifestDigest).toBe(first.manifestDigest);
    expect(first.path).toContain(first.busyboxSha256.slice(0, 16));
  });

  it('rebuilds when the cache entry is damaged (metadata without a tar)', () => {
    const dir = join(work, 'cache-d');
    const first = buildBusyboxImage(dir);
    rmSync(first.path);
    const again = buildBusyboxImage(dir);
    expect(again.cached).toBe(false);
    expect(existsSync(again.path)).toBe(true);
  });

  it('holds busybox, a symlink per applet, passwd and group; sh resolves to busybox', () => {
    const built = buildBusyboxImage(join(work, 'cache-e'));
    const dir = mkdtempSync(join(work, 'rootfs-'));
    spawnSync('tar', ['-xf', built.path, '-C', dir]);
    const layer = join(dir, 'blobs', 'sha256', built.layerDigest.slice('sha256:'.length));
    const rootfs = join(dir, 'rootfs');
    mkdirSync(rootfs);
    const r = spawnSync('tar', ['-xf', layer, '-C', rootfs], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const applets = spawnSync('/bin/busybox', ['--list-full'], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    expect(applets.length).toBeGreaterThan(100);
    for (const applet of applets) {
      if (applet === 'bin/busybox') continue;
      expect(readlinkSync(join(rootfs, applet)), applet).toBe('/bin/busybox');
    }
    expect(readFileSync(join(rootfs, 'bin', 'busybox')).equals(readFileSync('/bin/busybox'))).toBe(
      true,
    );
    expect(readFileSync(join(rootfs, 'etc', 'group'), 'utf8')).toMatch(/^root:x:0:/);
    for (const name of ['sh', 'sleep', 'dd']) {
      expect(
        applets.some((a) => a.endsWith(`/${name}`)),
        name,
      ).toBe(true);
    }
  });
});
