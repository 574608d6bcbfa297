/**
 * The prober's fill-in of `started` and `ready`.
 *
 * Port of (*manager).UpdatePodStatus and isContainerStarted from
 * pkg/kubelet/prober/prober_manager.go (kubernetes/kubernetes 5afbee12, stored text).
 *
 * The CRI carries no probe results: they live in the kubelet. When a source that knows them is
 * given (Podscope's own kubelet stand-in, or the API server's containerStatuses), the upstream
 * rule applies: started = running and (startup probe succeeded, or none); ready = started,
 * running and (readiness probe succeeded, or none) — a probe that has not run yet for this
 * container counts as not passed. Without a source, a running container counts as started and
 * ready (what a container without probes gets) and the explanation says the results are not
 * visible (see `probesUnseen`).
 */
import type { V1Container, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { isRestartableInitContainer } from './restart';
import { isObj, specOf } from './util';

/** The last run of a probe as its worker counts it (results change only at a threshold). */
export interface ProbeRunInfo {
  success: boolean;
  /** Equal results in a row, this one included. */
  consecutive: number;
  /** successThreshold or failureThreshold, whichever this run counts towards. */
  threshold: number;
  /** The probe's output (exec: stdout+stderr; HTTP: status or error), clipped. */
  output: string;
}

export interface ProbeResult {
  /** The container the results belong to (CRI id, without the runtime prefix). */
  containerId?: string;
  /** Startup probe result: true = Success, false = Failure, absent = none yet. */
  startup?: boolean;
  /** Readiness probe result: true = Success, false = Failure, absent = none yet. */
  readiness?: boolean;
  /** The last runs behind those results, when the source knows them (the driver's prober). */
  readinessRun?: ProbeRunInfo;
  startupRun?: ProbeRunInfo;
}

/** Probe results from a source that knows them, by container name. */
export type ProbeResults = Readonly<Record<string, ProbeResult>>;

const isRunning = (s: V1ContainerStatus) => isObj(s.state) && isObj(s.state.running);

function idOf(s: V1ContainerStatus): string {
  const id = s.containerID ?? '';
  const i = id.indexOf('://');
  return i >= 0 ? id.slice(i + 3) : id;
}

function probeRegular(
  s: V1ContainerStatus,
  spec: V1Container | undefined,
  probes: ProbeResults | undefined,
): V1ContainerStatus {
  const running = isRunning(s);
  if (!probes) {
    const started = running;
    if (!started) return { ...s, started };
    return { ...s, started, ready: true };
  }
  const r = probes[s.name];
  const current = r && (r.containerId === undefined || r.containerId === idOf(s)) ? r : undefined;
  const hasStartup = spec?.startupProbe !== undefined;
  const hasReadiness = spec?.readinessProbe !== undefined;
  // A supplied result decides; a probe without a result for this container has not passed.
  const started = running && (current?.startup ?? !hasStartup);
  if (!started) return { ...s, started };
  return { ...s, started, ready: current?.readiness ?? !hasReadiness };
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
  const containerStatuses = statuses.containerStatuses.map((s) =>
    probeRegular(
      s,
      view.containers.find((c) => c.name === s.name),
      probes,
    ),
  );
  const initContainerStatuses = statuses.initContainerStatuses.map((s) => {
    const spec = view.initContainers.find((c) => c.name === s.name);
    if (spec && isRestartableInitContainer(spec)) return probeRegular(s, spec, probes);
    // A regular init container is ready once it exited 0; started mirrors running (no startup probe).
    const t = isObj(s.state) ? s.state.terminated : undefined;
    const ready = isObj(t) && t.exitCode === 0;
    return { ...s, started: isRunning(s), ...(ready ? { ready: true } : {}) };
  });
  return { initContainerStatuses, containerStatuses };
}

/**
 * Containers whose probes decide `started`/`ready` but whose results Podscope cannot see (no
 * source given): their values are assumed, and the explanation must say so.
 */
export function probesUnseen(pod: V1Pod, probes: ProbeResults | undefined): string[] {
  if (probes) return [];
  const view = specOf(pod);
  return [...view.initContainers.filter((c) => isRestartableInitContainer(c)), ...view.containers]
    .filter((c) => c.startupProbe !== undefined || c.readinessProbe !== undefined)
    .map((c) => c.name);
}
