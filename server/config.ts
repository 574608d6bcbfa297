/**
 * Podscope's configuration: parsed once, validated with zod, failing fast with a readable message.
 *
 * Sources, later ones winning: defaults → a JSON file (PODSCOPE_CONFIG) → environment variables →
 * explicit overrides (the CLI's flags). Every period is in milliseconds unless the name says so.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { CLIENT_MAX_BATCH } from '@/lib/transport';
import { KUBELET_DEFAULTS, MAX_CONTAINER_RESTART_PERIOD_RANGE_MS } from '@/lib/kubelet/timings';
import { parseKubeletVersionSettings } from '@/lib/kubelet/version';
import { DEFAULT_TIMEOUT_MS as DEFAULT_CRI_TIMEOUT_MS } from '@/server/cri/limits';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { parseNodeIPs } from '@/server/engine/node/host-ips';
import { trustedProxies as trustedProxyList } from '@/server/security/kube/proxy-identity';
import { ConfigError, fromEnv, isLoopback, NO_EMPTY, readTokenFile, type Env } from './config-env';

export { ConfigError, isLoopback, parseNodeSpec, parseRestartPeriods } from './config-env';

const endpointPattern = /^(unix:\/\/\/|tcp:\/\/|\/)/;

export const NodeEndpointSchema = z.object({
  name: z.string().min(1).max(253),
  endpoint: z.string().regex(endpointPattern, 'must be unix:///path, tcp://host:port or /path'),
  /** A lab endpoint may be mutated by the driver (scenarios); others are observed read-only. */
  lab: z.boolean().default(false),
});
export type NodeEndpoint = z.infer<typeof NodeEndpointSchema>;

