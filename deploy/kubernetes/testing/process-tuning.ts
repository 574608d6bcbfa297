/**
 * How the manifests tune Podscope's processes: the environment variables of the agent's and the
 * console's containers that the runtimes under Podscope read rather than Podscope itself —
 * Node's NODE_OPTIONS (V8's heap sizes, its thread pool) and glibc's GLIBC_TUNABLES (the
 * allocator) — as the base manifests render them. `npm run bench` runs the agent with exactly
 * these (bench/suites/agent.ts), so agent_rss_mb and agent_cpu_pct measure the process a node
 * gets, and the cluster suite's consoles with the Deployment's V8 thread pool
 * (bench/suites/cluster.ts).
 */
import { join } from 'node:path';
import { podSpecOf, renderKustomization } from './render';

/** The variables read by node and glibc, not by Podscope's configuration (server/config.ts). */
export const PROCESS_TUNING_VARIABLES = ['NODE_OPTIONS', 'GLIBC_TUNABLES'] as const;

export type ProcessTuning = Partial<Record<(typeof PROCESS_TUNING_VARIABLES)[number], string>>;

/** The workloads Podscope's manifests run, and the container of each that runs Podscope. */
const WORKLOADS = {
  agent: { kind: 'DaemonSet', name: 'podscope-agent', container: 'agent' },
  console: { kind: 'Deployment', name: 'podscope-console', container: 'console' },
} as const;

interface Container {
  name: string;
  env?: { name: string; value?: string }[];
}

/** The workload container's process tuning in deploy/kubernetes (literal values; unset ones absent). */
export function processTuning(root: string, workload: keyof typeof WORKLOADS): ProcessTuning {
  const { kind, name, container } = WORKLOADS[workload];
  const objects = renderKustomization(join(root, 'deploy', 'kubernetes'));
  const object = objects.find((o) => o.kind === kind && o.metadata.name === name);
  const containers = (podSpecOf(object ?? ({} as never))?.containers ?? []) as Container[];
  const found = containers.find((c) => c.name === container);
  if (!found)
    throw new Error(`deploy/kubernetes renders no ${name} ${kind} with a ${container} container`);
  const out: ProcessTuning = {};
  for (const variable of PROCESS_TUNING_VARIABLES) {
    const value = found.env?.find((e) => e.name === variable)?.value;
    if (value !== undefined) out[variable] = value;
  }
  return out;
}

/** One V8 option's `--name=value` in a NODE_OPTIONS string, or undefined. */
export function nodeOption(nodeOptions: string | undefined, name: string): string | undefined {
  return (nodeOptions ?? '')
    .split(/\s+/)
    .find((o) => o === `--${name}` || o.startsWith(`--${name}=`));
}
