/**
 * The busybox image, built offline as an OCI image-layout tar (no registry on this machine):
 * rootfs = /bin/busybox + one symlink per applet + a minimal /etc/passwd and /etc/group, as one
 * uncompressed reproducible layer (so its diff_id equals its digest), then config, manifest and
 * index.json with sha256 digests. `podscope.local/busybox:1` is a contract shared with the
 * simulated node (server/sim) and the scenarios: the same name runs the same commands on both.
 * With Cmd ["/bin/sleep","2147483647"] the image is also containerd's sandbox ("pause") image.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTar, type TarEntry } from './tar';
import { sharedTmpdir } from '../shared-tmp';

export const BUSYBOX_IMAGE = 'podscope.local/busybox:1';
export const BUSYBOX_PATH = '/bin/busybox';
export const BUSYBOX_CMD = ['/bin/sleep', '2147483647'] as const;

/** Bumped whenever the bytes this file produces change, so stale cached tars are not reused. */
const FORMAT_VERSION = 1;

export const DEFAULT_CACHE_DIR = join(sharedTmpdir(), 'podscope-containerd-cache');

export interface BusyboxImage {
  /** The OCI image-layout tar, ready for `ctr images import`. */
  path: string;
  name: string;
  manifestDigest: string;
  configDigest: string;
  layerDigest: string;
  /** sha256 of the busybox binary the image was built from. */
  busyboxSha256: string;
  /** True when an earlier build was reused from the cache. */
  cached: boolean;
}

const MEDIA = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar',
} as const;

