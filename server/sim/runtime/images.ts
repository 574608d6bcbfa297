/**
 * A node's image store: which images are present, lookups by id, name or repo digest the way
 * containerd's CRI plugin resolves them (localResolve), PullImage from the catalogue
 * (`podscope.local/*`) and the simulated public registry (registry.ts) with containerd's failure
 * wording, and RemoveImage (every reference of the image goes, as in containerd).
 */
import type { SimClock } from '../clock/clock';
import {
  catalogueEntry,
  digestOf,
  makeImage,
  normaliseRef,
  parseDigestRef,
  slowPullMs,
} from './catalogue';
import type { SimImage } from './catalogue';
import { SimRpcError, notFound, unknown } from './errors';
import { imageUser, publishedByDigest, publishedByTag } from './registry';
import type { PublishedImage } from './registry';
import type { Image } from '@/server/cri/generated/runtime/v1/Image';

/** The image a registry manifest gives once pulled: its id follows the manifest, not the name. */
function publishedImage(p: PublishedImage, tagName?: string): SimImage {
  return {
    entry: p.entry,
    id: digestOf(`config:${p.manifestDigest}`),
    repoTags: tagName ? [tagName] : [],
    repoDigests: [`${p.repository}@${p.manifestDigest}`],
  };
}

export class ImageStore {
  private readonly byId = new Map<string, SimImage>();
  private readonly pulling = new Map<string, Promise<SimImage>>();

  constructor(private readonly clock: SimClock) {}

  /** Makes a catalogue image present (as `ctr images import` would). Unknown names throw. */
  preload(name: string): SimImage {
    const ref = normaliseRef(name);
    const entry = ref && catalogueEntry(ref.repository);
    if (!ref || !entry)
      throw new Error(`"${name}" is not a catalogue image (see server/sim/CATALOGUE.md)`);
    return this.add(makeImage(ref, entry));
  }

  /** Adds an image, or the new references of one already present (same id). */
  private add(image: SimImage): SimImage {
    const present = this.byId.get(image.id);
    if (!present) {
      const copy: SimImage = {
        ...image,
        repoTags: [...image.repoTags],
        repoDigests: [...image.repoDigests],
      };
      // A tag names one image: moving it to this one takes it from any other.
      for (const tag of copy.repoTags) this.untag(tag);
      this.byId.set(copy.id, copy);
      return copy;
    }
    for (const tag of image.repoTags) {
      if (present.repoTags.includes(tag)) continue;
      this.untag(tag);
      present.repoTags.push(tag);
    }
    for (const d of image.repoDigests)
      if (!present.repoDigests.includes(d)) present.repoDigests.push(d);
    return present;
  }

  private untag(tag: string): void {
    for (const other of this.byId.values()) {
      const i = other.repoTags.indexOf(tag);
      if (i >= 0) other.repoTags.splice(i, 1);
    }
  }

  /** containerd's localResolve: an image id, a repo digest, or a name (normalised). */
  resolve(refOrId: string): SimImage | undefined {
    const byId = this.byId.get(refOrId);
    if (byId) return byId;
    if (refOrId.includes('@')) {
      const ref = parseDigestRef(refOrId);
      if (!ref) return undefined;
      for (const image of this.byId.values())
        if (image.repoDigests.includes(ref.name)) return image;
      return undefined;
    }
    const ref = normaliseRef(refOrId);
    if (!ref) return undefined;
    for (const image of this.byId.values()) if (image.repoTags.includes(ref.name)) return image;
    return undefined;
  }

  list(): SimImage[] {
    return [...this.byId.values()];
  }

  totalBytes(): number {
    let total = 0;
    for (const image of this.byId.values()) total += image.entry.sizeBytes;
    return total;
  }

  /** RemoveImage: every reference of the resolved image goes; an absent image is no error. */
  remove(refOrId: string): void {
    const image = this.resolve(refOrId);
    if (image) this.byId.delete(image.id);
  }

  /** PullImage: resolves with the image once present (slow pulls wait on the clock). */
  pull(name: string): Promise<SimImage> {
    const present = this.resolve(name);
    if (present) return Promise.resolve(present);
    const notFoundError = (ref: string) =>
      notFound(
        `failed to pull and unpack image "${ref}": failed to resolve reference ` +
          `"${ref}": ${ref}: not found`,
      );
    if (name.includes('@')) {
      const ref = parseDigestRef(name);
      if (!ref) {
        return Promise.reject(
          new SimRpcError(3, `failed to pull and unpack image "${name}": invalid reference format`),
        );
      }
      const published = publishedByDigest(ref.repository, ref.digest);
      if (!published) return Promise.reject(notFoundError(ref.name));
      return Promise.resolve(this.add(publishedImage(published)));
    }
    const ref = normaliseRef(name);
    if (!ref) {
      return Promise.reject(
        new SimRpcError(3, `failed to pull and unpack image "${name}": invalid reference format`),
      );
    }
    const entry = catalogueEntry(ref.repository);
    if (!entry) {
      const published = publishedByTag(ref.repository, ref.tag);
      if (!published) return Promise.reject(notFoundError(ref.name));
      return Promise.resolve(this.add(publishedImage(published, ref.name)));
    }
    if (entry.pull === 'fail') {
      const [host = '', ...path] = ref.repository.split('/');
      return Promise.reject(
        unknown(
          `failed to pull and unpack image "${ref.name}": failed to resolve reference ` +
            `"${ref.name}": unexpected status from HEAD request to ` +
            `https://${host}/v2/${path.join('/')}/manifests/${ref.tag}: 503 Service Unavailable`,
        ),
      );
    }
    if (entry.pull === 'instant') return Promise.resolve(this.add(makeImage(ref, entry)));
    const inflight = this.pulling.get(ref.name);
    if (inflight) return inflight;
    const pulling = this.clock.sleep(slowPullMs(ref.tag)).then(() => {
      this.pulling.delete(ref.name);
      return this.add(makeImage(ref, entry));
    });
    this.pulling.set(ref.name, pulling);
    return pulling;
  }
}

/** The CRI Image message for a present image. */
export function toCriImage(image: SimImage): Image {
  return {
    id: image.id,
    repo_tags: [...image.repoTags],
    repo_digests: [...image.repoDigests],
    size: image.entry.sizeBytes.toString(),
    // containerd's getUserFromImage: a numeric config User is the uid, a name the username;
    // the catalogue images name no user. containerd 1.6 pins nothing.
    ...userFields(image.entry.user),
    spec: { image: image.id, annotations: {} },
    pinned: false,
  };
}

function userFields(user: string | undefined): { uid: { value: string } | null; username: string } {
  const u = imageUser(user);
  return { uid: u.uid === undefined ? null : { value: String(u.uid) }, username: u.username };
}

export { digestOf };
