/**
 * Stopping and cleaning up one pod's runtime objects, as the kubelet's pod worker does:
 * killPodWithSyncResult (every running container in termination order, then every sandbox), the
 * grace period a probe kill gets, purgeInitContainers, the dead-container GC that keeps the
 * newest exited record per name, and the final removal after a graceful deletion.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { containersNewestFirst } from '@/lib/kubelet/records';
import type { RuntimePodStatus } from '@/lib/kubelet/runtime';
import { killContainer, TerminationOrdering, terminationGracePeriod } from './kill';
import { probeOf } from '../probes/spec';
import { isNotFound, rpcErrorText } from '../runtime';
import { containerSpecOf, killContextOf, type WorkerContext } from './worker-context';

/** The pod a kill or removal is for, as its worker sees it now. */
export interface KillTarget {
  ctx: WorkerContext;
  pod: V1Pod;
  /** The worker's log prefix. */
  where: string;
}

/**
 * setTerminationGracePeriod: a probe kill uses the probe's terminationGracePeriodSeconds when
 * set (and no deletion grace period applies), else the pod's.
 */
export function killGracePeriod(
  pod: V1Pod,
  container: V1Container,
  reason?: 'LivenessProbe' | 'StartupProbe',
): number {
  const base = terminationGracePeriod(pod);
  if (pod.metadata?.deletionGracePeriodSeconds !== undefined || !reason) return base;
  const probe = probeOf(container, reason === 'LivenessProbe' ? 'liveness' : 'startup');
  return probe?.terminationGracePeriodSeconds ?? base;
}

/** killPodWithSyncResult: stop running containers (in termination order), then every sandbox. */
export async function killPod(
  t: KillTarget,
  status: RuntimePodStatus,
  graceSeconds: number,
): Promise<void> {
  const running = status.containers.filter((c) => c.state === 'running');
  const ordering = new TerminationOrdering(
    t.pod,
    running.map((c) => c.name),
  );
  const failures: string[] = [];
  await Promise.all(
    running.map(async (c) => {
      const container = containerSpecOf(t.pod, c.name) ?? { name: c.name };
      try {
        await killContainer(killContextOf(t.ctx), {
          where: t.where,
          id: c.id,
          container,
          graceSeconds,
          ordering,
        });
      } catch (err) {
        failures.push(`KillContainer ${c.name}: ${rpcErrorText(err)}`);
      }
    }),
  );
  for (const s of status.sandboxes) {
    try {
      await t.ctx.runtime.stopPodSandbox(s.id);
    } catch (err) {
      if (!isNotFound(err)) failures.push(`KillPodSandbox ${s.id}: ${rpcErrorText(err)}`);
    }
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
}

/** purgeInitContainers: a new sandbox starts initialization from scratch. */
export async function purgeInitContainers(t: KillTarget, status: RuntimePodStatus): Promise<void> {
  const names = new Set((t.pod.spec?.initContainers ?? []).map((c) => c.name));
  for (const c of status.containers) {
    if (names.has(c.name)) await removeQuietly(t, c.id);
  }
}

/**
 * Dead-container GC (pruneInitContainersBeforeStart and the container GC's
 * MaxPerPodContainer = 1): per container name keep the newest exited record, remove older ones.
 */
export async function removeDeadContainers(t: KillTarget, status: RuntimePodStatus): Promise<void> {
  const seen = new Set<string>();
  for (const c of containersNewestFirst(status)) {
    if (c.state !== 'exited') continue;
    if (!seen.has(c.name)) {
      seen.add(c.name);
      continue;
    }
    await removeQuietly(t, c.id);
  }
}

async function removeQuietly(t: KillTarget, id: string): Promise<void> {
  try {
    await t.ctx.runtime.removeContainer(id);
  } catch (err) {
    if (!isNotFound(err)) t.ctx.log(`${t.where}: RemoveContainer ${id}: ${rpcErrorText(err)}`);
  }
}

/** After a deletion: remove every container, then every sandbox (gone already is fine). */
export async function removeAll(ctx: WorkerContext, status: RuntimePodStatus): Promise<void> {
  for (const c of status.containers) {
    try {
      await ctx.runtime.removeContainer(c.id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  for (const s of status.sandboxes) {
    try {
      await ctx.runtime.removePodSandbox(s.id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
