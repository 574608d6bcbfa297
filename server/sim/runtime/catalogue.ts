/**
 * The simulator's virtual images (documented in CATALOGUE.md). An image is a name, a root
 * filesystem (busybox applets, optionally the simulator's `serve` program), an entrypoint/cmd
 * and an environment — the command decides the behaviour, exactly as on a real node, so the
 * busybox image runs the same commands the same way on the simulator and on containerd.
 */
import { createHash } from 'node:crypto';
import type { Rootfs } from '../busybox/applets';
import { parseDurationMs } from '../busybox/units';

export interface CatalogueEntry {
  repository: string;
  summary: string;
  rootfs: Rootfs;
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  sizeBytes: number;
  /** PullImage: at once; after the tag's duration (default 20 s virtual); or fails. */
  pull: 'instant' | 'slow' | 'fail';
  /** The image config's User (`uid`, `name`, `uid:group`, …); none when absent. */
  user?: string;
}

const BUSYBOX: Rootfs = { busybox: true, serve: false };
const BUSYBOX_SERVE: Rootfs = { busybox: true, serve: true };
const MiB = 1024 * 1024;

export const BUSYBOX_IMAGE = 'podscope.local/busybox:1';
/** containerd's sandbox ("pause") image in Podscope's setups: the busybox image. */
export const SANDBOX_IMAGE = BUSYBOX_IMAGE;
export const SLOW_PULL_DEFAULT_MS = 20_000;

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    repository: 'podscope.local/busybox',
    summary: 'busybox applets; the command decides the behaviour. Also the sandbox image.',
    rootfs: BUSYBOX,
    entrypoint: [],
    cmd: ['/bin/sleep', '2147483647'],
    env: {},
    sizeBytes: Math.round(1.1 * MiB),
    pull: 'instant',
  },
  {
    repository: 'podscope.local/app',
    summary: 'A service that runs until stopped and exits 0 on SIGTERM.',
    rootfs: BUSYBOX_SERVE,
    entrypoint: [],
    cmd: ['serve'],
    env: {},
    sizeBytes: 12 * MiB,
    pull: 'instant',
  },
  {
    repository: 'podscope.local/exit-after',
    summary: 'Exits after EXIT_AFTER (default 10s) with EXIT_CODE (default 0).',
    rootfs: BUSYBOX,
    entrypoint: [],
    cmd: ['sh', '-c', 'sleep "${EXIT_AFTER:-10}"; exit "${EXIT_CODE:-0}"'],
    env: {},
    sizeBytes: Math.round(1.1 * MiB),
    pull: 'instant',
  },
  {
    repository: 'podscope.local/crash',
    summary: 'Crashes on start: exits at once with EXIT_CODE (default 1).',
    rootfs: BUSYBOX,
    entrypoint: [],
    cmd: ['sh', '-c', 'echo "fatal: crashing on start" >&2; exit "${EXIT_CODE:-1}"'],
    env: {},
    sizeBytes: Math.round(1.1 * MiB),
    pull: 'instant',
  },
  {
    repository: 'podscope.local/oom-after',
    summary:
      'After OOM_AFTER (default 5s) allocates ALLOC (default 512M): OOMKilled under a smaller memory limit.',
    rootfs: BUSYBOX,
    entrypoint: [],
    cmd: [
      'sh',
      '-c',
      'sleep "${OOM_AFTER:-5}"; exec dd if=/dev/zero of=/dev/null bs="${ALLOC:-512M}"',
    ],
    env: {},
    sizeBytes: Math.round(1.1 * MiB),
    pull: 'instant',
  },
  {
    repository: 'podscope.local/ignore-sigterm',
    summary:
      'A service that ignores SIGTERM: StopContainer ends it with SIGKILL (137) at the timeout.',
    rootfs: BUSYBOX_SERVE,
    entrypoint: [],
    cmd: ['serve', '--on-term=ignore'],
    env: {},
    sizeBytes: 12 * MiB,
    pull: 'instant',
  },
  {
    repository: 'podscope.local/slow-pull',
    summary: 'Like app, but PullImage takes the tag as a duration (slow-pull:30s; default 20s).',
    rootfs: BUSYBOX_SERVE,
    entrypoint: [],
    cmd: ['serve'],
    env: {},
    sizeBytes: 350 * MiB,
    pull: 'slow',
  },
  {
    repository: 'podscope.local/failing-pull',
    summary: 'PullImage always fails (registry answers 503).',
    rootfs: BUSYBOX_SERVE,
    entrypoint: [],
    cmd: ['serve'],
    env: {},
    sizeBytes: 12 * MiB,
    pull: 'fail',
  },
  {
    repository: 'podscope.local/missing-binary',
    summary: 'Entrypoint /app/server does not exist: StartContainer fails, EXITED 128 StartError.',
    rootfs: BUSYBOX,
    entrypoint: ['/app/server'],
    cmd: [],
    env: {},
    sizeBytes: 4 * MiB,
    pull: 'instant',
  },
];