const sha256 = (data: Uint8Array | string): string =>
  `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** GOARCH names, as OCI platforms spell them. */
function ociArch(): string {
  // GOARCH spells x64 as amd64 and ia32 as 386; the other names Node uses match GOARCH.
  const goarch: Partial<Record<NodeJS.Architecture, string>> = { x64: 'amd64', ia32: '386' };
  return goarch[process.arch] ?? process.arch;
}

/** Every applet path busybox knows (`usr/bin/[`, `bin/sh`, …), relative to /. */
function appletPaths(busybox: string): string[] {
  const r = spawnSync(busybox, ['--list-full'], { encoding: 'utf8' });
  if (r.error) throw new Error(`${busybox} --list-full: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`${busybox} --list-full exited with ${r.status}: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && line !== 'bin/busybox');
}

const PASSWD =
  'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n';
const GROUP = 'root:x:0:\nnogroup:x:65534:\n';

/** The layer's entries in a canonical order (parents sort before their children). */
export function rootfsEntries(busyboxBinary: Uint8Array, applets: readonly string[]): TarEntry[] {
  const dirs = new Map<string, number>([
    ['bin', 0o755],
    ['dev', 0o755],
    ['etc', 0o755],
    ['proc', 0o555],
    ['root', 0o700],
    ['sbin', 0o755],
    ['sys', 0o555],
    ['tmp', 0o1777],
    ['usr', 0o755],
    ['usr/bin', 0o755],
    ['usr/sbin', 0o755],
    ['var', 0o755],
  ]);
  for (const applet of applets) {
    const parts = applet.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!dirs.has(dir)) dirs.set(dir, 0o755);
    }
  }
  const entries: TarEntry[] = [
    ...[...dirs].map(([path, mode]): TarEntry => ({ type: 'dir', path, mode })),
    { type: 'file', path: 'bin/busybox', mode: 0o755, data: busyboxBinary },
    { type: 'file', path: 'etc/passwd', mode: 0o644, data: new TextEncoder().encode(PASSWD) },
    { type: 'file', path: 'etc/group', mode: 0o644, data: new TextEncoder().encode(GROUP) },
    ...applets.map((path): TarEntry => ({ type: 'symlink', path, target: '/bin/busybox' })),
  ];
  const seen = new Set<string>();
  const unique = entries.filter((e) => !seen.has(e.path) && seen.add(e.path));
  return unique.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface OciLayout {
  tar: Uint8Array;
  manifestDigest: string;
  configDigest: string;
  layerDigest: string;
}

/** Layer → config → manifest → index.json, wrapped in one OCI image-layout tar. Pure. */
export function ociLayout(layer: Uint8Array, name: string, arch: string): OciLayout {
  const layerDigest = sha256(layer);
  const config = JSON.stringify({
    architecture: arch,
    os: 'linux',
    config: {
      Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      Cmd: [...BUSYBOX_CMD],
      WorkingDir: '/',
    },
    rootfs: { type: 'layers', diff_ids: [layerDigest] },
  });
  const configDigest = sha256(config);
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: MEDIA.manifest,
    config: { mediaType: MEDIA.config, digest: configDigest, size: Buffer.byteLength(config) },
    layers: [{ mediaType: MEDIA.layer, digest: layerDigest, size: layer.length }],
  });
  const manifestDigest = sha256(manifest);
  const tag = name.slice(name.lastIndexOf(':') + 1);
  const index = JSON.stringify({
    schemaVersion: 2,
    mediaType: MEDIA.index,
    manifests: [
      {
        mediaType: MEDIA.manifest,
        digest: manifestDigest,
        size: Buffer.byteLength(manifest),
        platform: { architecture: arch, os: 'linux' },
        annotations: {
          'io.containerd.image.name': name,
          'org.opencontainers.image.ref.name': tag,
        },
      },
    ],
  });
  const enc = (s: string) => new TextEncoder().encode(s);
  const blob = (digest: string) => `blobs/sha256/${digest.slice('sha256:'.length)}`;
  const blobs: TarEntry[] = [
    { type: 'file', path: blob(layerDigest), mode: 0o644, data: layer },
    { type: 'file', path: blob(configDigest), mode: 0o644, data: enc(config) },
    { type: 'file', path: blob(manifestDigest), mode: 0o644, data: enc(manifest) },
  ];
  const tar = writeTar([
    { type: 'dir', path: 'blobs', mode: 0o755 },
    { type: 'dir', path: 'blobs/sha256', mode: 0o755 },
    ...blobs.sort((a, b) => (a.path < b.path ? -1 : 1)),
    { type: 'file', path: 'index.json', mode: 0o644, data: enc(index) },
    {
      type: 'file',
      path: 'oci-layout',
      mode: 0o644,
      data: enc(JSON.stringify({ imageLayoutVersion: '1.0.0' })),
    },
  ]);
  return { tar, manifestDigest, configDigest, layerDigest };
}

interface CacheMeta {
  manifestDigest: string;
  configDigest: string;
  layerDigest: string;
}

/**
 * Builds (or reuses from `dir`) the busybox image tar. The cache key is busybox's own sha256 plus
 * this builder's format version; the tar is written to a temporary name and renamed, so test
 * files building at the same time never see half a file.
 */
export function buildBusyboxImage(
  dir: string = DEFAULT_CACHE_DIR,
  busybox: string = BUSYBOX_PATH,
): BusyboxImage {
  const binary = readFileSync(busybox);
  const busyboxSha256 = createHash('sha256').update(binary).digest('hex');
  const key = `busybox-image-v${FORMAT_VERSION}-${busyboxSha256.slice(0, 16)}`;
  const path = join(dir, `${key}.tar`);
  const metaPath = join(dir, `${key}.json`);
  mkdirSync(dir, { recursive: true });
  try {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as CacheMeta;
    if (statSync(path).size > 0 && meta.manifestDigest.startsWith('sha256:')) {
      return { path, name: BUSYBOX_IMAGE, ...meta, busyboxSha256, cached: true };
    }
  } catch {
    // no usable cache entry: build below
  }
  const layer = writeTar(rootfsEntries(binary, appletPaths(busybox)));
  const built = ociLayout(layer, BUSYBOX_IMAGE, ociArch());
  const meta: CacheMeta = {
    manifestDigest: built.manifestDigest,
    configDigest: built.configDigest,
    layerDigest: built.layerDigest,
  };
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  writeFileSync(partial, built.tar);
  renameSync(partial, path);
  writeFileSync(`${metaPath}.${process.pid}.partial`, JSON.stringify(meta));
  renameSync(`${metaPath}.${process.pid}.partial`, metaPath);
  return { path, name: BUSYBOX_IMAGE, ...meta, busyboxSha256, cached: false };
}
