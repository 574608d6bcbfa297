/**
 * One probe of one container, probed periodically: a port of pkg/kubelet/prober/worker.go
 * (kubernetes/kubernetes 61ecc560357a1af440735b32ddcf4ee143c0d0ea), doProbe step by step:
 *
 *  1. a terminal pod ends the worker;
 *  2. no record of the container yet → wait;
 *  3. a new container ID → drop the old result, set the initial one (readiness Failure,
 *     liveness Success, startup Unknown), leave hold;
 *  4. on hold (after a liveness failure, or once the startup probe decided) → wait for a new ID;
 *  5. not running → Failure; the worker ends when the container exited under restartPolicy Never;
 *  6. pod being deleted → liveness and startup report Success and end (a quiet shutdown);
 *  7. within initialDelaySeconds of the container's start → wait;
 *  8. the startup probe gates the others: before the container counts as started only the
 *     startup probe runs; after it, the startup probe no longer runs;
 *  9. run the probe (3 tries while it errors; an error throws the result away);
 * 10. count equal results in a row; change the stored result only at successThreshold /
 *     failureThreshold; a liveness failure or a decided startup probe puts the worker on hold.
 *
 * Timing: the first probe runs when the worker starts (the kubelet adds a random delay only in
 * its first period after a kubelet restart), then every periodSeconds on the driver's clock; a
 * manual trigger (UpdatePodStatus asking for an unknown readiness) probes at once and restarts
 * the period. A probe that outlasts its period delays the next tick, as Go's ticker drops ticks.
 */
import type { V1Container, V1Pod, V1Probe } from '@kubernetes/client-node';
import { findContainerStatusByName } from '@/lib/kubelet/records';
import type { RuntimePodStatus } from '@/lib/kubelet/runtime';
import type { DriverClock, DriverTimer } from '../clock';
import type { ResultsManager, StoredResult } from './results';
import { probeEvent, resultOf, type ProbeRun } from './run';
import type { ProbeType } from './spec';

export interface WorkerHost {
  clock: DriverClock;
  /** The pod as the kubelet has it now (deletionTimestamp set once deletion started). */
  pod(): V1Pod;
  /** The pod's runtime status as of the last sync (the status manager's role); undefined before. */
  status(): RuntimePodStatus | undefined;
  /** True once the pod is terminal (Succeeded/Failed) or gone. */
  terminal(): boolean;
  /** isContainerStarted for this container ID (UpdatePodStatus's notion of `started`). */
  started(containerName: string, containerId: string): boolean;
  run(probe: V1Probe, container: V1Container, containerId: string): Promise<ProbeRun>;
  /** The kubelet's event for a failed / warned run. */
  event(e: { reason: 'Unhealthy' | 'ProbeWarning'; message: string; containerId: string }): void;
  /** The stored result changed (threshold reached), with the run of equal results behind it. */
  resultChanged(e: {
    containerId: string;
    result: StoredResult;
    consecutive: number;
    threshold: number;
    output: string;
  }): void;
  /** Every counted run (the worker's resultRun), threshold reached or not. */
  counted(e: {
    containerId: string;
    success: boolean;
    consecutive: number;
    threshold: number;
    output: string;
  }): void;
  /** The worker ended (removeWorker). */
  ended(): void;
}

const INITIAL: Record<ProbeType, StoredResult> = {
  readiness: 'failure',
  liveness: 'success',
  startup: 'unknown',
};

export class ProbeWorker {
  private containerId = '';
  private lastResult: 'success' | 'failure' | undefined;
  private resultRun = 0;
  private onHold = false;
  private timer: DriverTimer | undefined;
  private running: Promise<void> | undefined;
  private pendingTrigger = false;
  private stopped = false;
  private tickAt = 0;
  private readonly periodMs: number;

