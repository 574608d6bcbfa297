/**
 * The composition root: configuration → store → (embedded simulated nodes + kubelet stand-in +
 * demo workload, or configured CRI endpoints) → engine; or, in cluster mode (PODSCOPE_NATS_URL),
 * configuration → bus + cluster timeline + writer → the replica's view of the cluster (cluster.ts).
 * One per process, kept on globalThis:
 * Next.js may evaluate modules (and instrumentation.register) more than once, and dev mode
 * reloads them; a second engine would mean a second poller and a second writer.
 */
import { parseKubeletVersionSettings } from '@/lib/kubelet/version';
import { join } from 'node:path';
import { containerBackoff } from '@/lib/kubelet';
import { getConfig, maxContainerRestartPeriodFor, type Config } from '@/server/config';
import type { EngineApi } from '@/server/engine/api';
import type { HintProvider } from '@/server/engine/hints';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { DriftBridge, KubeView } from '@/server/kube';
import { logFn, rootLogger } from '@/server/log';
import { LearnService } from '@/server/learn/service';
import { startSimCluster, type SimCluster } from '@/server/sim';
import { parseNodeIPs } from '@/server/engine/node/host-ips';
import {
  lockTimeline,
  openStore,
  SavedTimelineStore,
  type TimelineStore,
} from '@/server/timeline-db';
import { TimelinesService, type LiveRecording } from '@/server/timelines/service';
import { savedInStore, type SavedStorage } from '@/server/timelines/storage';
import type { Services } from '@/server/trpc/context';
import { DEMO_BACKOFF_SCALE } from '@/server/demo/workload';
import type { ClusterTimeline } from '@/server/cluster/timeline/timeline';
import { startSimWorkload } from './embedded';

export interface PodscopeRuntime {
  readonly config: Config;
  /** The embedded engine, or in cluster mode the replica's view of the bus (ClusterSource). */
  readonly engine: EngineApi;
  readonly store: TimelineStore;
  readonly timelines: TimelinesService;
  /** What every tRPC request gets (the same services, built once). */
  readonly context: Services;
  readonly sim?: SimCluster;
  stop(): Promise<void>;
}

const KEY = Symbol.for('podscope.runtime');
type Slot = { [KEY]?: Promise<PodscopeRuntime> };

/** The process's runtime, started on first use. */
export function getRuntime(): Promise<PodscopeRuntime> {
  const g = globalThis as Slot;
  g[KEY] ??= startRuntime(getConfig()).catch((err: unknown) => {
    delete g[KEY];
    throw err;
  });
  return g[KEY];
}

const log = logFn(rootLogger());

export async function startRuntime(config: Config): Promise<PodscopeRuntime> {
  return config.cluster.natsUrl ? startClusterRuntime(config) : startEmbeddedRuntime(config);
}

/** The services every tRPC request gets, over the engine (or replica) and the saved timelines. */
function services(
  config: Config,
  engine: EngineApi,
  saved: SavedStorage,
  recording?: LiveRecording,
): { timelines: TimelinesService; context: Services } {
  const timelines = new TimelinesService(saved, {
    quota: config.saved,
    ...(recording ? { recording } : {}),
  });
  const learn = new LearnService({ dir: join(config.dataDir, 'learn'), log });
  return { timelines, context: { engine, timelines, learn } };
}

function openConfiguredStore(config: Config): TimelineStore {
  return openStore({
    path: config.dataDir,
    retention: { maxAgeMs: config.retention.maxAgeMs, maxBytes: config.retention.maxBytes },
    saved: config.saved,
  });
}

/** Saved-timeline retention (run every minute); a failure is logged, never thrown. */
function expireSaved(store: TimelineStore): void {
  try {
    store.expireSavedTimelines();
  } catch (err) {
    retentionFailed(err);
  }
}

/** The same in the cluster database (every replica runs it; a second delete finds nothing). */
async function expireShared(saved: SavedTimelineStore, maxAgeMs: number): Promise<void> {
  if (!(maxAgeMs > 0)) return;
  try {
    await saved.expire(Date.now() - maxAgeMs);
  } catch (err) {
    retentionFailed(err);
  }
}

function retentionFailed(err: unknown): void {
  log(`saved-timeline retention: ${err instanceof Error ? err.message : String(err)}`, 'error');
}

/**
 * Cluster mode: saved timelines live in the cluster database on PostgreSQL, shared by every
 * replica; on SQLite (no PODSCOPE_DATABASE_URL) in this replica's store, which holds only them.
 */
async function startClusterRuntime(config: Config): Promise<PodscopeRuntime> {
  const store = openConfiguredStore(config);
  let unlock: () => void = () => undefined;
  try {
    unlock = lockTimeline(store.path);
    const { startCluster } = await import('./cluster');
    const cluster = await startCluster(config, log);
    const shared = sharedSaved(cluster.timeline);
    const expire = setInterval(() => {
      if (shared) void expireShared(shared, config.saved.maxAgeMs);
      else expireSaved(store);
    }, 60_000);
    expire.unref();
    log(`cluster mode: following ${cluster.where}`);
    const engine = cluster.source;
    let stopping: Promise<void> | undefined;
    const runtime: PodscopeRuntime = {
      config,
      engine,
      store,
      // Saved periods come from the cluster timeline.
      ...services(config, engine, shared ?? savedInStore(store), cluster.source),
      stop: () =>
        (stopping ??= (async () => {
          clearInterval(expire);
          for (const stop of cluster.stops) await Promise.resolve(stop()).catch(() => undefined);
          store.close();
          unlock();
        })()),
    };
    installShutdown(runtime);
    return runtime;
  } catch (err) {
    store.close();
    unlock();
    throw err;
  }
}

