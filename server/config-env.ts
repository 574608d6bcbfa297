/**
 * The environment's part of the configuration (config.ts merges it between the file and the
 * CLI's flags): which PODSCOPE_* variable sets which field, the token and session-secret files,
 * the variables that may not be set empty, and the small languages some variables speak — node
 * specs (`[NAME=]ENDPOINT[#lab]`) and per-node restart periods (`MS` / `NODE=MS`). Values pass
 * on as written; config.ts's schema checks them.
 */
import { readFileSync } from 'node:fs';
import type { NodeEndpoint } from './config';

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `[NAME=]ENDPOINT` → a node endpoint; the name defaults to the socket's base name or host. */
export function parseNodeSpec(spec: string, index = 0): NodeEndpoint {
  const eq = spec.indexOf('=');
  const hasName = eq > 0 && !spec.slice(0, eq).includes('/');
  const raw = (hasName ? spec.slice(eq + 1) : spec).trim();
  const lab = raw.endsWith('#lab');
  const endpoint = lab ? raw.slice(0, -4) : raw;
  const name = hasName ? spec.slice(0, eq).trim() : defaultNodeName(endpoint, index);
  return { name, endpoint, lab };
}

function defaultNodeName(endpoint: string, index: number): string {
  if (endpoint.startsWith('tcp://')) return `node-${index + 1}`;
  const path = endpoint.replace(/^unix:\/\//, '');
  const base = path.split('/').filter(Boolean).pop() ?? '';
  const stem = base.replace(/\.sock$/, '').replace(/[^a-zA-Z0-9.-]/g, '-');
  return stem && stem !== 'containerd' && stem !== 'crio' ? stem : `node-${index + 1}`;
}

export function fromEnv(env: Env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (path: string[], value: unknown) => {
    let target = out;
    for (const key of path.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    const last = path[path.length - 1];
    if (last) target[last] = value;
  };
  const map: [string, string[]][] = [
    ['PODSCOPE_HOST', ['host']],
    ['PODSCOPE_PORT', ['port']],
    ['PODSCOPE_DATA_DIR', ['dataDir']],
    ['PODSCOPE_SIM_NODES', ['sim', 'nodes']],
    ['PODSCOPE_SIM_SPEED', ['sim', 'speed']],
    ['PODSCOPE_SIM_SEED', ['sim', 'seed']],
    ['PODSCOPE_SIM_SOCKET_DIR', ['sim', 'socketDir']],
    ['PODSCOPE_RELIST_MS', ['periods', 'relistMs']],
    ['PODSCOPE_NODE_STATUS_MS', ['periods', 'nodeStatusMs']],
    ['PODSCOPE_FULL_RELIST_MS', ['periods', 'fullRelistMs']],
    ['PODSCOPE_NODE_MONITOR_GRACE_MS', ['periods', 'nodeMonitorGraceMs']],
    ['PODSCOPE_PLEG_THRESHOLD_MS', ['periods', 'plegThresholdMs']],
    ['PODSCOPE_TOLERATION_SECONDS', ['periods', 'tolerationSeconds']],
    ['PODSCOPE_CRI_TIMEOUT_MS', ['periods', 'criTimeoutMs']],
    ['PODSCOPE_STATS_MS', ['periods', 'statsMs']],
    ['PODSCOPE_RELIST_WORKERS', ['relistWorkers']],
    ['PODSCOPE_RETENTION_MAX_AGE_MS', ['retention', 'maxAgeMs']],
    ['PODSCOPE_RETENTION_MAX_BYTES', ['retention', 'maxBytes']],
    ['PODSCOPE_TRPC_MAX_BATCH', ['limits', 'trpcMaxBatch']],
    ['PODSCOPE_RANGE_MAX_BYTES', ['limits', 'rangeMaxBytes']],
    ['PODSCOPE_IMPORT_CONCURRENCY', ['limits', 'importConcurrency']],
    ['PODSCOPE_SAVED_MAX_COUNT', ['saved', 'maxCount']],
    ['PODSCOPE_SAVED_MAX_BYTES', ['saved', 'maxBytes']],
    ['PODSCOPE_SAVED_MAX_AGE_MS', ['saved', 'maxAgeMs']],
    ['PODSCOPE_KUBECONFIG', ['kubeconfig']],
    ['PODSCOPE_NODE_IP', ['nodeIP']],
    ['PODSCOPE_KUBELET_VERSION', ['kubeletVersion']],
    ['PODSCOPE_REPLAY_FILE', ['replayFile']],
    ['PODSCOPE_NATS_URL', ['cluster', 'natsUrl']],
    ['PODSCOPE_DATABASE_URL', ['cluster', 'databaseUrl']],
    ['PODSCOPE_DATABASE_MIGRATE', ['cluster', 'databaseMigrate']],
    ['PODSCOPE_CLUSTER', ['cluster', 'name']],
    ['PODSCOPE_LEASE_NAME', ['cluster', 'lease', 'name']],
    ['PODSCOPE_LEASE_NAMESPACE', ['cluster', 'lease', 'namespace']],
    ['PODSCOPE_LEASE_DURATION_MS', ['cluster', 'lease', 'durationMs']],
    ['PODSCOPE_AUTH', ['auth']],
  ];
  for (const [name, path] of map) {
    const v = env[name];
    if (v !== undefined && v !== '') set(path, v);
  }
  if (env.PODSCOPE_SIM_DEMO !== undefined)
    set(['sim', 'demo'], env.PODSCOPE_SIM_DEMO !== '0' && env.PODSCOPE_SIM_DEMO !== 'false');
  if (env.PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS)
    out.crashLoopBackOff = parseRestartPeriods(env.PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS);
  if (env.PODSCOPE_CRI)
    out.nodes = env.PODSCOPE_CRI.split(',')
      .filter(Boolean)
      .map((s, i) => parseNodeSpec(s, i));
  if (env.PODSCOPE_ALLOW_ENDPOINTS)
    out.allowEndpoints = env.PODSCOPE_ALLOW_ENDPOINTS.split(',').filter(Boolean);
  if (env.PODSCOPE_ALLOWED_HOSTS)
    out.allowedHosts = env.PODSCOPE_ALLOWED_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  if (env.PODSCOPE_TOKEN) out.token = env.PODSCOPE_TOKEN;
  else if (env.PODSCOPE_TOKEN_FILE) out.token = readTokenFile(env.PODSCOPE_TOKEN_FILE);
  if (env.PODSCOPE_SESSION_SECRET) out.sessionSecret = env.PODSCOPE_SESSION_SECRET;
  else if (env.PODSCOPE_SESSION_SECRET_FILE)
    out.sessionSecret = readTokenFile(env.PODSCOPE_SESSION_SECRET_FILE, 'session secret');
  if (env.PODSCOPE_AUTH_TRUSTED_PROXIES)
    out.trustedProxies = env.PODSCOPE_AUTH_TRUSTED_PROXIES.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  return out;
}

/**
 * Variables that must not be set to the empty string: an empty bind address or token would
 * otherwise mean one thing to validation (unset) and another to whoever reads it next.
 */
/** Variables that may not be set to an empty value. */
export const NO_EMPTY = [
  'PODSCOPE_HOST',
  'PODSCOPE_PORT',
  'PODSCOPE_TOKEN',
  'PODSCOPE_TOKEN_FILE',
  'PODSCOPE_AUTH',
  'PODSCOPE_SESSION_SECRET',
  'PODSCOPE_SESSION_SECRET_FILE',
];

/** A token or secret from a file, trimmed; unreadable or empty is a ConfigError. */
export function readTokenFile(path: string, what = 'token'): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : 'unreadable';
    throw new ConfigError(`the ${what} file ${path} cannot be read (${code})`);
  }
  const token = text.trim();
  if (!token) throw new ConfigError(`the ${what} file ${path} is empty`);
  return token;
}