  constructor(
    readonly type: ProbeType,
    readonly container: V1Container,
    private readonly spec: V1Probe,
    private readonly results: ResultsManager,
    private readonly host: WorkerHost,
  ) {
    this.periodMs = Math.max(1, spec.periodSeconds ?? 10) * 1000;
  }

  start(): void {
    this.tickAt = this.host.clock.now();
    this.fire();
  }

  /** Stops the loop; the result of the current container is removed. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    if (this.containerId) this.results.remove(this.containerId);
    this.host.ended();
  }

  /** manualTriggerCh: probe now (or right after the probe in flight) and restart the period. */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pendingTrigger = true;
      return;
    }
    this.timer?.cancel();
    this.tickAt = this.host.clock.now();
    this.fire();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  private fire(): void {
    if (this.stopped || this.running) return;
    this.running = this.doProbe()
      .catch(() => true) // HandleCrash: keep going
      .then((keepGoing) => {
        this.running = undefined;
        if (!keepGoing) {
          this.stop();
          return;
        }
        this.scheduleNext();
      });
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    const now = this.host.clock.now();
    if (this.pendingTrigger) {
      this.pendingTrigger = false;
      this.tickAt = now;
      this.fire();
      return;
    }
    this.tickAt += this.periodMs;
    // A probe that ran past its tick: one buffered tick fires at once, the grid moves on.
    if (this.tickAt <= now) this.tickAt = now;
    this.timer = this.host.clock.setTimer(this.tickAt - now, () => {
      this.timer = undefined;
      this.fire();
    });
  }

  /** Returns whether the worker should continue. */
  private async doProbe(): Promise<boolean> {
    if (this.host.terminal()) return false;
    const status = this.host.status();
    if (!status) return true;
    const c = findContainerStatusByName(status, this.container.name);
    if (!c) return true;

    if (c.id !== this.containerId) {
      if (this.containerId) this.results.remove(this.containerId);
      this.containerId = c.id;
      this.results.set(this.containerId, INITIAL[this.type]);
      this.onHold = false;
    }
    if (this.onHold) return true;

    const pod = this.host.pod();
    if (c.state !== 'running') {
      this.results.set(this.containerId, 'failure');
      return !(c.state === 'exited' && pod.spec?.restartPolicy === 'Never');
    }

    if (pod.metadata?.deletionTimestamp && (this.type === 'liveness' || this.type === 'startup')) {
      this.results.set(this.containerId, 'success');
      return false;
    }

    const startedAt = c.startedAt ?? c.createdAt;
    const sinceStart = Math.trunc((this.host.clock.now() - startedAt) / 1000);
    if (sinceStart < (this.spec.initialDelaySeconds ?? 0)) return true;

    const started = this.host.started(this.container.name, this.containerId);
    if (started ? this.type === 'startup' : this.type !== 'startup') return true;

    const id = this.containerId;
    const run = await this.host.run(this.spec, this.container, id);
    if (this.stopped || id !== this.containerId) return true;
    const event = probeEvent(this.type, run);
    if (event) this.host.event({ ...event, containerId: id });
    if (run.error !== undefined) return true; // prober error: throw the result away

    const result = resultOf(run);
    if (this.lastResult === result) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    const threshold =
      result === 'failure' ? (this.spec.failureThreshold ?? 3) : (this.spec.successThreshold ?? 1);
    this.host.counted({
      containerId: id,
      success: result === 'success',
      consecutive: this.resultRun,
      threshold,
      output: run.output,
    });
    if (this.resultRun < threshold) return true;

    if (this.results.get(id) !== result) {
      // Told before the result is stored, so whoever reacts to the change can name its cause.
      this.host.resultChanged({
        containerId: id,
        result,
        consecutive: this.resultRun,
        threshold,
        output: run.output,
      });
      this.results.set(id, result);
    }
    if ((this.type === 'liveness' && result === 'failure') || this.type === 'startup') {
      this.onHold = true;
      this.resultRun = 0;
    }
    return true;
  }
}
