/**
 * How the agent DaemonSet tunes the agent's process: the environment variables of its `agent`
 * container that the runtimes under Podscope read rather than Podscope itself — Node's
 * NODE_OPTIONS (V8's heap sizes) and glibc's GLIBC_TUNABLES (the allocator) — as the base
 * manifests render them. `npm run bench` runs the agent with exactly these
 * (bench/suites/agent.ts), so agent_rss_mb and agent_cpu_pct measure the process a node gets.
 */
import { join } from 'node:path';
import { podSpecOf, renderKustomization } from './render';

/** The variables read by node and glibc, not by Podscope's configuration (server/agent/config.ts). */
export const PROCESS_TUNING_VARIABLES = ['NODE_OPTIONS', 'GLIBC_TUNABLES'] as const;

export type AgentProcessEnv = Partial<Record<(typeof PROCESS_TUNING_VARIABLES)[number], string>>;

interface Container {
  name: string;
  env?: { name: string; value?: string }[];
}

/** The agent container's process tuning in deploy/kubernetes (literal values; unset ones absent). */
export function agentProcessEnv(root: string): AgentProcessEnv {
  const objects = renderKustomization(join(root, 'deploy', 'kubernetes'));
  const ds = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.name === 'podscope-agent');
  const containers = (podSpecOf(ds ?? ({} as never))?.containers ?? []) as Container[];
  const agent = containers.find((c) => c.name === 'agent');
  if (!agent)
    throw new Error('deploy/kubernetes renders no podscope-agent DaemonSet with an agent');
  const out: AgentProcessEnv = {};
  for (const name of PROCESS_TUNING_VARIABLES) {
    const value = agent.env?.find((e) => e.name === name)?.value;
    if (value !== undefined) out[name] = value;
  }
  return out;
}
