/**
 * The prober for one pod: its probe workers and results, and the kubelet's reading of them.
 * Port of the parts of pkg/kubelet/prober/prober_manager.go (kubernetes/kubernetes 5afbee12) a
 * single pod needs: AddPod (a worker per probe of every regular container and sidecar),
 * StopLivenessAndStartup (on termination), RemovePod, isContainerStarted, and UpdatePodStatus's
 * manual trigger of a readiness probe that has not succeeded yet. What the kubelet's sync loop
 * does with updates (handleProbeSync: a liveness or startup change syncs the pod) is the
 * owner's `changed` callback.
 */
import type { V1Container, V1Pod, V1Probe } from '@kubernetes/client-node';
import { isRestartableInitContainer } from '@/lib/kubelet/restart';
import type { ProbeResult, ProbeResults, ProbeRunInfo } from '@/lib/kubelet/prober';
import type { RuntimePodStatus } from '@/lib/kubelet/runtime';
import type { DriverClock } from '../clock';
import type { DriverRuntime } from '../runtime';
import type { ProbeNetwork } from './network';
import { ResultsManager, type StoredResult } from './results';
import { runProbeWithRetries } from './run';
import { probeOf, PROBE_TYPES, type ProbeType } from './spec';
import { ProbeWorker } from './worker';

export type ProbeNote =
  | {
      type: 'probeEvent';
      container: string;
      probe: ProbeType;
      containerId: string;
      /** The kubelet's event reason: Unhealthy (failed or errored) or ProbeWarning. */
      reason: 'Unhealthy' | 'ProbeWarning';
      message: string;
    }
  | {
      type: 'probeResult';
      container: string;
      probe: ProbeType;
      containerId: string;
      result: StoredResult;
      /** Equal results in a row that changed the stored one, and the threshold it reached. */
      consecutive: number;
      threshold: number;
      output: string;
    };

export interface PodProberHost {
  clock: DriverClock;
  runtime: DriverRuntime;
  network: ProbeNetwork;
  pod(): V1Pod;
  status(): RuntimePodStatus | undefined;
  terminal(): boolean;
  /** The pod IP probes dial when they name no host. */
  podIP(): string;
  /** "name_namespace(uid)". */
  podName(): string;
  note(n: ProbeNote): void;
  /** A stored result changed: liveness/startup changes need a sync, readiness changes new hints. */
  changed(type: ProbeType): void;
  /** A startup or readiness run was counted (the hints' run details changed). */
  counted(): void;
}

function probedContainers(pod: V1Pod): V1Container[] {
  return [
    ...(pod.spec?.initContainers ?? []).filter((c) => isRestartableInitContainer(c)),
    ...(pod.spec?.containers ?? []),
  ];
}

export class PodProber {
  private readonly results: Record<ProbeType, ResultsManager>;
  private readonly workers = new Map<string, ProbeWorker>();
  private readonly runs = new Map<string, ProbeRunInfo & { containerId: string }>();
  private started = false;

  constructor(private readonly host: PodProberHost) {
    const mk = (type: ProbeType) => new ResultsManager(() => this.host.changed(type));
    this.results = { liveness: mk('liveness'), readiness: mk('readiness'), startup: mk('startup') };
  }

  private key(container: string, type: ProbeType): string {
    return `${container}/${type}`;
  }

