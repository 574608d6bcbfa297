/**
 * What one node's kubelet keeps to derive its pods' status from the runtime: the container
 * back-off (advanced by every new attempt after an exit), the node's clock against ours
 * (clock-offset.ts), the pod specs and hints (providers) and the node's host IPs. `derive` turns a
 * pod's runtime records into the pod's derived events (pod-view.ts, pod-events.ts).
 *
 * Holds state only; the node engine (node-engine.ts) numbers and emits what it returns.
 */
import {
  backoffGC,
  containerBackoff,
  KUBELET_DEFAULTS,
  kubeletFeatures,
  ownBackoff,
  recordRestartsInPlace,
  resolveKubeletVersion,
} from '@/lib/kubelet';
import type {
  BackoffState,
  FeatureGates,
  KubeletFeatures,
  KubeletVersion,
  NodeReadiness,
  NodeTimings,
  Restart,
} from '@/lib/kubelet';
import type { RuntimeContainer, RuntimePodStatus } from '@/lib/kubelet/runtime';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import type { PodView } from '@/lib/timeline/state';
import type { LogFn } from '@/server/log';
import { ClockOffset, describeOffset, shiftPodTimes } from '../node/clock-offset';
import type { HintProvider } from '../hints';
import { resolveHostIPs } from '../node/host-ips';
import type { EngineMetrics } from '../metrics';
import type { RelistOutcome } from '../relist/node-watcher';
import { derivePodView } from './pod-view';
import { podEvents } from './pod-events';

/** The kubelet's housekeeping period (kubelet.go housekeepingPeriod), when its back-off GC runs. */
const GC_PERIOD_MS = 2_000;

export interface PodDeriverOptions {
  node: string;
  timings: NodeTimings;
  /** The relist period (a relist that keeps up with the node feeds the clock offset). */
  relistMs: number;
  providers?: readonly HintProvider[];
  /** Gates set explicitly, over the defaults of the node's kubelet version. */
  gates?: FeatureGates;
  /** The operator's kubelet version for this node (--kubelet-version / PODSCOPE_KUBELET_VERSION). */
  kubeletVersion?: string;
  backoff?: (maxContainerRestartPeriodMs: number) => BackoffState;
  /** The node's crashLoopBackOff.maxContainerRestartPeriod (default 300 s). */
  maxContainerRestartPeriodMs?: number;
  nodeIPs?: readonly string[];
  detectedIPs?: readonly string[];
  metrics?: Pick<EngineMetrics, 'clockOffset'>;
  log?: LogFn;
}

export class PodDeriver {
  private backoff: BackoffState;
  /**
   * Whether `backoff` is this deriver's own table (ownBackoff's or backoffGC's), which restarts
   * are written into in place; the one the options give is copied on the first restart.
   */
  private ownsBackoff = false;
  /** The node's clock against ours (runtime times are compared with "now" through it). */
  private readonly clockOffset: ClockOffset;
  /** When the previous successful relist finished (our time). */
  private lastRelistedAt: number | undefined;
  private lastGCAt = 0;
  /** The node's kubelet: the version whose rules apply, and its gates. */
  private features: KubeletFeatures;

  constructor(private readonly options: PodDeriverOptions) {
    this.features = kubeletFeatures(this.resolveVersion(), options.gates);
    const max = options.maxContainerRestartPeriodMs ?? KUBELET_DEFAULTS.maxContainerRestartPeriodMs;
    this.backoff = options.backoff?.(max) ?? containerBackoff(max, 1, this.features.gates);
    this.clockOffset = new ClockOffset({ toleranceMs: 2 * options.relistMs + 2_000 });
  }

  /** The kubelet version whose rules this node's pods are derived with. */
  get kubelet(): KubeletVersion {
    return this.features.version;
  }

  /**
   * Reads the node's kubelet version again (the API server's Node may have arrived or changed).
   * When it changed, the rules and the back-off periods follow it (the restarts already recorded
   * are kept) and the new version is returned; otherwise undefined.
   */
  refreshKubelet(): KubeletVersion | undefined {
    const next = this.resolveVersion();
    const now = this.features.version;
    if (next.value === now.value && next.source === now.source && next.reported === now.reported)
      return undefined;
    this.features = kubeletFeatures(next, this.options.gates);
    if (!this.options.backoff) {
      const max =
        this.options.maxContainerRestartPeriodMs ?? KUBELET_DEFAULTS.maxContainerRestartPeriodMs;
      this.backoff = {
        ...containerBackoff(max, 1, this.features.gates),
        entries: this.backoff.entries,
      };
      this.ownsBackoff = false;
    }
    return next;
  }

