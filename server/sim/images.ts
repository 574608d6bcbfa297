/**
 * A node's image store: which catalogue images are present, lookups by name or id the way
 * containerd's CRI plugin resolves them, and PullImage with containerd's failure wording.
 */
import type { SimClock } from './clock';
import { catalogueEntry, digestOf, makeImage, normaliseRef, slowPullMs } from './catalogue';
import type { SimImage } from './catalogue';
import { SimRpcError, notFound, unknown } from './errors';
import type { Image } from '@/server/cri/generated/runtime/v1/Image';

export class ImageStore {
  private readonly byName = new Map<string, SimImage>();
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

  private add(image: SimImage): SimImage {
    this.byName.set(image.ref.name, image);
    this.byId.set(image.id, image);
    return image;
  }

  /** containerd's localResolve: an image id, a repo digest, or a name (normalised). */
  resolve(refOrId: string): SimImage | undefined {
    const byId = this.byId.get(refOrId);
    if (byId) return byId;
    if (refOrId.includes('@')) {
      for (const image of this.byId.values()) if (image.repoDigest === refOrId) return image;
      return undefined;
    }
    const ref = normaliseRef(refOrId);
    return ref ? this.byName.get(ref.name) : undefined;
  }

  list(): SimImage[] {
    return [...this.byId.values()];
  }

  totalBytes(): number {
    let total = 0;
    for (const image of this.byId.values()) total += image.entry.sizeBytes;
    return total;
  }

  /** PullImage: resolves with the image once present (slow pulls wait on the clock). */
  pull(name: string): Promise<SimImage> {
    const present = this.resolve(name);
    if (present) return Promise.resolve(present);
    const ref = normaliseRef(name);
    if (!ref) {
      return Promise.reject(
        new SimRpcError(3, `failed to pull and unpack image "${name}": invalid reference format`),
      );
    }
    const entry = catalogueEntry(ref.repository);
    if (!entry) {
      return Promise.reject(
        notFound(
          `failed to pull and unpack image "${ref.name}": failed to resolve reference ` +
            `"${ref.name}": ${ref.name}: not found`,
        ),
      );
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
    repo_tags: [image.ref.name],
    repo_digests: [image.repoDigest],
    size: image.entry.sizeBytes.toString(),
    // The images' config names no user, so containerd reports neither uid nor username, and
    // containerd 1.6 pins nothing.
    uid: null,
    username: '',
    spec: { image: image.id, annotations: {} },
    pinned: false,
  };
}

export { digestOf };
