/**
 * Podscope's configuration: parsed once, validated with zod, failing fast with a readable message.
 *
 * Sources, later ones winning: defaults → a JSON file (PODSCOPE_CONFIG) → environment variables →
 * explicit overrides (the CLI's flags). Every period is in milliseconds unless the name says so.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { parseNodeIPs } from '@/server/engine/host-ips';

const endpointPattern = /^(unix:\/\/\/|tcp:\/\/|\/)/;

export const NodeEndpointSchema = z.object({
  name: z.string().min(1).max(253),
  endpoint: z.string().regex(endpointPattern, 'must be unix:///path, tcp://host:port or /path'),
  /** A lab endpoint may be mutated by the driver (scenarios); others are observed read-only. */
  lab: z.boolean().default(false),
});
export type NodeEndpoint = z.infer<typeof NodeEndpointSchema>;

const ms = (def: number) => z.coerce.number().int().positive().default(def);

export const ConfigSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Required when host is not loopback. Compared in constant time. */
  token: z.string().min(16, 'the token must be at least 16 characters').optional(),
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
      /** Deadline for each CRI call. */
      criTimeoutMs: ms(10_000),
    })
    .default({ ...DEFAULT_ENGINE_TIMINGS, criTimeoutMs: 10_000 }),
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
  /** Serve one recorded timeline file read-only instead of watching runtimes (podscope replay). */
  replayFile: z.string().optional(),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

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

type Env = Readonly<Record<string, string | undefined>>;

function fromEnv(env: Env): Record<string, unknown> {
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
    ['PODSCOPE_RETENTION_MAX_AGE_MS', ['retention', 'maxAgeMs']],
    ['PODSCOPE_RETENTION_MAX_BYTES', ['retention', 'maxBytes']],
    ['PODSCOPE_KUBECONFIG', ['kubeconfig']],
    ['PODSCOPE_NODE_IP', ['nodeIP']],
    ['PODSCOPE_REPLAY_FILE', ['replayFile']],
  ];
  for (const [name, path] of map) {
    const v = env[name];
    if (v !== undefined && v !== '') set(path, v);
  }
  if (env.PODSCOPE_SIM_DEMO !== undefined)
    set(['sim', 'demo'], env.PODSCOPE_SIM_DEMO !== '0' && env.PODSCOPE_SIM_DEMO !== 'false');
  if (env.PODSCOPE_CRI)
    out.nodes = env.PODSCOPE_CRI.split(',')
      .filter(Boolean)
      .map((s, i) => parseNodeSpec(s, i));
  if (env.PODSCOPE_ALLOW_ENDPOINTS)
    out.allowEndpoints = env.PODSCOPE_ALLOW_ENDPOINTS.split(',').filter(Boolean);
  const token =
    env.PODSCOPE_TOKEN ??
    (env.PODSCOPE_TOKEN_FILE ? readFileSync(env.PODSCOPE_TOKEN_FILE, 'utf8').trim() : undefined);
  if (token) out.token = token;
  return out;
}

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

export function isLoopback(host: string): boolean {
  return (
    host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
  );
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
  const merged = deepMerge(deepMerge(file, fromEnv(env)), overrides);
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (!isLoopback(config.host) && !config.token) {
    throw new ConfigError(
      `binding to ${config.host} exposes Podscope beyond this machine: set PODSCOPE_TOKEN (or PODSCOPE_TOKEN_FILE) to a secret of 16+ characters`,
    );
  }
  const names = new Set<string>();
  for (const n of config.nodes) {
    if (names.has(n.name))
      throw new ConfigError(`invalid configuration:\n  nodes: duplicate node name "${n.name}"`);
    names.add(n.name);
  }
  return config;
}