const ms = (def: number) => z.coerce.number().int().positive().default(def);
const count = (def: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(1).max(max).default(def);

const RESTART_RANGE = MAX_CONTAINER_RESTART_PERIOD_RANGE_MS;
const restartPeriodMs = z.coerce
  .number()
  .int()
  .min(RESTART_RANGE.min, 'must be at least 1000 ms (the kubelet accepts 1s–300s)')
  .max(RESTART_RANGE.max, 'must be at most 300000 ms (the kubelet accepts 1s–300s)');

/** The kubelet's crashLoopBackOff.maxContainerRestartPeriod: for every node, and per node. */
export const CrashLoopBackOffSchema = z
  .object({
    maxContainerRestartPeriodMs: restartPeriodMs.default(
      KUBELET_DEFAULTS.maxContainerRestartPeriodMs,
    ),
    byNode: z.record(z.string().min(1).max(253), restartPeriodMs).default({}),
  })
  .default({
    maxContainerRestartPeriodMs: KUBELET_DEFAULTS.maxContainerRestartPeriodMs,
    byNode: {},
  });
export type CrashLoopBackOffConfig = z.infer<typeof CrashLoopBackOffSchema>;

/** A node's container back-off maximum: its own, else every node's. */
export const maxContainerRestartPeriodFor = (c: CrashLoopBackOffConfig, node: string): number =>
  Object.prototype.hasOwnProperty.call(c.byNode, node)
    ? (c.byNode[node] ?? c.maxContainerRestartPeriodMs)
    : c.maxContainerRestartPeriodMs;

const DNS_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** An address or name to bind or to answer for: a DNS name, an IPv4 or an IPv6 address ([…] allowed). */
export function isHostName(value: string): boolean {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return isIP(bare) !== 0 || DNS_NAME.test(value);
}
const hostName = z.string().refine(isHostName, 'must be a host name or an IP address');

/** Defaults of the request limits and saved-timeline quotas (README "Security"). */
export const DEFAULT_LIMITS = {
  trpcMaxBatch: 16,
  rangeMaxBytes: 4 * 1024 * 1024,
  importConcurrency: 2,
} as const;
export const DEFAULT_SAVED = {
  maxCount: 200,
  maxBytes: 512 * 1024 * 1024,
  maxAgeMs: 90 * 24 * 3600_000,
} as const;

export const ConfigSchema = z.object({
  host: hostName.default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Required when host is not loopback. Compared in constant time. */
  token: z.string().min(16, 'the token must be at least 16 characters').optional(),
  /** A file holding the token (read once, at load; `token` wins when both are given). */
  tokenFile: z.string().min(1).optional(),
  /**
   * Who may sign in: `token` (the one access token above; none on loopback) or `kubernetes`
   * (the cluster's own identities: a bearer token checked by TokenReview, or a trusted OAuth2
   * proxy's forwarded user; what each sees is decided by SubjectAccessReview —
   * server/security/kube). PODSCOPE_AUTH.
   */
  auth: z.enum(['token', 'kubernetes']).default('token'),
  /**
   * The key that signs sign-in sessions in `kubernetes` mode (32+ characters). Replicas that
   * share it accept each other's sessions; unset, each process makes its own at start.
   * PODSCOPE_SESSION_SECRET / PODSCOPE_SESSION_SECRET_FILE.
   */
  sessionSecret: z.string().min(32, 'the session secret must be at least 32 characters').optional(),
  /**
   * OAuth2 proxies whose forwarded identity headers are believed (addresses or CIDRs); from any
   * other peer they are ignored. PODSCOPE_AUTH_TRUSTED_PROXIES, comma-separated.
   */
  trustedProxies: z
    .array(z.string())
    .default([])
    .superRefine((list, ctx) => {
      try {
        trustedProxyList(list);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
      }
    }),
  /**
   * Host names the server answers for besides loopback names and its own bind address (a reverse
   * proxy's public name). Any other Host header is refused: the defence against DNS rebinding.
   */
  allowedHosts: z.array(hostName).default([]),
  /** What one request may cost. */
  limits: z
    .object({
      /** Calls in one tRPC batch (not below the console's own batches, lib/transport.ts). */
      trpcMaxBatch: z.coerce
        .number()
        .int()
        .min(CLIENT_MAX_BATCH)
        .max(1000)
        .default(DEFAULT_LIMITS.trpcMaxBatch),
      /** Encoded event bytes one timeline.range call returns before it hands back a cursor. */
      rangeMaxBytes: count(DEFAULT_LIMITS.rangeMaxBytes),
      /** Timeline imports processed at once; more are refused with 429. */
      importConcurrency: count(DEFAULT_LIMITS.importConcurrency, 64),
    })
    .default({ ...DEFAULT_LIMITS }),
  /** Saved timelines: quotas, and how long they are kept (0: until deleted). */
  saved: z
    .object({
      maxCount: count(DEFAULT_SAVED.maxCount),
      maxBytes: count(DEFAULT_SAVED.maxBytes),
      maxAgeMs: z.coerce.number().int().min(0).default(DEFAULT_SAVED.maxAgeMs),
    })
    .default({ ...DEFAULT_SAVED }),
  /** CRI endpoints to watch. Empty: run the embedded simulated nodes. */
  nodes: z.array(NodeEndpointSchema).default([]),
  sim: z
    .object({
      nodes: z.coerce.number().int().min(0).max(1000).default(3),
      /** Virtual clock speed for the embedded simulator. */
      speed: z.coerce.number().positive().max(1000).default(1),
      /** Put the built-in mixed workload on the simulated nodes. */
      demo: z.coerce.boolean().default(true),
      socketDir: z.string().optional(),
      seed: z.coerce.number().int().default(1),
    })
    .default({ nodes: 3, speed: 1, demo: true, seed: 1 }),
  /** Endpoints a browser may ask the server to connect to (nodes.connect), besides the configured ones. */
  allowEndpoints: z.array(z.string()).default([]),
  dataDir: z.string().default('.podscope'),
  retention: z
    .object({
      maxAgeMs: ms(7 * 24 * 3600_000),
      maxBytes: ms(1024 * 1024 * 1024),
    })
    .default({ maxAgeMs: 7 * 24 * 3600_000, maxBytes: 1024 * 1024 * 1024 }),
  periods: z
    .object({
      /** Generic PLEG relist period (pkg/kubelet/kubelet.go genericPlegRelistPeriod). */
      relistMs: ms(DEFAULT_ENGINE_TIMINGS.relistMs),
      /** kubelet nodeStatusUpdateFrequency. */
      nodeStatusMs: ms(DEFAULT_ENGINE_TIMINGS.nodeStatusMs),
      /** A slow full relist that keeps the event-stream path honest. */
      fullRelistMs: ms(DEFAULT_ENGINE_TIMINGS.fullRelistMs),
      /** kube-controller-manager --node-monitor-grace-period (50 s since v1.32). */
      nodeMonitorGraceMs: ms(DEFAULT_ENGINE_TIMINGS.nodeMonitorGraceMs),
      /** genericPlegRelistThreshold. */
      plegThresholdMs: ms(DEFAULT_ENGINE_TIMINGS.plegThresholdMs),
      /** DefaultTolerationSeconds for not-ready/unreachable NoExecute taints. */
      tolerationSeconds: z.coerce
        .number()
        .int()
        .min(0)
        .default(DEFAULT_ENGINE_TIMINGS.tolerationSeconds),
      /** ListContainerStats period (kubelet evictionMonitoringPeriod); 0 turns the stats loop off. */
      statsMs: z.coerce.number().int().min(0).default(KUBELET_DEFAULTS.evictionMonitoringPeriodMs),
      /** Deadline for each CRI call. */
      criTimeoutMs: ms(DEFAULT_CRI_TIMEOUT_MS),
    })
    .default({ ...DEFAULT_ENGINE_TIMINGS, criTimeoutMs: DEFAULT_CRI_TIMEOUT_MS }),
  /** The kubelet's crash-loop back-off maximum (KubeletCrashLoopBackOffMax), for every node and per node. */
  crashLoopBackOff: CrashLoopBackOffSchema,
  /**
   * Relist loops in worker threads: 'auto' (max(1, cores − 1) workers once 32 nodes are watched),
   * a number of workers, or 0 (every node in the main thread). Only for configured or connected
   * CRI endpoints without an API server's hints; the embedded simulator stays in-thread.
   */
  relistWorkers: z
    .union([z.literal('auto'), z.coerce.number().int().min(0).max(64)])
    .default('auto'),
  kubeconfig: z.string().optional(),
  /** Node IPs for pod hostIP(s) when the API server has no Node: `IP` or `NODE=IP`, comma-separated. */
  nodeIP: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      try {
        parseNodeIPs(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
      }
    }),
  /**
   * The kubelet version of nodes the API server does not describe: `VERSION` or `NODE=VERSION`,
   * comma-separated (PODSCOPE_KUBELET_VERSION, --kubelet-version; lib/kubelet/version.ts).
   */
  kubeletVersion: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      try {
        parseKubeletVersionSettings(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
      }
    }),
  /**
   * Cluster mode (README "Across many nodes"): with `natsUrl` the console runs no nodes of its own
   * and follows what `podscope agent`s publish on the bus; with `databaseUrl` (postgres://…) the
   * cluster timeline lives in PostgreSQL, shared by every replica (else in dataDir/cluster.db).
   */
  cluster: z
    .object({
      natsUrl: z
        .string()
        .regex(/^((nats|tls):\/\/)?[^\s/,]+:\d+(,((nats|tls):\/\/)?[^\s/,]+:\d+)*$/, {
          message: 'a NATS URL is nats://host:port (or tls://…), several comma-separated',
        })
        .optional(),
      databaseUrl: z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'only postgres:// (or postgresql://) URLs are supported')
        .optional(),
      /**
       * 'on': the console migrates the PostgreSQL schema at start (its role owns it); 'off': it
       * only checks the schema is current — its role reads and writes rows, and the owner runs
       * `podscope migrate` (deploy/kubernetes does).
       */
      databaseMigrate: z.enum(['on', 'off']).default('on'),
      name: z.string().min(1).max(63).default('default'),
      /**
       * The Lease through which replicas elect the one that watches the API server (with a
       * kubeconfig or in-cluster credentials; server/cluster/api-view.ts). Defaults in
       * server/runtime/cluster.ts: podscope-api-view, the pod's own namespace, 15 s.
       */
      lease: z
        .object({
          name: z
            .string()
            .regex(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, 'a Lease name is a DNS-1123 subdomain')
            .optional(),
          namespace: z
            .string()
            .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace is a DNS label')
            .optional(),
          durationMs: z.coerce.number().int().min(3_000).max(600_000).optional(),
        })
        .optional(),
    })
    .default({ name: 'default', databaseMigrate: 'on' }),
  /** Serve one recorded timeline file read-only instead of watching runtimes (podscope replay). */
  replayFile: z.string().optional(),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

