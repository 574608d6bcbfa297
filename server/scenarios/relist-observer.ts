/**
 * A direct observer for the scenario runner when no engine runs: one relist of the runtime
 * (ListPodSandbox, ListContainers, then PodSandboxStatus / ContainerStatus of each) put through
 * lib/kubelet's generateAPIPodStatus with the driver's spec and hints, shaped as the engine's
 * ClusterState. It keeps each pod's previous status (the status manager's cache) so terminal
 * phases stay terminal. Node conditions are not derived here (that needs the engine's heartbeat
 * and grace periods): node expectations need the engine observer.
 */
import { generateAPIPodStatus } from '@/lib/kubelet/status';
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { LABELS } from '@/lib/kubelet/runtime';
import type { ClusterState, PodView } from '@/lib/timeline/state';
import type { HintProvider } from '@/server/engine/hints';
import { summarizeSpec } from '@/server/engine/pods/pod-view';
import type { DriverRuntime } from '@/server/driver/runtime';
import { isNotFound } from '@/server/driver/runtime';

export interface RelistObserverOptions {
  runtime: Pick<
    DriverRuntime,
    'endpoint' | 'listPodSandbox' | 'listContainers' | 'podSandboxStatus' | 'containerStatus'
  >;
  node: string;
  /** The driver's hints: only pods it knows (specFor) are shown. */
  hints: HintProvider;
  clock: { now(): number };
}

async function inspect<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function relistObserver(options: RelistObserverOptions): () => Promise<ClusterState> {
  const previous = new Map<string, PodView>();
  return async () => {
    const { runtime, hints, node } = options;
    const [sandboxList, containerList] = await Promise.all([
      runtime.listPodSandbox(),
      runtime.listContainers(),
    ]);
    const sandboxes = (
      await Promise.all(
        sandboxList.map((s) => inspect(async () => (await runtime.podSandboxStatus(s.id)).sandbox)),
      )
    ).filter((s): s is RuntimeSandbox => s !== undefined);
    const containers = (
      await Promise.all(
        containerList.map((c) =>
          inspect(() => runtime.containerStatus(c.id, { sandboxId: c.sandboxId })),
        ),
      )
    ).filter((c): c is RuntimeContainer => c !== undefined);
    const now = options.clock.now();
    const uids = new Set<string>([
      ...sandboxes.map((s) => s.labels[LABELS.podUid] ?? s.uid),
      ...containers.map((c) => c.labels[LABELS.podUid] ?? ''),
    ]);
    const pods: Record<string, PodView> = {};
    for (const uid of uids) {
      const spec = uid ? hints.specFor?.(uid) : undefined;
      if (!spec) continue;
      const hint = hints.hintsFor(uid) ?? {};
      const podRuntime: RuntimePodStatus = {
        uid,
        name: spec.metadata?.name ?? '',
        namespace: spec.metadata?.namespace ?? '',
        sandboxes: sandboxes
          .filter((s) => (s.labels[LABELS.podUid] ?? s.uid) === uid)
          .sort((a, b) => b.createdAt - a.createdAt),
        containers: containers.filter((c) => c.labels[LABELS.podUid] === uid),
      };
      const old = previous.get(uid);
      const result = generateAPIPodStatus({
        pod: spec,
        runtime: podRuntime,
        ...(old ? { oldStatus: old.status } : {}),
        ...(hint.syncErrors ? { syncErrors: hint.syncErrors } : {}),
        now,
        ...(hint.podIsTerminal !== undefined ? { podIsTerminal: hint.podIsTerminal } : {}),
      });
      const view: PodView = {
        uid,
        name: podRuntime.name,
        namespace: podRuntime.namespace,
        node,
        specSource: 'annotation',
        spec: summarizeSpec(spec),
        status: result.status,
        why: result.why,
        createdAt: old?.createdAt ?? Math.min(...podRuntime.sandboxes.map((s) => s.createdAt), now),
        ...(result.nextRestartAt ? { nextRestartAt: result.nextRestartAt } : {}),
        ...(hint.deletionTimestamp !== undefined
          ? { deletionTimestamp: hint.deletionTimestamp }
          : {}),
      };
      previous.set(uid, view);
      pods[uid] = view;
    }
    for (const uid of previous.keys()) if (!(uid in pods)) previous.delete(uid);
    return {
      seq: 0,
      t: now,
      nodes: {
        [node]: {
          name: node,
          endpoint: runtime.endpoint,
          runtimeConditions: [],
          conditions: [],
          why: {},
          health: { connected: true, lastRelistAt: now },
          pods,
        },
      },
    };
  };
}
