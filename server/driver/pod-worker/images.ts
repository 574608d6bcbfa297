/**
 * Image pulls with the kubelet's image back-off. Port of EnsureImageExists and shouldPullImage from
 * pkg/kubelet/images/image_manager.go (kubernetes/kubernetes @ 00a3928b, as stored): the back-off
 * key is `<pod uid>_<image>`, checked with IsInBackOffSinceUpdate(now) before a pull and moved
 * with Next(now) after a failed one, so a bad image alternates ErrImagePull (a pull was tried and
 * failed) with ImagePullBackOff (the kubelet is waiting before trying again), the window doubling
 * from 10 s to 300 s (kubelet.go backOffPeriod / MaxContainerBackOff; scaled by the driver).
 *
 * Messages are upstream's: `Back-off pulling image "X"`, `Container image "X" is not present with
 * pull policy of Never`, `Failed to inspect image "X": …`; a failed pull keeps the runtime's own
 * error text (`rpc error: code = … desc = …`).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import {
  backoffGC,
  backoffNext,
  isInBackOffSinceUpdate,
  type BackoffState,
} from '@/lib/kubelet/backoff';
import type { SyncError } from '@/lib/kubelet/runtime';
import {
  ErrImageInspect,
  ErrImageNeverPull,
  ErrImagePull,
  ErrImagePullBackOff,
} from '@/lib/kubelet/reasons';
import type { SandboxSpec } from '@/server/cri/types';
import type { DriverRuntime } from '../runtime';
import { rpcErrorText } from '../runtime';

/** shouldPullImage: Never never pulls; Always always; IfNotPresent when absent. */
export function shouldPullImage(container: V1Container, imagePresent: boolean): boolean {
  if (container.imagePullPolicy === 'Never') return false;
  return container.imagePullPolicy === 'Always' || !imagePresent;
}

export type EnsureImageResult = { ok: true; imageRef: string } | { ok: false; error: SyncError };

/**
 * Holds the image back-off (one per driver, as the kubelet has one) and pulls through the runtime.
 * `now` is read from the driver's clock at each decision.
 */
export class ImageManager {
  private backoff: BackoffState;

  constructor(
    private readonly runtime: DriverRuntime,
    private readonly now: () => number,
    initial: BackoffState,
  ) {
    this.backoff = initial;
  }

  /** Epoch ms when the back-off for this pod's image ends (undefined: none pending). */
  backoffEndsAt(podUid: string, image: string): number | undefined {
    const entry = this.backoff.entries[`${podUid}_${image}`];
    return entry ? entry.lastUpdateMs + entry.backoffMs : undefined;
  }

  async ensureImageExists(
    pod: V1Pod,
    container: V1Container,
    sandbox: SandboxSpec,
  ): Promise<EnsureImageResult> {
    const image = container.image ?? '';
    let imageRef: string | undefined;
    try {
      imageRef = (await this.runtime.imageStatus(image))?.id;
    } catch (err) {
      return fail(ErrImageInspect, `Failed to inspect image "${image}": ${rpcErrorText(err)}`);
    }
    const present = imageRef !== undefined;
    if (!shouldPullImage(container, present)) {
      if (imageRef !== undefined) return { ok: true, imageRef };
      return fail(
        ErrImageNeverPull,
        `Container image "${image}" is not present with pull policy of Never`,
      );
    }
    const key = `${pod.metadata?.uid ?? ''}_${image}`;
    if (isInBackOffSinceUpdate(this.backoff, key, this.now())) {
      return fail(ErrImagePullBackOff, `Back-off pulling image "${image}"`);
    }
    try {
      const ref = await this.runtime.pullImage(image, { sandbox });
      this.backoff = backoffGC(this.backoff, this.now());
      return { ok: true, imageRef: ref };
    } catch (err) {
      const now = this.now();
      this.backoff = backoffNext(this.backoff, key, now, now);
      return fail(ErrImagePull, rpcErrorText(err));
    }
  }
}

function fail(reason: string, message: string): EnsureImageResult {
  return { ok: false, error: { reason, message } };
}