function deepMerge(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      prev &&
      typeof prev === 'object' &&
      !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/** Loads and validates the configuration; throws ConfigError with every problem listed. */
export function loadConfig(env: Env = process.env, overrides: ConfigInput = {}): Config {
  let file: Record<string, unknown> = {};
  if (env.PODSCOPE_CONFIG) {
    const path = resolve(env.PODSCOPE_CONFIG);
    try {
      file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new ConfigError(
        `PODSCOPE_CONFIG ${path}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  const empty = NO_EMPTY.filter((name) => env[name] !== undefined && env[name]?.trim() === '');
  if (empty.length > 0) {
    throw new ConfigError(
      `invalid configuration:\n${empty.map((n) => `  ${n}: set but empty; unset it for the default or give a value`).join('\n')}`,
    );
  }
  const merged = deepMerge(deepMerge(file, fromEnv(env)), overrides);
  // One token, wherever it came from: PODSCOPE_TOKEN, else PODSCOPE_TOKEN_FILE, else the
  // configuration file's "token", else its "tokenFile". Everything that checks a request reads
  // this one value (getConfig).
  if (merged.token === undefined && typeof merged.tokenFile === 'string' && merged.tokenFile)
    merged.token = readTokenFile(resolve(merged.tokenFile));
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.auth === 'kubernetes') {
    // The API server decides who signs in; the shared token has no part in it.
    if (config.token)
      throw new ConfigError(
        "PODSCOPE_AUTH=kubernetes signs people in with the cluster's identities: unset PODSCOPE_TOKEN / PODSCOPE_TOKEN_FILE (one way of signing in at a time)",
      );
    if (!config.kubeconfig && !env.KUBERNETES_SERVICE_HOST)
      throw new ConfigError(
        'PODSCOPE_AUTH=kubernetes needs an API server to ask: set PODSCOPE_KUBECONFIG, or run in a pod (in-cluster credentials)',
      );
  } else if (!isLoopback(config.host) && !config.token) {
    throw new ConfigError(
      `binding to ${config.host} exposes Podscope beyond this machine: set PODSCOPE_TOKEN (or PODSCOPE_TOKEN_FILE, or "token" in PODSCOPE_CONFIG) to a secret of 16+ characters`,
    );
  }
  if (config.cluster.databaseUrl && !config.cluster.natsUrl)
    throw new ConfigError(
      "invalid configuration:\n  PODSCOPE_DATABASE_URL: the PostgreSQL timeline is cluster mode's; set PODSCOPE_NATS_URL too",
    );
  if (config.cluster.natsUrl && config.nodes.length > 0)
    throw new ConfigError(
      'invalid configuration:\n  PODSCOPE_CRI: a cluster-mode console (PODSCOPE_NATS_URL) watches no endpoints itself; run `podscope agent --cri …` on each node',
    );
  const names = new Set<string>();
  for (const n of config.nodes) {
    if (names.has(n.name))
      throw new ConfigError(`invalid configuration:\n  nodes: duplicate node name "${n.name}"`);
    names.add(n.name);
  }
  return config;
}

const CONFIG_KEY = Symbol.for('podscope.config');
type ConfigSlot = { [CONFIG_KEY]?: Config };

/**
 * The process's configuration, parsed once from process.env (and PODSCOPE_CONFIG) on first use
 * and shared by everything in the process — the request proxy, routes, the runtime — even where
 * Next.js bundles this module more than once. Throws ConfigError when the configuration is invalid.
 */
export function getConfig(): Config {
  const g = globalThis as ConfigSlot;
  g[CONFIG_KEY] ??= loadConfig(process.env);
  return g[CONFIG_KEY];
}
