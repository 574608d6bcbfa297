/**
 * The contract scenarios: each drives one behaviour through the CRI, the way the kubelet would,
 * and returns what the runtime reported as plain data. contract.int.test.ts runs every scenario
 * against the simulated node and against real containerd and compares the two observations
 * field by field; the expectations in REAL-CONTAINERD.md pin containerd's side.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import type { CriClient } from '@/server/cri';
import {
  exited,
  IMAGE,
  kubeletContainer,
  MISSING_IMAGE,
  normalize,
  outcome,
  removePod,
  runPod,
  seen,
  Timeline,
  watch,
  type CallOutcome,
  type ContainerOptions,
  type Seen,
} from './scenario';

export interface Runtime {
  cri: CriClient;
  logRoot: string;
}

/** One container's life from CreateContainer to its exit, as both polling paths saw it. */
export interface LifeObservation {
  create: CallOutcome;
  start: CallOutcome;
  /** Distinct consecutive states from ContainerStatus, create to exit. */
  statusSequence: Seen[];
  /** The same from ListContainers (the relist path). */
  listSequence: Seen[];
  final: Seen;
  /** Timestamps the record carries once exited. */
  hasStartedAt: boolean;
  hasFinishedAt: boolean;
}

/** Create, start, and poll one container until it has exited. */
export async function containerLife(
  rt: Runtime,
  name: string,
  command: string[],
  opts: ContainerOptions = {},
): Promise<LifeObservation> {
  const pod = await runPod(rt.cri, name, rt.logRoot);
  try {
    const status = new Timeline();
    const list = new Timeline();
    const spec = kubeletContainer(pod.spec, 'main', command, opts);
    const id = await rt.cri.createContainer(pod.id, spec, pod.spec);
    status.note(await rt.cri.containerStatus(id));
    const listed = (await rt.cri.listContainers({ id }))[0];
    if (listed) list.note(listed);
    const start = await outcome(rt.cri.startContainer(id));
    const final = await watch(rt.cri, id, exited, { status, list });
    return {
      create: { ok: true },
      start,
      statusSequence: status.sequence,
      listSequence: list.sequence,
      final: seen(final),
      hasStartedAt: (final.startedAt ?? 0) > 0,
      hasFinishedAt: (final.finishedAt ?? 0) > 0,
    };
  } finally {
    await removePod(rt.cri, pod);
  }
}

export interface StopObservation {
  /** States seen before StopContainer (must be running). */
  before: Seen;
  stop: CallOutcome;
  /** StopContainer returned only after the grace period (the process ignored SIGTERM). */
  waitedForGracePeriod: boolean;
  after: Seen;
}

/**
 * Start a long-running container, then StopContainer with a grace period. With `readyFile`, the
 * signal waits until the container has created that file (probed with ExecSync `test -f`, like
 * a readiness probe): a shell that has not yet run its `trap` ignores SIGTERM as PID 1.
 */
export async function stopContainer(
  rt: Runtime,
  name: string,
  command: string[],
  timeoutSeconds: number,
  readyFile?: string,
): Promise<StopObservation> {
  const pod = await runPod(rt.cri, name, rt.logRoot);
  try {
    const spec = kubeletContainer(pod.spec, 'main', command);
    const id = await rt.cri.createContainer(pod.id, spec, pod.spec);
    await rt.cri.startContainer(id);
    const timeline = { status: new Timeline(), list: new Timeline() };
    await watch(rt.cri, id, (c) => c.state === 'running', timeline);
    if (readyFile !== undefined) await waitForFile(rt.cri, id, readyFile);
    const t0 = Date.now();
    const stop = await outcome(rt.cri.stopContainer(id, timeoutSeconds));
    const took = Date.now() - t0;
    const after = await rt.cri.containerStatus(id);
    return {
      before: timeline.status.sequence.at(-1) ?? { state: 'unknown' },
      stop,
      waitedForGracePeriod: took >= timeoutSeconds * 1000 * 0.9,
      after: seen(after),
    };
  } finally {
    await removePod(rt.cri, pod);
  }
}

async function waitForFile(
  cri: CriClient,
  id: string,
  file: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await cri.execSync(id, ['test', '-f', file], 5)).exitCode !== 0) {
    if (Date.now() > deadline) throw new Error(`container ${id} did not create ${file}`);
    await sleep(20);
  }
}

export interface MissingImageObservation {
  create: CallOutcome;
  /** Container records left in the sandbox after the failed create. */
  containersInPod: number;
}

export async function missingImage(rt: Runtime): Promise<MissingImageObservation> {
  const pod = await runPod(rt.cri, 'missing-image', rt.logRoot);
  try {
    const spec = kubeletContainer(pod.spec, 'main', ['sleep', '1'], { image: MISSING_IMAGE });
    const create = await outcome(rt.cri.createContainer(pod.id, spec, pod.spec));
    const containersInPod = (await rt.cri.listContainers({ sandboxId: pod.id })).length;
    return { create, containersInPod };
  } finally {
    await removePod(rt.cri, pod);
  }
}

