/**
 * `podscope snapshot --cri [NAME=]ENDPOINT … [--json]`: read each runtime once and print what the
 * kubelet would say about every node and pod. The derivation is the engine's own (one relist
 * into an in-memory timeline), so the CLI and the console cannot disagree.
 *
 * `podscope snapshot --server URL [--json]`: the same document from a running console (any
 * replica), read through its `cluster.snapshot` query; a token from --token or PODSCOPE_TOKEN.
 */
import type { V1NodeCondition, V1PodStatus } from '@kubernetes/client-node';
import { formatExplanation } from '@/lib/i18n/format';
import { writerOf, writersOf, type Writer } from '@/lib/kubelet/writers';
import {
  DEFAULT_KUBELET_VERSION,
  explainKubeletVersion,
  type KubeletVersion,
  type KubeletVersionSettings,
} from '@/lib/kubelet/version';
import { toJsonValue } from '@/lib/timeline/codec';
import type { ClusterState, NodeView, PodView } from '@/lib/timeline/state';
import type { NodeEndpoint } from '@/server/config';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { computeSnapshotDrift } from '@/server/kube';
import { driftJson } from '@/server/kube/snapshot';
import { openStore } from '@/server/timeline-db';
import { createTRPCClient, httpLink } from '@trpc/client';
import { transformer } from '@/lib/timeline/codec';
import type { AppRouter } from '@/server/trpc/root';
import { UsageError, type Command } from '../command';
import { criNodes, kubeletVersions, parse, parseDuration } from '../lib/args';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

const usage = `Usage: podscope snapshot --cri [NAME=]ENDPOINT [--cri …] [--json] [--timeout 10s]
       podscope snapshot --server URL [--json] [--token TOKEN]

Reads each CRI endpoint once (Version, Status, ListPodSandbox, ListContainers, then
PodSandboxStatus/ContainerStatus for every record) and prints the kubelet's view: node
conditions, and per pod its phase, conditions and container statuses with the reason for each.

  --cri [NAME=]ENDPOINT   unix:///path, /path or tcp://host:port (repeatable)
  --json                  one JSON document on stdout (default: a readable summary)
  --timeout DURATION      deadline for each CRI call (default 10s)
  --kubeconfig PATH       also read the API server and add "drift" to each pod and node
  --kubelet-version [NODE=]VERSION
                          the kubelet whose rules to apply (1.30 for every node, NODE=1.29 for
                          one; repeatable; env PODSCOPE_KUBELET_VERSION); default the newest
  --server URL            read a running console instead (http://127.0.0.1:3000); the same
                          document, every node it shows
  --token TOKEN           the console's access token (default: PODSCOPE_TOKEN)

Exit status: 0 on success; 1 with a one-line error when an endpoint cannot be read.`;

export interface SnapshotPod {
  metadata: { name: string; namespace: string; uid: string };
  status: Pick<
    V1PodStatus,
    'phase' | 'conditions' | 'initContainerStatuses' | 'containerStatuses'
  > &
    Partial<Pick<V1PodStatus, 'podIP' | 'podIPs' | 'startTime' | 'qosClass'>>;
  why: { phase: string; conditions: Record<string, string>; containers: Record<string, string> };
  /**
   * Which upstream component writes each value the why explains (lib/kubelet/writers.ts):
   * kubelet, nodeLifecycleController, taintEvictionController, scheduler, apiServerAdmission.
   */
  writers: {
    phase?: Writer;
    conditions: Record<string, Writer>;
    containers: Record<string, Writer>;
  };
  specSource: PodView['specSource'];
  /** With --kubeconfig: where the API server and the runtime disagree (empty: they agree). */
  drift?: ReturnType<typeof driftJson>;
  /** `podscope run`: spec fields the kubelet stand-in does not implement. */
  unsupported?: string[];
}

export interface SnapshotNode {
  name: string;
  endpoint: string;
  runtime: { name: string; version: string; apiVersion: string };
  conditions: V1NodeCondition[];
  why: Record<string, string>;
  /** Which upstream component writes each condition: kubelet or nodeLifecycleController. */
  writers: Record<string, Writer>;
  /**
   * The kubelet version whose rules and feature-gate defaults were applied, and where it came
   * from: the API server's Node (`api-server`), --kubelet-version (`flag`), or the newest minor
   * (`default`); `reported` is what the source said when it is not `value` itself.
   */
  kubeletVersion: KubeletVersion & { why: string };
  pods: SnapshotPod[];
  drift?: ReturnType<typeof driftJson>;
}

