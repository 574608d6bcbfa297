/**
 * Reading one pod from the runtime as the kubelet's GetPodStatus does, and the list-level
 * fingerprint the driver's relist compares to decide whether a pod's worker should sync again.
 */
import type { RuntimePodStatus } from '@/lib/kubelet/runtime';
import { LABELS } from '@/lib/kubelet/runtime';
import type { DriverRuntime } from '../runtime';
import { isNotFound } from '../runtime';

/** List-level identity of the pod's runtime objects: changes when anything is created, changes state or goes. */
export function fingerprintOf(
  sandboxes: readonly { id: string; state: string }[],
  containers: readonly { id: string; state: string }[],
): string {
  const parts = [
    ...sandboxes.map((s) => `s:${s.id}:${s.state}`),
    ...containers.map((c) => `c:${c.id}:${c.state}`),
  ];
  return parts.sort().join(',');
}

/**
 * GetPodStatus: every sandbox (inspected, newest first) and container (inspected) of the pod,
 * handing `listed` the fingerprint of the lists as soon as they are read (before any inspection,
 * which may fail). Objects gone between list and inspection are left out.
 */
export async function readPodStatus(
  runtime: DriverRuntime,
  pod: { uid: string; name: string; namespace: string },
  listed: (fingerprint: string) => void,
): Promise<RuntimePodStatus> {
  const selector = { [LABELS.podUid]: pod.uid };
  const [sandboxList, containerList] = await Promise.all([
    runtime.listPodSandbox({ labelSelector: selector }),
    runtime.listContainers({ labelSelector: selector }),
  ]);
  listed(fingerprintOf(sandboxList, containerList));
  const sandboxes = (
    await Promise.all(
      sandboxList.map(async (s) => {
        try {
          return (await runtime.podSandboxStatus(s.id)).sandbox;
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      }),
    )
  )
    .filter((s): s is NonNullable<typeof s> => s !== undefined)
    .sort((a, b) => b.createdAt - a.createdAt);
  const containers = (
    await Promise.all(
      containerList.map(async (c) => {
        try {
          return await runtime.containerStatus(c.id, { sandboxId: c.sandboxId });
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      }),
    )
  ).filter((c): c is NonNullable<typeof c> => c !== undefined);
  return { ...pod, sandboxes, containers };
}
