/**
 * The simulated node's view of public registries: which references outside `podscope.local`
 * a PullImage resolves, and to which manifest. A real registry answers for the tags and digests
 * it holds and "not found" for everything else, so this is a fixed list — the images the CRI's
 * own conformance suite (cri-tools v1.26.1 `critest`, pkg/framework/util.go and
 * pkg/validate/consts.go) and common examples pull — and every other reference stays missing,
 * which keeps ErrImagePull / ImagePullBackOff scenarios possible with any made-up name.
 *
 * The images behave like the busybox image (CATALOGUE.md): their command decides what runs.
 * Manifest digests are the real ones where a test names them (critest's digest reference);
 * elsewhere they are stable fake digests of the manifest's key, shared by tags that name the same
 * manifest in the real registry (critest's `test-image-tags:1/2/3`).
 */
import { UPSTREAM_BUSYBOX_EXTRA } from '../busybox/applets';
import type { Rootfs } from '../busybox/applets';
import type { CatalogueEntry } from './catalogue';
import { digestOf } from './catalogue';

/** Upstream busybox (defconfig), as in registry.k8s.io/e2e-test-images/busybox and Docker Hub's. */
const BUSYBOX: Rootfs = { busybox: true, serve: false, extra: UPSTREAM_BUSYBOX_EXTRA };
const MiB = 1024 * 1024;

/** One manifest a registry serves, under its tags (and by its digest). */
export interface PublishedImage {
  repository: string;
  tags: readonly string[];
  /** `sha256:…`: the manifest digest (PullImage by digest, repo digests). */
  manifestDigest: string;
  entry: CatalogueEntry;
}

function busyboxLike(
  repository: string,
  summary: string,
  cmd: string[],
  user = '',
  sizeBytes = Math.round(1.3 * MiB),
): CatalogueEntry {
  return {
    repository,
    summary,
    rootfs: BUSYBOX,
    entrypoint: [],
    cmd,
    env: {},
    sizeBytes,
    pull: 'instant',
    ...(user ? { user } : {}),
  };
}

const CRI_TOOLS = 'gcr.io/k8s-staging-cri-tools';

function publish(
  repository: string,
  tags: string[],
  summary: string,
  options: { cmd?: string[]; user?: string; manifestDigest?: string; key?: string } = {},
): PublishedImage {
  return {
    repository,
    tags,
    manifestDigest: options.manifestDigest ?? digestOf(`manifest:${options.key ?? repository}`),
    entry: busyboxLike(repository, summary, options.cmd ?? ['sh'], options.user ?? ''),
  };
}

export const PUBLISHED: readonly PublishedImage[] = [
  // Kubernetes e2e and critest's default container image, and Docker Hub's busybox.
  publish(
    'registry.k8s.io/e2e-test-images/busybox',
    ['1.29-1', '1.29-2', '1.29-4', '1.36.1-1'],
    'Kubernetes e2e busybox (critest default image)',
  ),
  publish('docker.io/library/busybox', ['latest', '1.28', '1.35', '1.36', 'stable'], 'busybox'),
  // cri-tools' image test fixtures (critest "Image Manager").
  publish(`${CRI_TOOLS}/test-image-latest`, ['latest'], 'critest: pull without a tag'),
  publish(`${CRI_TOOLS}/test-image-tag`, ['test', 'all'], 'critest: pull with a tag'),
  publish(`${CRI_TOOLS}/test-image-digest`, [], 'critest: pull by digest', {
    manifestDigest: 'sha256:9700f9a2f5bf2c45f2f605a0bd3bce7cf37420ec9d3ed50ac2758413308766bf',
  }),
  publish(`${CRI_TOOLS}/test-image-1`, ['latest'], 'critest: three different images (1)'),
  publish(`${CRI_TOOLS}/test-image-2`, ['latest'], 'critest: three different images (2)'),
  publish(`${CRI_TOOLS}/test-image-3`, ['latest'], 'critest: three different images (3)'),
  publish(`${CRI_TOOLS}/test-image-tags`, ['1', '2', '3'], 'critest: one image, three tags'),
  publish(`${CRI_TOOLS}/test-image-user-uid`, ['latest'], 'critest: USER 1002', { user: '1002' }),
  publish(`${CRI_TOOLS}/test-image-user-username`, ['latest'], 'critest: USER www-data', {
    user: 'www-data',
  }),
  publish(`${CRI_TOOLS}/test-image-user-uid-group`, ['latest'], 'critest: USER 1003:users', {
    user: '1003:users',
  }),
  publish(
    `${CRI_TOOLS}/test-image-user-username-group`,
    ['latest'],
    'critest: USER www-data:users',
    { user: 'www-data:users' },
  ),
  publish(`${CRI_TOOLS}/test-image-predefined-group`, ['latest'], 'critest: USER 1000:50000', {
    user: '1000:50000',
  }),
];

const BY_REPOSITORY = new Map<string, PublishedImage[]>();
for (const p of PUBLISHED) {
  const list = BY_REPOSITORY.get(p.repository) ?? [];
  list.push(p);
  BY_REPOSITORY.set(p.repository, list);
}

/** The manifest a `repository:tag` names, if the registry holds it. */
export function publishedByTag(repository: string, tag: string): PublishedImage | undefined {
  return BY_REPOSITORY.get(repository)?.find((p) => p.tags.includes(tag));
}

/** The manifest a `repository@sha256:…` names, if the registry holds it. */
export function publishedByDigest(repository: string, digest: string): PublishedImage | undefined {
  return BY_REPOSITORY.get(repository)?.find((p) => p.manifestDigest === digest);
}

/**
 * containerd's getUserFromImage (pkg/cri/server/image_status.go): a numeric user (before any
 * `:group`) is the uid; otherwise the name is the username.
 */
export function imageUser(user: string | undefined): { uid?: number; username: string } {
  const name = (user ?? '').split(':')[0] ?? '';
  if (name === '') return { username: '' };
  if (/^\d+$/.test(name)) return { uid: Number(name), username: '' };
  return { username: name };
}