/** The saved timelines every replica shares: in the cluster database when it is PostgreSQL. */
function sharedSaved(
  timeline: Pick<ClusterTimeline, 'db' | 'dialect' | 'where'>,
): SavedTimelineStore | undefined {
  if (timeline.dialect !== 'postgres') return undefined;
  return new SavedTimelineStore(timeline);
}

async function startEmbeddedRuntime(config: Config): Promise<PodscopeRuntime> {
  const store = openConfiguredStore(config);
  const stops: (() => Promise<void> | void)[] = [];
  let unlock: () => void = () => undefined;
  try {
    // One engine per timeline: a second server on the same data directory is refused.
    unlock = lockTimeline(store.path);
    const latest = store.latestSeq();
    const initialState = latest > 0 ? store.stateAtSeq(latest) : undefined;
    const providers: HintProvider[] = [];
    let kube: KubeView | undefined;
    if (config.kubeconfig) {
      // The API server's view first: its specs win over annotations and inference.
      kube = new KubeView({ kubeconfig: config.kubeconfig });
      providers.push(kube);
      const view = kube;
      stops.push(() => view.stop());
    }
    let sim: SimCluster | undefined;
    const embedded = config.nodes.length === 0 && config.sim.nodes > 0;
    if (embedded) {
      sim = await startSimCluster({
        nodes: config.sim.nodes,
        clock: { mode: 'real', speed: config.sim.speed },
        seed: config.sim.seed,
        eventsMode: 'stream',
        ...(config.sim.socketDir ? { socketDir: config.sim.socketDir } : {}),
      });
      const cluster = sim;
      stops.push(() => cluster.stop());
    }
    // The demo's drivers before the engine: the engine subscribes to its providers' changes
    // (probe results, the kubelet's events) when it is made, so they must be there by then.
    const workload =
      sim && config.sim.demo
        ? await startSimWorkload(sim, {
            seed: config.sim.seed,
            runAfterSeq: latest,
            log,
            maxContainerRestartPeriodMs: (node) =>
              maxContainerRestartPeriodFor(config.crashLoopBackOff, node),
          })
        : undefined;
    if (workload) {
      providers.push(...workload.hints);
      stops.unshift(() => workload.stop());
    }
    const engine = new Engine({
      store: engineStore(store),
      timings: config.periods,
      providers,
      dial: (endpoint) => criRuntime(endpoint, { timeoutMs: config.periods.criTimeoutMs }),
      allowEndpoints: config.allowEndpoints,
      ...(config.nodeIP ? { nodeIPs: parseNodeIPs(config.nodeIP) } : {}),
      ...(config.kubeletVersion
        ? { kubeletVersions: parseKubeletVersionSettings(config.kubeletVersion) }
        : {}),
      maxContainerRestartPeriodMs: {
        all: config.crashLoopBackOff.maxContainerRestartPeriodMs,
        byNode: config.crashLoopBackOff.byNode,
      },
      relistWorkers: { count: config.relistWorkers, criTimeoutMs: config.periods.criTimeoutMs },
      ...(initialState ? { initialState } : {}),
      ...(sim
        ? {
            clock: sim.clock,
            backoff: (max: number) => containerBackoff(max, DEMO_BACKOFF_SCALE),
          }
        : {}),
      log,
    });
    stops.unshift(() => engine.stop());

    if (sim) {
      for (const node of sim.nodes) engine.addNode(node.name, node.endpoint, true);
    } else {
      for (const n of config.nodes) engine.watch(n.name, n.endpoint, n.lab);
    }
    engine.start();
    if (kube) {
      const bridge = new DriftBridge(
        kube,
        {
          state: () => engine.snapshot(),
          append: (events) => engine.record(events),
          now: () => Date.now(),
        },
        {
          onError: (err) =>
            log(`drift: ${err instanceof Error ? err.message : String(err)}`, 'warn'),
        },
      );
      kube.start();
      bridge.start();
      stops.unshift(() => bridge.stop());
    }

    const retention = setInterval(() => {
      expireSaved(store);
      store
        .retention()
        .catch((err: unknown) =>
          log(`retention: ${err instanceof Error ? err.message : String(err)}`, 'error'),
        );
    }, 60_000);
    retention.unref();
    stops.push(() => clearInterval(retention));

    const where = sim
      ? `${sim.nodes.length} simulated node(s) in ${sim.socketDir}`
      : `${config.nodes.length} CRI endpoint(s)`;
    log(`watching ${where}; timeline at ${store.path} (seq ${store.latestSeq()})`);

    let stopping: Promise<void> | undefined;
    const runtime: PodscopeRuntime = {
      config,
      engine,
      store,
      ...services(config, engine, savedInStore(store)),
      ...(sim ? { sim } : {}),
      stop: () =>
        (stopping ??= (async () => {
          for (const stop of stops) await stop();
          store.close();
          unlock();
        })()),
    };
    installShutdown(runtime);
    return runtime;
  } catch (err) {
    for (const stop of stops) await Promise.resolve(stop()).catch(() => undefined);
    store.close();
    unlock();
    throw err;
  }
}

/** Stop cleanly on SIGINT/SIGTERM: simulated sockets removed, the store closed. */
function installShutdown(runtime: PodscopeRuntime): void {
  const onSignal = (signal: NodeJS.Signals) => {
    void runtime.stop().finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
