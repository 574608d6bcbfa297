/**
 * Starting one container the way the kubelet's startContainer does, with doBackOff in front
 * (pkg/kubelet/kuberuntime/kuberuntime_container.go, kuberuntime_manager.go): the CrashLoopBackOff
 * back-off, the image pull with its own back-off, env from the ConfigStore
 * (CreateContainerConfigError), CreateContainer (CreateContainerError), StartContainer
 * (RunContainerError) and the postStart hook (PostStartHookError, the container killed), with the
 * kubelet's labels, annotations and restart count. Every failure comes back as the SyncError the
 * reason cache keeps; pod-worker.ts decides what to do with it.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import {
  backoffGet,
  backoffKey,
  backoffNext,
  isInBackOffSince,
  type BackoffState,
} from '@/lib/kubelet/backoff';
import { containersNewestFirst, findContainerStatusByName } from '@/lib/kubelet/records';
import {
  ErrCrashLoopBackOff,
  ErrCreateContainer,
  ErrCreateContainerConfig,
  ErrRunContainer,
} from '@/lib/kubelet/reasons';
import type { RuntimePodStatus, SyncError } from '@/lib/kubelet/runtime';
import { goDuration } from '@/lib/kubelet/util';
import type { SandboxSpec } from '@/server/cri/types';
import { EnvResolutionError, makeEnvironmentVariables } from '../spec/env';
import { ErrPostStartHook, runLifecycleHandler } from './hooks';
import { killContainer, terminationGracePeriod } from './kill';
import { buildContainerSpec, hashContainer, type ContainerType } from '../spec/labels';
import { rpcErrorText } from '../runtime';
import { formatPod } from '../spec/spec';
import { killContextOf, type WorkerContext } from './worker-context';

/** The pod a start is for, as its worker sees it now. */
export interface StartTarget {
  ctx: WorkerContext;
  pod: V1Pod;
  uid: string;
  /** The worker's log prefix. */
  where: string;
  /** The IP httpGet hooks dial. */
  podIP: string;
}

/** startContainer with doBackOff in front; returns the error for the reason cache, if any. */
export async function startContainer(
  t: StartTarget,
  container: V1Container,
  type: ContainerType,
  sandboxId: string,
  sandbox: SandboxSpec,
  status: RuntimePodStatus,
): Promise<SyncError | undefined> {
  const backOff = doBackOff(t, container, status);
  if (backOff) return backOff;

  const image = await t.ctx.images.ensureImageExists(t.pod, container, sandbox);
  if (!image.ok) return image.error;

  const previous = findContainerStatusByName(status, container.name);
  const restartCount = previous ? previous.restartCount + 1 : 0;
  let env: Record<string, string>;
  try {
    env = makeEnvironmentVariables(t.pod, container, t.ctx.configs);
  } catch (err) {
    if (err instanceof EnvResolutionError)
      return { reason: ErrCreateContainerConfig, message: err.message };
    throw err;
  }
  const spec = buildContainerSpec({ container, pod: t.pod, restartCount, type, env });
  let id: string;
  try {
    id = await t.ctx.runtime.createContainer(sandboxId, spec, sandbox);
  } catch (err) {
    return { reason: ErrCreateContainer, message: messageOf(err) };
  }
  try {
    await t.ctx.runtime.startContainer(id);
  } catch (err) {
    return { reason: ErrRunContainer, message: messageOf(err) };
  }
  const postStart = container.lifecycle?.postStart;
  if (postStart) return runPostStart(t, container, id, postStart);
  return undefined;
}

/** startContainer step 4: the postStart hook; a failure kills the container (PostStartHookError). */
async function runPostStart(
  t: StartTarget,
  container: V1Container,
  id: string,
  handler: NonNullable<NonNullable<V1Container['lifecycle']>['postStart']>,
): Promise<SyncError | undefined> {
  const { ctx } = t;
  const started = ctx.clock.now();
  const kind = handler.exec
    ? 'exec'
    : handler.httpGet
      ? 'httpGet'
      : handler.sleep
        ? 'sleep'
        : 'other';
  ctx.note?.({
    type: 'postStartStarted',
    container: container.name,
    containerId: id,
    handler: kind,
  });
  const outcome = await runLifecycleHandler(
    { runtime: ctx.runtime, clock: ctx.clock, network: ctx.network, podIP: t.podIP },
    t.pod,
    container,
    id,
    handler,
  );
  const durationMs = ctx.clock.now() - started;
  if (outcome.ok) {
    ctx.note?.({
      type: 'postStartFinished',
      container: container.name,
      containerId: id,
      durationMs,
    });
    return undefined;
  }
  ctx.log(`${t.where}: FailedPostStartHook: ${outcome.message}`);
  ctx.note?.({
    type: 'postStartFailed',
    container: container.name,
    containerId: id,
    durationMs,
    message: outcome.message,
  });
  try {
    await killContainer(killContextOf(ctx), {
      where: t.where,
      id,
      container,
      graceSeconds: terminationGracePeriod(t.pod),
      message: 'FailedPostStartHook',
    });
  } catch (err) {
    ctx.log(`${t.where}: Failed to kill container ${container.name}: ${rpcErrorText(err)}`);
  }
  return { reason: ErrPostStartHook, message: outcome.message };
}

/** The container's key in the kubelet's restart back-off (pod identity + name + spec hash). */
function backoffKeyFor(pod: V1Pod, uid: string, container: V1Container): string {
  return backoffKey(
    { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', uid },
    container.name,
    hashContainer(container),
  );
}

/** The newest exited record of the container, if any. */
function newestExited(status: RuntimePodStatus, name: string) {
  return containersNewestFirst(status).find((c) => c.name === name && c.state === 'exited');
}

/** doBackOff: back off from the finish of the newest exited attempt, else move the back-off on. */
function doBackOff(
  t: StartTarget,
  container: V1Container,
  status: RuntimePodStatus,
): SyncError | undefined {
  const exited = newestExited(status, container.name);
  if (!exited || exited.finishedAt === undefined) return undefined;
  const key = backoffKeyFor(t.pod, t.uid, container);
  const state = t.ctx.backoff.get();
  const now = t.ctx.clock.now();
  if (isInBackOffSince(state, key, exited.finishedAt, now)) {
    return {
      reason: ErrCrashLoopBackOff,
      message: `back-off ${goDuration(backoffGet(state, key))} restarting failed container=${container.name} pod=${formatPod(t.pod)}`,
    };
  }
  t.ctx.backoff.set(backoffNext(state, key, exited.finishedAt, now));
  return undefined;
}

/** When the container's CrashLoopBackOff ends (its newest exit + the back-off), if it has one. */
export function backOffEndsAt(
  pod: V1Pod,
  uid: string,
  container: V1Container,
  status: RuntimePodStatus,
  state: BackoffState,
): number | undefined {
  const exited = newestExited(status, container.name);
  if (exited?.finishedAt === undefined) return undefined;
  return exited.finishedAt + backoffGet(state, backoffKeyFor(pod, uid, container));
}

/** The runtime's own words (grpcstatus Message()), as the kubelet keeps them for Create/Run errors. */
function messageOf(err: unknown): string {
  if (
    typeof err === 'object' &&
    err !== null &&
    'details' in err &&
    typeof err.details === 'string'
  ) {
    return err.details;
  }
  return err instanceof Error ? err.message : String(err);
}