export async function takeSnapshot(
  nodes: NodeEndpoint[],
  timeoutMs: number,
  kubeconfig?: string,
  kubeletVersions?: KubeletVersionSettings,
): Promise<{ nodes: SnapshotNode[] }> {
  const store = openStore({ path: ':memory:' });
  const engine = new Engine({
    store: engineStore(store),
    timings: DEFAULT_ENGINE_TIMINGS,
    ...(kubeletVersions ? { kubeletVersions } : {}),
    dial: (endpoint) => criRuntime(endpoint, { timeoutMs }),
    log: () => undefined,
  });
  try {
    const watchers = nodes.map((n) => engine.addNode(n.name, n.endpoint, n.lab, false));
    const results = await Promise.allSettled(watchers.map((w) => w.once()));
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        const n = nodes[i];
        const reason = r.reason instanceof Error ? r.reason.message : String(r.reason);
        throw new Error(`cannot read node ${n?.name ?? i} at ${n?.endpoint ?? '?'}: ${reason}`);
      }
    });
    const state = engine.snapshot();
    const doc = snapshotDocument(state, nodes);
    if (kubeconfig) {
      const drift = await computeSnapshotDrift(kubeconfig, state.nodes, { now: Date.now() });
      for (const node of doc.nodes) {
        node.drift = driftJson(drift.nodes[node.name]);
        for (const pod of node.pods) pod.drift = driftJson(drift.pods[pod.metadata.uid]);
      }
    }
    return doc;
  } finally {
    await engine.stop();
    store.close();
  }
}

/** The snapshot JSON contract for these nodes of a derived state (also `podscope run`'s). */
export function snapshotDocument(
  state: ClusterState,
  nodes: readonly NodeEndpoint[],
): { nodes: SnapshotNode[] } {
  return { nodes: nodes.map((n) => snapshotNode(state, n)) };
}