  /** AddPod: one worker per probe. Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const c of probedContainers(this.host.pod())) {
      for (const type of PROBE_TYPES) {
        const spec = probeOf(c, type);
        if (spec) this.addWorker(c, type, spec);
      }
    }
  }

  private addWorker(c: V1Container, type: ProbeType, spec: V1Probe): void {
    const key = this.key(c.name, type);
    const worker = new ProbeWorker(type, c, spec, this.results[type], {
      clock: this.host.clock,
      pod: () => this.host.pod(),
      status: () => this.host.status(),
      terminal: () => this.host.terminal(),
      started: (name, id) => this.isContainerStarted(name, id),
      run: (probe, container, containerId) =>
        runProbeWithRetries(probe, {
          runtime: this.host.runtime,
          network: this.host.network,
          podName: this.host.podName(),
          podIP: this.host.podIP(),
          container,
          containerId,
        }),
      event: (e) =>
        this.host.note({
          type: 'probeEvent',
          container: c.name,
          probe: type,
          containerId: e.containerId,
          reason: e.reason,
          message: e.message,
        }),
      resultChanged: (e) =>
        this.host.note({ type: 'probeResult', container: c.name, probe: type, ...e }),
      counted: (e) => {
        this.runs.set(key, { ...e, output: e.output.slice(0, 512) });
        // The engine explains "failed 2 of 3 times": tell it while the count moves towards
        // the threshold (bounded: once there, only a result change is news).
        if (type !== 'liveness' && e.consecutive <= e.threshold) this.host.counted();
      },
      ended: () => {
        if (this.workers.get(key) === worker) this.workers.delete(key);
      },
    });
    this.workers.set(key, worker);
    worker.start();
  }

  /** StopLivenessAndStartup: termination began; readiness keeps probing. */
  stopLivenessAndStartup(): void {
    for (const w of [...this.workers.values()]) {
      if (w.type !== 'readiness') w.stop();
    }
  }

  /** RemovePod. */
  stop(): void {
    for (const w of [...this.workers.values()]) w.stop();
    this.workers.clear();
  }

  private runFor(
    container: string,
    type: ProbeType,
    containerId: string,
  ): ProbeRunInfo | undefined {
    const run = this.runs.get(this.key(container, type));
    if (!run || run.containerId !== containerId) return undefined;
    const { containerId: _id, ...info } = run;
    return info;
  }

  hasWorker(container: string, type: ProbeType): boolean {
    return this.workers.has(this.key(container, type));
  }

  get(type: ProbeType, containerId: string): StoredResult | undefined {
    return this.results[type].get(containerId);
  }

  /** isContainerStarted for a running container: startup Success, or no startup probe at all. */
  isContainerStarted(container: string, containerId: string): boolean {
    const r = this.results.startup.get(containerId);
    if (r !== undefined) return r === 'success';
    return !this.hasWorker(container, 'startup');
  }

  /**
   * UpdatePodStatus's side effect: a started, running container whose readiness is not known to
   * be Success gets its readiness probe run at once.
   */
  triggerReadiness(status: RuntimePodStatus): void {
    for (const c of status.containers) {
      if (c.state !== 'running') continue;
      const w = this.workers.get(this.key(c.name, 'readiness'));
      if (!w) continue;
      if (this.results.readiness.get(c.id) === 'success') continue;
      if (!this.isContainerStarted(c.name, c.id)) continue;
      w.trigger();
    }
  }

  /**
   * What the engine needs to fill in `started` / `ready` like UpdatePodStatus: per probed
   * container, the container ID the results belong to and the startup / readiness results
   * (absent = no result yet; a probe that exists but has not succeeded counts as not passed).
   */
  probeResults(status: RuntimePodStatus | undefined): ProbeResults {
    const out: Record<string, ProbeResult> = {};
    for (const c of probedContainers(this.host.pod())) {
      const hasStartup = c.startupProbe !== undefined;
      const hasReadiness = c.readinessProbe !== undefined;
      if (!hasStartup && !hasReadiness && !c.livenessProbe) continue;
      const record = status?.containers
        .filter((r) => r.name === c.name)
        .sort((a, b) => b.createdAt - a.createdAt)[0];
      const id = record?.id;
      const entry: ProbeResult = {
        ...(id ? { containerId: id } : {}),
      };
      if (hasStartup && id) {
        const r = this.results.startup.get(id);
        if (r !== undefined && r !== 'unknown') entry.startup = r === 'success';
        const run = this.runFor(c.name, 'startup', id);
        if (run) entry.startupRun = run;
      }
      if (hasReadiness && id) {
        const r = this.results.readiness.get(id);
        if (r !== undefined && r !== 'unknown') entry.readiness = r === 'success';
        const run = this.runFor(c.name, 'readiness', id);
        if (run) entry.readinessRun = run;
      }
      out[c.name] = entry;
    }
    return out;
  }
}
