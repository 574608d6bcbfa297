/**
 * The composition root in cluster mode (PODSCOPE_NATS_URL set): no nodes of its own — the bus
 * (server/cluster/bus/) carries what every `podscope agent` publishes; this replica follows it
 * into a view (view.ts) and serves it (console.ts), runs one of the timeline writers (writer.ts:
 * the writers share one durable consumer, so each event is committed once whatever the number
 * of replicas), and reads history from the cluster timeline — PostgreSQL with
 * PODSCOPE_DATABASE_URL (every replica serves the same one), else an SQLite file in the data
 * directory. Loaded only in cluster mode: `npm start` never imports NATS or pg.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import type { Config } from '@/server/config';
import { electApiView, type ApiViewElection } from '@/server/cluster/api-view';
import { connectBus, type BusConnection } from '@/server/cluster/bus/connection';
import { ReplicaReader } from '@/server/cluster/bus/reader';
import { ClusterSource, positionOf } from '@/server/cluster/console';
import { startKeeper } from '@/server/cluster/timeline/keeper-thread';
import { openClusterTimeline, type ClusterTimeline } from '@/server/cluster/timeline/timeline';
import { ClusterWriter } from '@/server/cluster/writer';
import { KubeView } from '@/server/kube';
import { loadKubeConfig, serverOf } from '@/server/kube/config';
import { LEASE_DEFAULTS } from '@/server/kube/lease';
import type { LogFn } from '@/server/log';

export interface ClusterParts {
  source: ClusterSource;
  /** The cluster timeline (its database also holds the saved timelines on PostgreSQL). */
  timeline: ClusterTimeline;
  /** Where the timeline lives, for the start-up line. */
  where: string;
  stops: (() => Promise<void> | void)[];
}

export async function startCluster(config: Config, log: LogFn): Promise<ClusterParts> {
  const { natsUrl, databaseUrl, databaseMigrate, name } = config.cluster;
  if (!natsUrl) throw new Error('cluster mode needs PODSCOPE_NATS_URL');
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const where = databaseUrl
      ? { url: databaseUrl, migrate: databaseMigrate }
      : { path: join(config.dataDir, 'cluster.db') };
    const timeline = await openClusterTimeline(where);
    stops.unshift(() => timeline.close());
    const bus = await connectBus({
      servers: natsUrl.split(','),
      cluster: name,
      name: `podscope-console ${hostname()}/${process.pid}`,
      log: (line) => log(line, 'warn'),
    });
    stops.unshift(() => bus.close());
    // The replica's one reader of the stream: its view's tail and its writer parse each message
    // once between them.
    const reader = new ReplicaReader(bus);
    const writer = new ClusterWriter({
      reader,
      timeline,
      log: (line) => log(line, 'warn'),
    }).start();
    stops.unshift(() => writer.stop());
    const source = new ClusterSource({
      reader,
      timeline,
      writer,
      graceMs: config.periods.nodeMonitorGraceMs,
    });
    // The API view's election before the replica follows the bus: it learns every Event the
    // stream carries, so a new leader does not publish one again.
    const api = apiServerKnown(config) ? startApiView(config, bus, source, log) : undefined;
    if (api) source.addMetrics(api.publisher.registry);
    try {
      await source.start();
    } finally {
      stops.unshift(() => source.stop());
      if (api) stops.unshift(() => api.stop());
    }

    // Checkpoints keep a seek's cost bounded as the timeline grows, and retention through them
    // keeps the states after its cut right (server/cluster/timeline/checkpoints.ts). They are
    // folded and written in a thread of their own, by one replica at a time (keeper-thread.ts).
    const keeper = startKeeper({
      open: where,
      timeline,
      floor: async () => positionOf(await reader.writerAckFloor()),
      log,
    });
    stops.unshift(() => keeper.stop());
    const failed = (what: string) => (err: unknown) =>
      log(`cluster timeline ${what}: ${err instanceof Error ? err.message : String(err)}`, 'error');
    const checkpoints = setInterval(() => {
      keeper.tick().catch(failed('checkpoint'));
    }, CHECKPOINT_LOOK_MS);
    checkpoints.unref();
    stops.unshift(() => clearInterval(checkpoints));
    const retention = setInterval(() => {
      keeper
        .retain({ maxAgeMs: config.retention.maxAgeMs })
        .then(
          (r) =>
            r.skipped &&
            !r.elsewhere &&
            log(`cluster timeline retention waits: ${r.skipped}`, 'warn'),
        )
        .catch(failed('retention'));
    }, 60_000);
    retention.unref();
    stops.unshift(() => clearInterval(retention));
    return {
      source,
      timeline,
      where: `the ${name} cluster on ${natsUrl}; timeline at ${timeline.where}`,
      stops,
    };
  } catch (err) {
    for (const stop of stops) await Promise.resolve(stop()).catch(() => undefined);
    throw err;
  }
}

/** How often a replica looks whether the timeline has grown enough for a checkpoint. */
const CHECKPOINT_LOOK_MS = 10_000;

export const API_VIEW_LEASE = 'podscope-api-view';
const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const SA_NAMESPACE = `${SA_DIR}/namespace`;

/** A kubeconfig, or in a pod its service account's credentials (a token to present). */
function apiServerKnown(config: Config): boolean {
  if (config.kubeconfig) return true;
  return Boolean(process.env.KUBERNETES_SERVICE_HOST) && existsSync(`${SA_DIR}/token`);
}

/** The namespace the Lease lives in: configured, else the pod's own (its service account's). */
function leaseNamespace(configured: string | undefined): string {
  if (configured) return configured;
  try {
    const ns = readFileSync(SA_NAMESPACE, 'utf8').trim();
    if (ns) return ns;
  } catch {
    // Not in a pod: the namespace the manifests use.
  }
  return 'podscope';
}

/**
 * The API server's view in cluster mode (server/cluster/api-view.ts): every replica runs the
 * Lease election; the holder watches the API server and publishes Events and drift on the bus.
 * The Lease's timings keep client-go's proportions (15 s : 10 s : 2 s) at any duration.
 */
function startApiView(
  config: Config,
  bus: BusConnection,
  source: ClusterSource,
  log: LogFn,
): ApiViewElection {
  const lease = config.cluster.lease ?? {};
  const durationMs = lease.durationMs ?? LEASE_DEFAULTS.leaseDurationMs;
  const kubeconfig = config.kubeconfig;
  // Fail at start-up on an unreadable kubeconfig, not in the first term of leadership.
  const kc = loadKubeConfig(kubeconfig ? { kubeconfig } : {});
  const identity = `${process.env.POD_NAME || hostname()}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const namespace = leaseNamespace(lease.namespace);
  const name = lease.name ?? API_VIEW_LEASE;
  log(`api view: electing through the Lease ${namespace}/${name} as ${identity} (${serverOf(kc)})`);
  return electApiView({
    bus,
    source,
    kube: (o) => new KubeView({ kubeconfig: kc, ...o }),
    log: (line, level) => log(line, level ?? 'info'),
    lease: {
      kubeconfig: kc,
      namespace,
      name,
      identity,
      leaseDurationMs: durationMs,
      renewDeadlineMs: Math.round((durationMs * 2) / 3),
      retryPeriodMs: Math.round(durationMs / 7.5),
    },
  });
}
