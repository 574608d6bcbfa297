// The OCI archive `PODSCOPE_IMAGE_OUT` names: an OCI image layout in one tar whose index carries
// the image's full name as `io.containerd.image.name`, which `ctr images import` uses as is.
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONTAINERD_NAME_ANNOTATION = 'io.containerd.image.name';

/** Adds the containerd name to every manifest of the layout's index.json. */
export interface OciIndex {
  schemaVersion: number;
  manifests: {
    mediaType: string;
    digest: string;
    size: number;
    annotations?: Record<string, string>;
  }[];
}

export interface OciManifest {
  config: { digest: string; size: number };
  layers: { mediaType: string; digest: string; size: number }[];
}

export function nameLayout(layoutDir: string, ref: string): OciIndex {
  const file = join(layoutDir, 'index.json');
  const index = JSON.parse(readFileSync(file, 'utf8')) as OciIndex;
  for (const m of index.manifests) {
    m.annotations = { ...m.annotations, [CONTAINERD_NAME_ANNOTATION]: ref };
  }
  writeFileSync(file, JSON.stringify(index));
  return index;
}

/** The layout's (first) image manifest: its layers' sizes are the compressed sizes. */
export function layoutManifest(layoutDir: string): OciManifest {
  const index = JSON.parse(readFileSync(join(layoutDir, 'index.json'), 'utf8')) as OciIndex;
  const first = index.manifests[0];
  if (!first) throw new Error(`${layoutDir}/index.json lists no image`);
  const digest = first.digest.replace('sha256:', '');
  return JSON.parse(
    readFileSync(join(layoutDir, 'blobs', 'sha256', digest), 'utf8'),
  ) as OciManifest;
}

/** Writes the layout as a tar at `out` (via a temporary name, so a reader never sees half of it). */
export function writeArchive(layoutDir: string, out: string, mtime: number): void {
  const tmp = `${out}.partial-${process.pid}`;
  execFileSync('tar', [
    '-C',
    layoutDir,
    '--sort=name',
    `--mtime=@${mtime}`,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-cf',
    tmp,
    'oci-layout',
    'index.json',
    'blobs',
  ]);
  renameSync(tmp, out);
}