const BY_REPOSITORY = new Map(CATALOGUE.map((e) => [e.repository, e]));

export interface ImageRef {
  /** Normalised `repository:tag` (docker rules: docker.io/library/ prefix, :latest). */
  name: string;
  repository: string;
  tag: string;
}

const REPOSITORY_RE =
  /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::\d+)?(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+$/;
const TAG_RE = /^[\w][\w.-]{0,127}$/;
const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;

/** Docker's domain rule: the first path part is a registry host when it looks like one. */
function qualify(image: string): string {
  const firstSlash = image.indexOf('/');
  const first = firstSlash < 0 ? '' : image.slice(0, firstSlash);
  if (firstSlash < 0) return `docker.io/library/${image}`;
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost') {
    return `docker.io/${image}`;
  }
  return image;
}

/**
 * Docker-style normalisation, as containerd's CRI plugin does before resolving:
 * `busybox` → `docker.io/library/busybox:latest`, `podscope.local/app` → `podscope.local/app:latest`.
 * Digest references and image ids are not names: undefined (see parseDigestRef).
 */
export function normaliseRef(image: string): ImageRef | undefined {
  if (image === '' || image.startsWith('sha256:') || image.includes('@')) return undefined;
  const rest = qualify(image);
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  const hasTag = colon > lastSlash;
  const repository = hasTag ? rest.slice(0, colon) : rest;
  const tag = hasTag ? rest.slice(colon + 1) : 'latest';
  if (!REPOSITORY_RE.test(repository)) return undefined;
  if (!TAG_RE.test(tag)) return undefined;
  return { name: `${repository}:${tag}`, repository, tag };
}

/** A canonical digest reference `repository@sha256:<64 hex>` (a tag before `@` is dropped, as docker does). */
export interface DigestRef {
  /** `repository@sha256:…`, normalised. */
  name: string;
  repository: string;
  digest: string;
}

export function parseDigestRef(image: string): DigestRef | undefined {
  const at = image.indexOf('@');
  if (at <= 0) return undefined;
  const digest = image.slice(at + 1);
  if (!DIGEST_RE.test(digest)) return undefined;
  let rest = qualify(image.slice(0, at));
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) rest = rest.slice(0, colon);
  if (!REPOSITORY_RE.test(rest)) return undefined;
  return { name: `${rest}@${digest}`, repository: rest, digest };
}

export function catalogueEntry(repository: string): CatalogueEntry | undefined {
  return BY_REPOSITORY.get(repository);
}

/** A stable fake digest for `text`. */
export function digestOf(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The image as the node stores it once present (containerd: one image, several references). */
export interface SimImage {
  entry: CatalogueEntry;
  /** Config digest: Image.id, Container.image_ref/image_id. */
  id: string;
  /** Normalised `repository:tag` names it is known by (Image.repo_tags), oldest first. */
  repoTags: string[];
  /** `repository@sha256:<manifest digest>` references (Image.repo_digests). */
  repoDigests: string[];
}

/** A catalogue image under `ref`: its id and manifest digest are stable digests of the name. */
export function makeImage(ref: ImageRef, entry: CatalogueEntry): SimImage {
  return {
    entry,
    id: digestOf(`config:${ref.name}`),
    repoTags: [ref.name],
    repoDigests: [`${ref.repository}@${digestOf(`manifest:${ref.name}`)}`],
  };
}

/** How long a slow-pull tag pulls for. */
export function slowPullMs(tag: string): number {
  const ms = parseDurationMs(tag);
  return ms !== undefined && Number.isFinite(ms) ? ms : SLOW_PULL_DEFAULT_MS;
}