/** A well-formed id that no runtime has handed out. */
const UNKNOWN_ID = 'f'.repeat(64);

export interface UnknownIdObservation {
  containerStatus: CallOutcome;
  stopContainer: CallOutcome;
  startContainer: CallOutcome;
  removeContainer: CallOutcome;
  podSandboxStatus: CallOutcome;
  stopPodSandbox: CallOutcome;
  removePodSandbox: CallOutcome;
  listContainersById: number;
  listPodSandboxById: number;
}

export async function unknownIds(rt: Runtime): Promise<UnknownIdObservation> {
  const { cri } = rt;
  return {
    containerStatus: await outcome(cri.containerStatus(UNKNOWN_ID)),
    stopContainer: await outcome(cri.stopContainer(UNKNOWN_ID, 1)),
    startContainer: await outcome(cri.startContainer(UNKNOWN_ID)),
    removeContainer: await outcome(cri.removeContainer(UNKNOWN_ID)),
    podSandboxStatus: await outcome(cri.podSandboxStatus(UNKNOWN_ID)),
    stopPodSandbox: await outcome(cri.stopPodSandbox(UNKNOWN_ID)),
    removePodSandbox: await outcome(cri.removePodSandbox(UNKNOWN_ID)),
    listContainersById: (await cri.listContainers({ id: UNKNOWN_ID })).length,
    listPodSandboxById: (await cri.listPodSandbox({ id: UNKNOWN_ID })).length,
  };
}

export interface StopPodObservation {
  run: { state: string; networkMode?: string };
  stop: CallOutcome;
  /** PodSandboxStatus and ListPodSandbox after StopPodSandbox. */
  statusAfter: string;
  listedAfter: string | undefined;
  /** The pod's running container after StopPodSandbox. */
  containerAfter: Seen;
  /** CreateContainer in the stopped sandbox. */
  createInStopped: CallOutcome;
  stopAgain: CallOutcome;
  remove: CallOutcome;
  listedAfterRemove: number;
}

export async function stopPodSandbox(rt: Runtime): Promise<StopPodObservation> {
  const { cri } = rt;
  const pod = await runPod(cri, 'stop-pod', rt.logRoot);
  try {
    const before = (await cri.podSandboxStatus(pod.id)).sandbox;
    const spec = kubeletContainer(pod.spec, 'main', ['sleep', '3600']);
    const id = await cri.createContainer(pod.id, spec, pod.spec);
    await cri.startContainer(id);
    const stop = await outcome(cri.stopPodSandbox(pod.id));
    const statusAfter = (await cri.podSandboxStatus(pod.id)).sandbox.state;
    const listedAfter = (await cri.listPodSandbox({ id: pod.id }))[0]?.state;
    const containerAfter = seen(await cri.containerStatus(id));
    const second = kubeletContainer(pod.spec, 'late', ['sleep', '1']);
    const createInStopped = await outcome(cri.createContainer(pod.id, second, pod.spec));
    const stopAgain = await outcome(cri.stopPodSandbox(pod.id));
    const remove = await outcome(cri.removePodSandbox(pod.id));
    const listedAfterRemove = (await cri.listPodSandbox({ id: pod.id })).length;
    return {
      run: { state: before.state, networkMode: before.networkMode },
      stop,
      statusAfter,
      listedAfter,
      containerAfter,
      createInStopped,
      stopAgain,
      remove,
      listedAfterRemove,
    };
  } finally {
    await removePod(cri, pod).catch(() => undefined);
  }
}

export interface RemoveRunningObservation {
  remove: CallOutcome;
  /** ContainerStatus after the RemoveContainer call. */
  afterRemove: CallOutcome;
  startExited: CallOutcome;
}

/** RemoveContainer of a running container; StartContainer of an exited one. */
export async function lifecycleErrors(rt: Runtime): Promise<RemoveRunningObservation> {
  const { cri } = rt;
  const pod = await runPod(cri, 'lifecycle', rt.logRoot);
  try {
    const running = await cri.createContainer(
      pod.id,
      kubeletContainer(pod.spec, 'a', ['sleep', '3600']),
      pod.spec,
    );
    await cri.startContainer(running);
    const remove = await outcome(cri.removeContainer(running));
    const afterRemove = await outcome(cri.containerStatus(running));

    const quick = await cri.createContainer(
      pod.id,
      kubeletContainer(pod.spec, 'b', ['sh', '-c', 'exit 0']),
      pod.spec,
    );
    await cri.startContainer(quick);
    const timeline = { status: new Timeline(), list: new Timeline() };
    await watch(cri, quick, exited, timeline);
    const startExited = await outcome(cri.startContainer(quick));
    return { remove, afterRemove, startExited };
  } finally {
    await removePod(cri, pod);
  }
}

/** The shape of a value: keys and primitive types, recursively (values themselves dropped). */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return typeof value;
}

export interface IdentityObservation {
  versionShape: unknown;
  apiVersion: string;
  conditionTypes: string[];
  conditionShape: unknown;
  runtimeReady: boolean | undefined;
}

