/**
 * The prober's fill-in of `started` and `ready`.
 *
 * Port of (*manager).UpdatePodStatus from pkg/kubelet/prober/prober_manager.go (kubernetes/kubernetes,
 * stored text). The CRI carries no probe results, so a container without a supplied result behaves
 * as one with no probe: started = running; ready = started. A supplied result replaces that.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { isRestartableInitContainer } from './restart';
import { isObj, specOf } from './util';

/** Results of probes Podscope learned elsewhere (e.g. the API server), by container name. */
export type ProbeResults = Readonly<Record<string, { startup?: boolean; readiness?: boolean }>>;

const isRunning = (s: V1ContainerStatus) => isObj(s.state) && isObj(s.state.running);

function probeRegular(s: V1ContainerStatus, probes: ProbeResults | undefined): V1ContainerStatus {
  const result = probes?.[s.name];
  const started = isRunning(s) && (result?.startup ?? true);
  if (!started) return { ...s, started };
  return { ...s, started, ready: result?.readiness ?? true };
}

/** UpdatePodStatus: returns new status lists; the inputs are not modified. */
export function updatePodStatusProbes(
  pod: V1Pod,
  statuses: {
    initContainerStatuses: readonly V1ContainerStatus[];
    containerStatuses: readonly V1ContainerStatus[];
  },
  probes?: ProbeResults,
): { initContainerStatuses: V1ContainerStatus[]; containerStatuses: V1ContainerStatus[] } {
  const view = specOf(pod);
  const containerStatuses = statuses.containerStatuses.map((s) => probeRegular(s, probes));
  const initContainerStatuses = statuses.initContainerStatuses.map((s) => {
    const spec = view.initContainers.find((c) => c.name === s.name);
    if (spec && isRestartableInitContainer(spec)) return probeRegular(s, probes);
    // A regular init container is ready once it exited 0; started mirrors running (no startup probe).
    const t = isObj(s.state) ? s.state.terminated : undefined;
    const ready = isObj(t) && t.exitCode === 0;
    return { ...s, started: isRunning(s), ...(ready ? { ready: true } : {}) };
  });
  return { initContainerStatuses, containerStatuses };
}