/**
 * PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: `MS` for every node and/or `NODE=MS`, comma-separated.
 * Values are passed on as written; the schema checks the range.
 */
export function parseRestartPeriods(value: string): {
  maxContainerRestartPeriodMs?: string;
  byNode: Record<string, string>;
} {
  const out: { maxContainerRestartPeriodMs?: string; byNode: Record<string, string> } = {
    byNode: {},
  };
  for (const raw of value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const eq = raw.indexOf('=');
    const node = eq >= 0 ? raw.slice(0, eq).trim() : '';
    const ms = (eq >= 0 ? raw.slice(eq + 1) : raw).trim();
    if (!/^\d+$/.test(ms) || (eq >= 0 && !node))
      throw new ConfigError(
        `PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: "${raw}" is not MS or NODE=MS (milliseconds, 1000–300000)`,
      );
    if (node ? node in out.byNode : out.maxContainerRestartPeriodMs !== undefined)
      throw new ConfigError(
        `PODSCOPE_MAX_CONTAINER_RESTART_PERIOD_MS: ${node || 'every node'} is given twice ("${raw}")`,
      );
    if (node) out.byNode[node] = ms;
    else out.maxContainerRestartPeriodMs = ms;
  }
  return out;
}

/** Whether a host name or address is this machine's loopback (here, zod-free: the agent needs it). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '::1' ||
    h === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(h)
  );
}