  private resolveVersion(): KubeletVersion {
    const { node, providers = [] } = this.options;
    let apiServer: string | undefined;
    for (const p of providers) {
      apiServer = p.kubeletVersionFor?.(node);
      if (apiServer) break;
    }
    return resolveKubeletVersion({ apiServer, flag: this.options.kubeletVersion });
  }

  /**
   * Feeds the node's clock offset with the runtime times of transitions that a relist keeping up
   * with the node found (clock-offset.ts); true when the applied offset changed.
   */
  observeClock(o: RelistOutcome): boolean {
    const keptUp =
      o.source === 'events' ||
      (this.lastRelistedAt !== undefined &&
        o.startedAt - this.lastRelistedAt <= 2 * this.options.relistMs + 1_000);
    this.lastRelistedAt = o.finishedAt;
    if (!keptUp || o.transitions.length === 0) return false;
    const times = o.transitions.flatMap((tr) =>
      tr.runtimeTime !== undefined ? [tr.runtimeTime] : [],
    );
    if (!this.clockOffset.observe(o.finishedAt, times)) return false;
    const ms = this.clockOffset.ms;
    this.options.metrics?.clockOffset.set({ node: o.node }, -ms / 1000);
    this.options.log?.(
      ms === 0
        ? `${o.node}: the runtime's clock agrees with the server's again; runtime times are used as they are`
        : `${o.node}: the runtime's clock is ${describeOffset(ms)} the server's; derived times are corrected by ${ms > 0 ? '+' : ''}${Math.round(ms / 1000)} s`,
      ms === 0 ? 'info' : 'warn',
    );
    return true;
  }

  /**
   * The kubelet's back-off: a new attempt after an exit advances the container's back-off.
   * Returns the restarts it recorded.
   */
  noteRestarts(o: RelistOutcome): Restart[] {
    // HandlePodCleanups' backOff.GC(): entries past their reset are dropped (the check itself
    // never needs them; this bounds the table).
    if (o.finishedAt - this.lastGCAt >= GC_PERIOD_MS) {
      this.backoff = backoffGC(this.backoff, o.finishedAt);
      this.ownsBackoff = true;
      this.lastGCAt = o.finishedAt;
    }
    const restarts: Restart[] = [];
    // The previous records by container name, built once for the relist's new attempts.
    let byName: Map<string, RuntimeContainer[]> | undefined;
    for (const tr of o.transitions) {
      if (tr.type !== 'ContainerCreated' || !tr.container) continue;
      byName ??= containersByName(o.previousContainers);
      let previousExit: number | undefined;
      for (const c of byName.get(tr.container) ?? []) {
        if (c.id === tr.id) continue;
        if ((c.labels['io.kubernetes.pod.uid'] ?? '') !== tr.podUid && c.sandboxId === '') continue;
        if (c.state === 'exited' && c.finishedAt !== undefined)
          previousExit = Math.max(previousExit ?? 0, c.finishedAt);
      }
      if (previousExit === undefined) continue;
      restarts.push({
        ref: { podUid: tr.podUid, container: tr.container },
        previousExitAt: previousExit + this.clockOffset.ms,
        restartAt: o.finishedAt,
      });
    }
    if (restarts.length > 0) {
      if (!this.ownsBackoff) this.backoff = ownBackoff(this.backoff);
      this.ownsBackoff = true;
      recordRestartsInPlace(this.backoff, restarts);
    }
    return restarts;
  }

  /** The pod's derived events: its runtime records now against its view as recorded. */
  derive(
    runtime: RuntimePodStatus,
    previous: PodView | undefined,
    t: number,
    nodeReady: NodeReadiness,
    podCause?: number,
    containerCause?: ReadonlyMap<string, number>,
  ): UnsequencedEvent[] {
    const { node, providers = [] } = this.options;
    const gates = this.features.gates;
    const hostIPs = resolveHostIPs(node, providers, this.options.nodeIPs, this.options.detectedIPs);
    const next = derivePodView({
      node,
      runtime: shiftPodTimes(runtime, this.clockOffset.ms, t),
      previous,
      providers,
      backoff: this.backoff,
      now: t,
      nodeReady,
      gates,
      timings: this.options.timings,
      ...(hostIPs ? { hostIPs } : {}),
    });
    return podEvents(previous, next, {
      t,
      node,
      ...(podCause !== undefined ? { podCause } : {}),
      ...(containerCause ? { containerCause } : {}),
    });
  }
}

function containersByName(
  containers: ReadonlyMap<string, RuntimeContainer>,
): Map<string, RuntimeContainer[]> {
  const out = new Map<string, RuntimeContainer[]>();
  for (const c of containers.values()) {
    const list = out.get(c.name);
    if (list) list.push(c);
    else out.set(c.name, [c]);
  }
  return out;
}
