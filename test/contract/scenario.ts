/**
 * Kubelet-like CRI calls for the contract scenarios, written once and run against any target
 * (the simulated node, real containerd). A scenario returns an Observation: plain data about
 * what the CRI reported — states in the order they were seen, exit codes, reasons, gRPC codes —
 * so the targets can be compared field by field.
 *
 * Labels and annotations are the kubelet's (pkg/kubelet/kuberuntime/labels.go,
 * pkg/kubelet/types/labels.go), so a scenario looks to either runtime like a kubelet's pod.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ANNOTATIONS, LABELS, type RuntimeContainer } from '@/lib/kubelet/runtime';
import { CriError, type CriClient } from '@/server/cri';
import type { ContainerSpec, SandboxSpec } from '@/server/cri';

export const IMAGE = 'podscope.local/busybox:1';
export const MISSING_IMAGE = 'podscope.local/no-such-image:1';

/** A CRI endpoint under test and how to give it back. */
export interface Target {
  name: 'sim' | 'containerd';
  endpoint: string;
  /** A folder the runtime may write sandbox logs into. */
  logRoot: string;
  stop(): Promise<void>;
}

export interface Pod {
  id: string;
  spec: SandboxSpec;
}

/** The kubelet's sandbox for a host-network pod (NODE network namespace: no CNI needed). */
export function kubeletSandbox(name: string, logRoot: string): SandboxSpec {
  const namespace = 'contract';
  const uid = randomUUID();
  return {
    name,
    namespace,
    uid,
    attempt: 0,
    networkMode: 'NODE',
    logDirectory: `${logRoot}/${namespace}_${name}_${uid}`,
    labels: {
      [LABELS.podName]: name,
      [LABELS.podNamespace]: namespace,
      [LABELS.podUid]: uid,
    },
    annotations: {
      'kubernetes.io/config.source': 'api',
      'kubernetes.io/config.seen': new Date(0).toISOString(),
    },
  };
}

export interface ContainerOptions {
  image?: string;
  memoryLimitBytes?: number;
  terminationGracePeriodSeconds?: number;
}

/** The kubelet's container config: labels, annotations, log path `<name>/<attempt>.log`. */
export function kubeletContainer(
  pod: SandboxSpec,
  name: string,
  command: string[],
  opts: ContainerOptions = {},
): ContainerSpec {
  return {
    name,
    attempt: 0,
    image: opts.image ?? IMAGE,
    command,
    logPath: `${name}/0.log`,
    labels: {
      [LABELS.containerName]: name,
      [LABELS.podName]: pod.name,
      [LABELS.podNamespace]: pod.namespace,
      [LABELS.podUid]: pod.uid,
    },
    annotations: {
      [ANNOTATIONS.containerHash]: '1',
      [ANNOTATIONS.restartCount]: '0',
      [ANNOTATIONS.terminationMessagePath]: '/dev/termination-log',
      [ANNOTATIONS.terminationMessagePolicy]: 'File',
      [ANNOTATIONS.podTerminationGracePeriod]: String(opts.terminationGracePeriodSeconds ?? 30),
    },
    resources:
      opts.memoryLimitBytes === undefined ? undefined : { memoryLimitBytes: opts.memoryLimitBytes },
  };
}

export async function runPod(cri: CriClient, name: string, logRoot: string): Promise<Pod> {
  const spec = kubeletSandbox(name, logRoot);
  return { id: await cri.runPodSandbox(spec), spec };
}

/**
 * Ids and digests differ between runtimes by nature; everything else in a message is compared.
 * 64-hex strings (container, sandbox and image ids, sha256 digests) become `<id>`.
 */
export function normalize(text: string): string {
  return text.replace(/[0-9a-f]{64}/g, '<id>');
}

/** What a CRI call came to, in comparable terms: the gRPC code name and the runtime's words. */
export type CallOutcome = { ok: true } | { ok: false; code: string; details: string };

export async function outcome(call: Promise<unknown>): Promise<CallOutcome> {
  try {
    await call;
    return { ok: true };
  } catch (err) {
    if (err instanceof CriError)
      return { ok: false, code: err.codeName, details: normalize(err.details) };
    throw err;
  }
}

/** The comparable part of a container record. */
export interface Seen {
  state: RuntimeContainer['state'];
  exitCode?: number;
  reason?: string;
  message?: string;
}

export function seen(c: RuntimeContainer): Seen {
  const s: Seen = { state: c.state };
  if (c.state === 'exited') {
    s.exitCode = c.exitCode;
    s.reason = c.reason;
    if (c.message !== undefined && c.message !== '') s.message = normalize(c.message);
  }
  return s;
}

const same = (a: Seen | undefined, b: Seen) =>
  a !== undefined &&
  a.state === b.state &&
  a.exitCode === b.exitCode &&
  a.reason === b.reason &&
  a.message === b.message;

/** A record of distinct consecutive observations of one container. */
export class Timeline {
  readonly sequence: Seen[] = [];
  last?: RuntimeContainer;

  note(c: RuntimeContainer): void {
    this.last = c;
    const s = seen(c);
    if (!same(this.sequence.at(-1), s)) this.sequence.push(s);
  }
}

export interface WatchOptions {
  /** Poll period; containerd answers ContainerStatus in well under a millisecond here. */
  everyMs?: number;
  timeoutMs?: number;
}

/**
 * Polls ContainerStatus (the detail path) and ListContainers (the relist path) until `done`
 * holds for ContainerStatus, noting every distinct state each path reported. Like the kubelet's
 * PLEG on containerd 1.6: there is no event stream there, polling is the only way.
 */
export async function watch(
  cri: CriClient,
  id: string,
  done: (c: RuntimeContainer) => boolean,
  into: { status: Timeline; list: Timeline },
  opts: WatchOptions = {},
): Promise<RuntimeContainer> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const listed = (await cri.listContainers({ id }))[0];
    if (listed !== undefined) into.list.note(listed);
    const status = await cri.containerStatus(id);
    into.status.note(status);
    if (done(status)) {
      // One more relist, so the list path also records the state that ended the watch.
      const after = (await cri.listContainers({ id }))[0];
      if (after !== undefined) into.list.note(after);
      return status;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `container ${id} did not reach the expected state; seen ${JSON.stringify(into.status.sequence)}`,
      );
    }
    await sleep(opts.everyMs ?? 20);
  }
}

export const exited = (c: RuntimeContainer) => c.state === 'exited';

/** The sandbox is gone with everything in it, whatever state the scenario left it in. */
export async function removePod(cri: CriClient, pod: Pod): Promise<void> {
  await cri.stopPodSandbox(pod.id).catch(() => undefined);
  await cri.removePodSandbox(pod.id);
}
