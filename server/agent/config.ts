/**
 * The agent's configuration: flags first, then environment variables (a DaemonSet sets env from
 * the downward API), then defaults. Every value is checked; a bad one is a usage error naming it.
 *
 *   --cri [NAME=]ENDPOINT   PODSCOPE_CRI           (NAME: PODSCOPE_NODE_NAME, else the host name)
 *   --nats URL              PODSCOPE_NATS_URL
 *   --cluster NAME          PODSCOPE_CLUSTER       (default "default")
 *   --listen HOST:PORT      PODSCOPE_AGENT_LISTEN  (default 127.0.0.1:9464; /metrics, /healthz)
 *   --outbox-bytes N        PODSCOPE_AGENT_OUTBOX_BYTES (default 16 MiB)
 *   --heartbeat DURATION    PODSCOPE_AGENT_HEARTBEAT_MS (default 5 s)
 *   --relist DURATION       PODSCOPE_RELIST_MS     (default the kubelet's 1 s)
 *   --kubelet-version V     PODSCOPE_KUBELET_VERSION (the node's kubelet, e.g. 1.30, when the API
 *                           server's Node does not report it; default: the newest minor's rules)
 */
import { parseKubeletVersion } from '@/lib/kubelet/version';
import { isLoopback, parseNodeSpec } from '@/server/config-env';
import { DEFAULT_CLUSTER, checkClusterName, checkNodeName } from '@/server/cluster/names';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { DEFAULT_TIMEOUT_MS } from '@/server/cri/limits';
import { UsageError } from '@/server/cli/command';
import { parse, parseDuration } from '@/server/cli/lib/args';
import { defaultNodeName, type AgentConfig } from './agent';
import { DEFAULT_OUTBOX_BYTES } from './outbox';

export const DEFAULT_AGENT_LISTEN = { host: '127.0.0.1', port: 9464 };
export const DEFAULT_HEARTBEAT_MS = 5_000;
export const DEFAULT_STATE_MS = 10_000;

type Env = Readonly<Record<string, string | undefined>>;

export function parseListen(text: string, flag: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535)
    throw new UsageError(`${flag} ${text}: give HOST:PORT, e.g. 127.0.0.1:9464`);
  return { host: (m[1] ?? m[2]) as string, port };
}

export function agentConfig(
  args: string[],
  env: Env = process.env,
): AgentConfig & { loopback: boolean } {
  const { values, positionals } = parse(args, {
    cri: { type: 'string' },
    nats: { type: 'string' },
    cluster: { type: 'string' },
    listen: { type: 'string' },
    'outbox-bytes': { type: 'string' },
    heartbeat: { type: 'string' },
    relist: { type: 'string' },
    'kubelet-version': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const cri = values.cri ?? env.PODSCOPE_CRI;
  if (!cri) throw new UsageError('give --cri [NAME=]ENDPOINT (or PODSCOPE_CRI)');
  if (cri.includes(','))
    throw new UsageError(`--cri ${cri}: an agent watches one endpoint (its own node's)`);
  const spec = parseNodeSpec(cri);
  const named = /^[^/=]+=/.test(cri);
  const node = named ? spec.name : (env.PODSCOPE_NODE_NAME ?? defaultNodeName());
  if (!/^(unix:\/\/\/|tcp:\/\/|\/)/.test(spec.endpoint))
    throw new UsageError(
      `--cri ${spec.endpoint}: an endpoint is unix:///path, /path or tcp://host:port`,
    );
  const nats = values.nats ?? env.PODSCOPE_NATS_URL;
  if (!nats) throw new UsageError('give --nats URL (or PODSCOPE_NATS_URL)');
  if (!/^(nats|tls):\/\/[^\s]+$/.test(nats) && !/^[^\s/]+:\d+$/.test(nats))
    throw new UsageError(`--nats ${nats}: a NATS URL is nats://host:port (or tls://…)`);
  const cluster = values.cluster ?? env.PODSCOPE_CLUSTER ?? DEFAULT_CLUSTER;
  try {
    checkNodeName(node);
    checkClusterName(cluster);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const listenText = values.listen ?? env.PODSCOPE_AGENT_LISTEN;
  const listen = listenText ? parseListen(listenText, '--listen') : DEFAULT_AGENT_LISTEN;
  const bytesText = values['outbox-bytes'] ?? env.PODSCOPE_AGENT_OUTBOX_BYTES;
  const outboxBytes = bytesText === undefined ? DEFAULT_OUTBOX_BYTES : Number(bytesText);
  if (!Number.isInteger(outboxBytes) || outboxBytes < 4096)
    throw new UsageError(`--outbox-bytes ${bytesText}: a whole number of bytes, at least 4096`);
  const heartbeatMs = values.heartbeat
    ? parseDuration(values.heartbeat, '--heartbeat')
    : Number(env.PODSCOPE_AGENT_HEARTBEAT_MS ?? DEFAULT_HEARTBEAT_MS);
  if (!Number.isFinite(heartbeatMs) || heartbeatMs < 100)
    throw new UsageError(`--heartbeat: at least 100ms`);
  const relistMs = values.relist
    ? parseDuration(values.relist, '--relist')
    : Number(env.PODSCOPE_RELIST_MS ?? DEFAULT_ENGINE_TIMINGS.relistMs);
  if (!Number.isFinite(relistMs) || relistMs < 100)
    throw new UsageError(`--relist: at least 100ms`);
  const kubeletVersion = values['kubelet-version'] ?? env.PODSCOPE_KUBELET_VERSION;
  if (kubeletVersion !== undefined && !parseKubeletVersion(kubeletVersion))
    throw new UsageError(
      `--kubelet-version ${kubeletVersion}: a kubelet version such as 1.30 or v1.30.4`,
    );
  return {
    node,
    endpoint: spec.endpoint,
    ...(kubeletVersion ? { kubeletVersion: kubeletVersion.trim() } : {}),
    nats,
    cluster,
    listen,
    loopback: isLoopback(listen.host),
    outboxBytes,
    heartbeatMs,
    stateMs: Math.max(DEFAULT_STATE_MS, heartbeatMs),
    timings: { ...DEFAULT_ENGINE_TIMINGS, relistMs },
    criTimeoutMs: DEFAULT_TIMEOUT_MS,
  };
}