/** The snapshot document of a running console, read through its tRPC `cluster.snapshot` query. */
export async function takeServerSnapshot(
  server: string,
  options: { token?: string; timeoutMs: number },
): Promise<{ nodes: SnapshotNode[] }> {
  let base: URL;
  try {
    base = new URL(server);
  } catch {
    throw new UsageError(`--server ${server}: give the console's URL, e.g. http://127.0.0.1:3000`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new UsageError(`--server ${server}: an http:// or https:// URL`);
  const url = new URL('api/trpc', base.href.endsWith('/') ? base : `${base.href}/`).href;
  const client = createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url,
        transformer,
        headers: () => (options.token ? { authorization: `Bearer ${options.token}` } : {}),
        fetch: (input, init) =>
          fetch(input, { ...init, signal: AbortSignal.timeout(options.timeoutMs) }),
      }),
    ],
  });
  let state: ClusterState;
  try {
    state = await client.cluster.snapshot.query();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot read the console at ${base.origin}: ${why.split('\n')[0] ?? why}`);
  }
  const names = Object.keys(state.nodes).sort();
  return snapshotDocument(
    state,
    names.map((name) => ({ name, endpoint: state.nodes[name]?.endpoint ?? '', lab: false })),
  );
}

function snapshotNode(state: ClusterState, n: NodeEndpoint): SnapshotNode {
  const view: NodeView | undefined = state.nodes[n.name];
  const why: Record<string, string> = {};
  for (const [type, e] of Object.entries(view?.why ?? {})) why[type] = formatExplanation(e);
  const pods = Object.values(view?.pods ?? {}).sort(
    (a, b) =>
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name) ||
      a.uid.localeCompare(b.uid),
  );
  return {
    name: n.name,
    endpoint: view?.endpoint ?? n.endpoint,
    runtime: view?.runtime ?? { name: '', version: '', apiVersion: '' },
    conditions: view?.conditions ?? [],
    why,
    writers: writersOf(view?.why ?? {}),
    kubeletVersion: snapshotKubelet(view?.kubelet),
    pods: pods.map(snapshotPod),
  };
}

/** A recording made before nodes carried their kubelet version was derived with the newest rules. */
function snapshotKubelet(v: KubeletVersion | undefined): SnapshotNode['kubeletVersion'] {
  const version = v ?? { ...DEFAULT_KUBELET_VERSION };
  return { ...version, why: formatExplanation(explainKubeletVersion(version)) };
}

function snapshotPod(p: PodView): SnapshotPod {
  const text = (m: Record<string, Parameters<typeof formatExplanation>[0]>) =>
    Object.fromEntries(Object.entries(m).map(([k, e]) => [k, formatExplanation(e)]));
  const s = p.status;
  return {
    metadata: { name: p.name, namespace: p.namespace, uid: p.uid },
    status: {
      phase: s.phase,
      conditions: s.conditions ?? [],
      initContainerStatuses: s.initContainerStatuses ?? [],
      containerStatuses: s.containerStatuses ?? [],
      ...(s.podIP ? { podIP: s.podIP } : {}),
      ...(s.podIPs ? { podIPs: s.podIPs } : {}),
      ...(s.startTime ? { startTime: s.startTime } : {}),
      ...(s.qosClass ? { qosClass: s.qosClass } : {}),
    },
    why: {
      phase: formatExplanation(p.why.phase),
      conditions: text(p.why.conditions),
      containers: text(p.why.containers),
    },
    writers: {
      ...(writerOf(p.why.phase) ? { phase: writerOf(p.why.phase) } : {}),
      conditions: writersOf(p.why.conditions),
      containers: writersOf(p.why.containers),
    },
    specSource: p.specSource,
    ...(p.spec.unsupported?.length ? { unsupported: [...p.spec.unsupported] } : {}),
  };
}

export function snapshotSummary(doc: { nodes: SnapshotNode[] }): string {
  const lines: string[] = [];
  for (const n of doc.nodes) {
    const ready = n.conditions.find((c) => c.type === 'Ready');
    lines.push(
      `NODE ${n.name}  ${n.runtime.name} ${n.runtime.version}  Ready=${ready?.status ?? '?'}  (${n.endpoint})`,
      `  kubelet ${n.kubeletVersion.value} rules (${n.kubeletVersion.source}) — ${n.kubeletVersion.why}`,
    );
    for (const p of n.pods) {
      lines.push(
        `  ${p.metadata.namespace}/${p.metadata.name}  ${p.status.phase ?? '?'}  — ${p.why.phase}`,
      );
      if (p.unsupported?.length)
        lines.push(
          `    warning: not implemented by the kubelet stand-in: ${p.unsupported.join(', ')}`,
        );
      for (const c of [
        ...(p.status.initContainerStatuses ?? []),
        ...(p.status.containerStatuses ?? []),
      ]) {
        const st = c.state?.running
          ? 'Running'
          : c.state?.terminated
            ? `Terminated(${c.state.terminated.reason ?? ''}, ${c.state.terminated.exitCode})`
            : `Waiting(${c.state?.waiting?.reason ?? ''})`;
        lines.push(
          `    ${c.name}  ${st}  ready=${String(c.ready)}${c.started === false ? '  started=false' : ''}  restarts=${c.restartCount}`,
        );
      }
    }
  }
  return lines.join('\n');
}

export const snapshotCommand: Command = {
  name: 'snapshot',
  summary: 'read CRI endpoints once and print the kubelet’s view as JSON',
  usage,
  async run(args) {
    const { values } = parse(args, {
      cri: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '10s' },
      kubeconfig: { type: 'string' },
      server: { type: 'string' },
      token: { type: 'string' },
      'kubelet-version': { type: 'string', multiple: true },
    });
    const timeoutMs = parseDuration(values.timeout, '--timeout');
    if (values.server !== undefined && (values.cri || values.kubeconfig))
      throw new UsageError('give either --server or --cri (and --kubeconfig), not both');
    const doc =
      values.server !== undefined
        ? await takeServerSnapshot(values.server, {
            timeoutMs,
            ...((values.token ?? process.env.PODSCOPE_TOKEN)
              ? { token: values.token ?? process.env.PODSCOPE_TOKEN }
              : {}),
          })
        : await takeSnapshot(
            criNodes(values.cri),
            timeoutMs,
            values.kubeconfig,
            kubeletVersions(values['kubelet-version']),
          );
    process.stdout.write(
      values.json ? `${JSON.stringify(toJsonValue(doc))}\n` : `${snapshotSummary(doc)}\n`,
    );
    return 0;
  },
};