export async function identity(rt: Runtime): Promise<IdentityObservation> {
  const version = await rt.cri.version();
  const status = await rt.cri.status();
  const conditions = [...status.conditions].sort((a, b) => (a.type < b.type ? -1 : 1));
  return {
    versionShape: shape(version),
    apiVersion: version.apiVersion,
    conditionTypes: conditions.map((c) => c.type),
    conditionShape: shape(conditions),
    runtimeReady: conditions.find((c) => c.type === 'RuntimeReady')?.status,
  };
}

export interface RecordsObservation {
  sandboxListed: unknown;
  sandboxStatus: unknown;
  containerCreated: unknown;
  containerListedRunning: unknown;
  containerExited: unknown;
  image: unknown;
  imageByDigest: 'same image' | 'absent' | 'other image';
}

/**
 * Every field of the records the CRI returns for one pod and its container, created → running
 * → exited, and of the image — with what must differ between runtimes (ids, times, the pod's
 * uid, digests, paths under the log root) replaced by how it relates to the rest.
 */
export async function records(rt: Runtime): Promise<RecordsObservation> {
  const { cri } = rt;
  const pod = await runPod(cri, 'records', rt.logRoot);
  try {
    const image = await cri.imageStatus(IMAGE);
    if (!image) throw new Error(`${IMAGE} is not present`);
    const uid = (v: string) => v.replaceAll(pod.spec.uid, '<uid>');
    const strings = (m: Readonly<Record<string, string>>) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [k, uid(v)]));
    const imageRef = (ref: string) =>
      ref === image.id
        ? 'image id'
        : image.repoDigests.includes(ref)
          ? 'repo digest'
          : normalize(ref);
    const container = (c: RuntimeContainer) => ({
      name: c.name,
      attempt: c.attempt,
      state: c.state,
      exitCode: c.exitCode,
      reason: c.reason,
      message: c.message === undefined ? undefined : normalize(c.message),
      image: c.image,
      imageRef: imageRef(c.imageRef),
      imageId: c.imageId === undefined || c.imageId === '' ? 'absent' : imageRef(c.imageId),
      restartCount: c.restartCount,
      labels: strings(c.labels),
      annotations: strings(c.annotations),
      inspected: c.inspected,
      sandboxId: c.sandboxId === pod.id ? 'the pod' : c.sandboxId === '' ? 'absent' : 'other',
      createdAt: c.createdAt > 0,
      startedAt:
        c.startedAt === undefined
          ? 'absent'
          : c.startedAt >= c.createdAt
            ? 'after created'
            : 'before created',
      finishedAt:
        c.finishedAt === undefined
          ? 'absent'
          : c.startedAt !== undefined &&
              c.finishedAt - c.startedAt >= 900 &&
              c.finishedAt - c.startedAt < 5_000
            ? 'about a second after started'
            : `${c.finishedAt - (c.startedAt ?? 0)} ms after started`,
    });
    const sandbox = (s: RuntimeSandbox) => ({
      name: s.name,
      namespace: s.namespace,
      uid: uid(s.uid),
      attempt: s.attempt,
      state: s.state,
      createdAt: s.createdAt > 0,
      labels: strings(s.labels),
      annotations: strings(s.annotations),
      runtimeHandler: s.runtimeHandler,
      network: s.network,
      networkMode: s.networkMode,
      inspected: s.inspected,
    });

    const spec = kubeletContainer(pod.spec, 'main', ['sh', '-c', 'sleep 1; exit 3']);
    const id = await cri.createContainer(pod.id, spec, pod.spec);
    const containerCreated = container(await cri.containerStatus(id, { sandboxId: pod.id }));
    await cri.startContainer(id);
    const listed = (await cri.listContainers({ id }))[0];
    const containerListedRunning = listed && container(listed);
    const timeline = { status: new Timeline(), list: new Timeline() };
    await watch(cri, id, exited, timeline);
    const containerExited = container(await cri.containerStatus(id, { sandboxId: pod.id }));

    const listedSandbox = (await cri.listPodSandbox({ id: pod.id }))[0];
    const status = await cri.podSandboxStatus(pod.id);
    const digest = image.repoDigests[0];
    const byDigest = digest === undefined ? undefined : await cri.imageStatus(digest);
    return {
      sandboxListed: listedSandbox && sandbox(listedSandbox),
      sandboxStatus: {
        ...sandbox(status.sandbox),
        containers: status.containers.length,
        info: Object.keys(status.info),
      },
      containerCreated,
      containerListedRunning,
      containerExited,
      image: {
        repoTags: image.repoTags,
        repoDigests: image.repoDigests.map(normalize),
        sizeBytes: image.sizeBytes > 0,
        uid: image.uid,
        username: image.username,
        pinned: image.pinned,
      },
      imageByDigest:
        byDigest === undefined ? 'absent' : byDigest.id === image.id ? 'same image' : 'other image',
    };
  } finally {
    await removePod(cri, pod);
  }
}
