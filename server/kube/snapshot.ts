/**
 * Drift for `podscope snapshot --kubeconfig PATH`: one list of each collection (no watch), then
 * the same comparison the live console makes. With no history, a disagreement that has no
 * timestamp of its own cannot be aged, so it counts as drift (lib/drift classify).
 */
import { detectClusterDrift } from '@/lib/drift/detect';
import { formatExplanation } from '@/lib/i18n/format';
import type { Locale } from '@/lib/i18n/locales';
import type { DriftOptions } from '@/lib/drift/options';
import type { ClusterDrift, Drift } from '@/lib/drift/types';
import type { NodeView } from '@/lib/timeline/state';
import { loadKubeConfig, serverOf, type KubeConfigSource } from './config';
import { listAll } from './list';
import { describeError } from './reflector';
import { kubeResources } from './resources';

export interface SnapshotDrift extends ClusterDrift {
  /** The API server compared against. */
  server: string;
  /** Epoch ms the comparison was made. */
  comparedAt: number;
}

export interface SnapshotDriftOptions {
  now?: number;
  drift?: Partial<DriftOptions>;
  /** Give up on the API server after this long (default 15 s). */
  timeoutMs?: number;
}

export class SnapshotDriftError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SnapshotDriftError';
  }
}

/**
 * Lists Nodes, Pods and node Leases from the API server the kubeconfig names and compares them
 * with `nodes` (ClusterState.nodes from the engine). Returns drift per pod uid and node name.
 */
export async function computeSnapshotDrift(
  kubeconfig: string | KubeConfigSource,
  nodes: Readonly<Record<string, NodeView>>,
  options: SnapshotDriftOptions = {},
): Promise<SnapshotDrift> {
  const kc = loadKubeConfig(typeof kubeconfig === 'string' ? { kubeconfig } : kubeconfig);
  const server = serverOf(kc);
  const specs = kubeResources(kc);
  const abort = new AbortController();
  const timeoutMs = options.timeoutMs ?? 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new SnapshotDriftError(`API server ${server}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const list = async <T extends object>(name: string, run: () => Promise<{ items: T[] }>) => {
    try {
      return (await run()).items;
    } catch (err) {
      throw new SnapshotDriftError(
        `API server ${server}: listing ${name} failed: ${describeError(err)}`,
        {
          cause: err,
        },
      );
    }
  };
  try {
    const [apiNodes, pods, leases] = await Promise.race([
      Promise.all([
        list('nodes', () => listAll(specs.nodes, 500, abort.signal)),
        list('pods', () => listAll(specs.pods, 500, abort.signal)),
        list('leases', () => listAll(specs.leases, 500, abort.signal)),
      ]),
      deadline,
    ]);
    const now = options.now ?? Date.now();
    const drift = detectClusterDrift({
      api: { pods, nodes: apiNodes, leases },
      nodes,
      now,
      options: options.drift,
    });
    return { ...drift, server, comparedAt: now };
  } finally {
    clearTimeout(timer);
  }
}

/** The nodes with `drift` set on every node and pod ([] where the two sides agree), for JSON output. */
export function withDrift(
  nodes: Readonly<Record<string, NodeView>>,
  drift: ClusterDrift,
): Record<string, NodeView> {
  const out: Record<string, NodeView> = {};
  for (const [name, node] of Object.entries(nodes)) {
    const pods: NodeView['pods'] = {};
    for (const [uid, pod] of Object.entries(node.pods))
      pods[uid] = { ...pod, drift: drift.pods[uid] ?? [] };
    out[name] = { ...node, pods, drift: drift.nodes[name] ?? [] };
  }
  return out;
}

/** Drifts for JSON output, each with its explanation rendered as `message` (for humans and jq). */
export function driftJson(
  list: readonly Drift[] | undefined,
  locale: Locale = 'en',
): (Drift & { message: string })[] {
  return (list ?? []).map((d) => ({ ...d, message: formatExplanation(d.why, locale) }));
}
