/**
 * What the API server would have done to a pod before a kubelet sees it: validation of the few
 * fields the driver relies on, and the defaults the kubelet's code assumes are present
 * (pkg/apis/core/v1/defaults.go: restartPolicy Always, terminationGracePeriodSeconds 30,
 * imagePullPolicy Always for `:latest` or untagged images else IfNotPresent,
 * terminationMessagePath /dev/termination-log, terminationMessagePolicy File).
 *
 * One driver-specific default: `hostNetwork: true` unless the pod says otherwise, so sandboxes
 * run in the node's network namespace and a lab containerd needs no CNI (REAL-CONTAINERD.md).
 * Written into the pod itself, so the spec annotation and the engine agree on the mode.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { defaultContainerProbes, probeErrors } from '../probes/spec';

export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';

export class PodSpecError extends Error {
  override name = 'PodSpecError';
}

/** The image reference's tag, '' when none (a digest counts as pinned, not `latest`). */
function imageTag(image: string): string | undefined {
  if (image.includes('@')) return undefined;
  const lastSlash = image.lastIndexOf('/');
  const lastColon = image.lastIndexOf(':');
  return lastColon > lastSlash ? image.slice(lastColon + 1) : '';
}

export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const tag = imageTag(image);
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: V1Container): V1Container {
  const image = c.image ?? '';
  return {
    ...defaultContainerProbes(c),
    imagePullPolicy: c.imagePullPolicy ?? defaultImagePullPolicy(image),
    terminationMessagePath: c.terminationMessagePath ?? DEFAULT_TERMINATION_MESSAGE_PATH,
    terminationMessagePolicy: c.terminationMessagePolicy ?? 'File',
  };
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function validateContainers(
  where: string,
  list: readonly V1Container[],
  seen: Set<string>,
  init: boolean,
): void {
  for (const c of list) {
    if (typeof c.name !== 'string' || !DNS_LABEL.test(c.name) || c.name.length > 63) {
      throw new PodSpecError(`${where}: container name "${String(c.name)}" is not a DNS label`);
    }
    if (seen.has(c.name)) throw new PodSpecError(`${where}: duplicate container name "${c.name}"`);
    seen.add(c.name);
    if (typeof c.image !== 'string' || c.image.trim() === '') {
      throw new PodSpecError(`${where}: container "${c.name}" has no image`);
    }
    const errors = probeErrors(c, {
      regularInitContainer: init && c.restartPolicy !== 'Always',
    });
    if (errors.length > 0) {
      throw new PodSpecError(`${where}: container "${c.name}": ${errors.join('; ')}`);
    }
  }
}

export interface DefaultPodOptions {
  node: string;
  uid: () => string;
  now: number;
  /** Default for pods that do not set spec.hostNetwork (see the header). */
  hostNetwork: boolean;
}

/** A validated, defaulted deep copy: the driver never mutates the caller's object. */
export function defaultPod(input: V1Pod, opts: DefaultPodOptions): V1Pod {
  const pod = structuredClone(input);
  const name = pod.metadata?.name;
  const namespace = pod.metadata?.namespace ?? 'default';
  if (typeof name !== 'string' || name === '') throw new PodSpecError('pod has no metadata.name');
  const where = `pod ${namespace}/${name}`;
  const spec = pod.spec;
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) {
    throw new PodSpecError(`${where}: spec.containers is empty`);
  }
  const seen = new Set<string>();
  validateContainers(where, spec.initContainers ?? [], seen, true);
  validateContainers(where, spec.containers, seen, false);
  const policy = spec.restartPolicy ?? 'Always';
  if (policy !== 'Always' && policy !== 'OnFailure' && policy !== 'Never') {
    throw new PodSpecError(`${where}: unsupported restartPolicy "${policy}"`);
  }
  const grace = spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  if (!Number.isInteger(grace) || grace < 0) {
    throw new PodSpecError(`${where}: terminationGracePeriodSeconds must be a whole number ≥ 0`);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    ...pod,
    metadata: {
      ...pod.metadata,
      name,
      namespace,
      uid: pod.metadata?.uid ?? opts.uid(),
      creationTimestamp: pod.metadata?.creationTimestamp ?? new Date(opts.now),
    },
    spec: {
      ...spec,
      nodeName: spec.nodeName ?? opts.node,
      restartPolicy: policy,
      terminationGracePeriodSeconds: grace,
      hostNetwork: spec.hostNetwork ?? opts.hostNetwork,
      ...(spec.initContainers ? { initContainers: spec.initContainers.map(defaultContainer) } : {}),
      containers: spec.containers.map(defaultContainer),
    },
  };
}

/** pod name_namespace(uid): the kubelet's format.Pod, used in its messages. */
export function formatPod(pod: V1Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}(${pod.metadata?.uid ?? ''})`;
}

/**
 * A deterministic uid generator: RFC 4122-shaped (version 4 bits set) from a seed and a
 * counter, so the demo and the scenarios produce the same uids on every run.
 */
export function uidGenerator(seed: string): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    const hex = [0, 1, 2, 3]
      .map((i) => fnv32a(`${seed}/${counter}/${i}`).toString(16).padStart(8, '0'))
      .join('');
    const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

const utf8 = new TextEncoder();

/** FNV-1a, 32 bit, over the text's UTF-8 bytes (the hash the kubelet uses for container specs). */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of utf8.encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
