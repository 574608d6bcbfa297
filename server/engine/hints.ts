/**
 * What the kubelet knows that the CRI does not, from whoever can tell: Podscope's own driver
 * (in process) or the API server (server/kube). The engine asks every provider, most trusted
 * first, and says in each pod which source its spec came from.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ProbeResults } from '@/lib/kubelet/prober';
import type { SyncError } from '@/lib/kubelet/runtime';
import type { K8sEvent } from '@/lib/timeline/events';

export interface PodHints {
  /** The kubelet's reason cache: why it could not start a container (ErrImagePull, …). */
  syncErrors?: Record<string, SyncError>;
  /** Epoch ms the pod was marked for deletion (graceful termination under way). */
  deletionTimestamp?: number;
  /** The kubelet decided the pod is terminal (deleted, evicted, past activeDeadlineSeconds). */
  podIsTerminal?: boolean;
  /** The prober's startup / readiness results (only a kubelet — or the API server — knows them). */
  probes?: ProbeResults;
  /** Spec fields the kubelet stand-in does not implement (server/driver/spec/unsupported.ts). */
  unsupported?: string[];
  /** The kubelet's eviction manager evicted the pod: reason, message, when (lib/kubelet status.ts). */
  evicted?: { reason: string; message: string; at: number };
}

export interface HintProvider {
  readonly name: 'apiserver' | 'driver';
  /** The pod's full spec when this provider knows it. */
  specFor?(uid: string): V1Pod | undefined;
  hintsFor(uid: string): PodHints | undefined;
  /**
   * The pods a kubelet has admitted to this node and is syncing, whether or not the runtime has
   * anything of them yet (a pod the network keeps from getting a sandbox still has a status).
   */
  podsOn?(node: string): string[];
  /**
   * When the node's kubelet last posted its status / renewed its Lease, as this provider knows
   * it (the kubelet stand-in); the node lifecycle controller's input (lib/kubelet/node.ts).
   */
  kubeletPostedAt?(node: string): number | undefined;
  /** The node's host IPs as the API server's Node gives them (GetNodeHostIPs), when known. */
  hostIPsFor?(node: string): string[] | undefined;
  /** The node's kubelet version as its Node reports it (status.nodeInfo.kubeletVersion), when known. */
  kubeletVersionFor?(node: string): string | undefined;
  /** Called by the provider's owner when hints for these pods changed, so the engine re-derives them. */
  onChange?(listener: (uids: string[]) => void): () => void;
  /**
   * Events the provider saw happen (a kubelet's Killing, Unhealthy, FailedPostStartHook …), for
   * the timeline. A hint change that follows one synchronously is derived with it as its cause.
   */
  onKubeletEvents?(listener: (events: NewK8sEvent[]) => void): () => void;
}

/** A timeline K8s event before the recorder numbers it. */
export type NewK8sEvent = Omit<K8sEvent, 'seq'>;

/** The pods this node's kubelet syncs, as the providers that know (podsOn) say; undefined when none says. */
export function admittedPods(
  providers: readonly HintProvider[],
  node: string,
): Set<string> | undefined {
  const knowing = providers.filter((p) => p.podsOn !== undefined);
  if (knowing.length === 0) return undefined;
  return new Set(knowing.flatMap((p) => p.podsOn?.(node) ?? []));
}

/** An admitted pod's name and namespace, from the spec of a provider that admits pods. */
export function admittedPodName(
  providers: readonly HintProvider[],
  uid: string,
): { name: string; namespace: string } | undefined {
  for (const p of providers) {
    const meta = p.podsOn ? p.specFor?.(uid)?.metadata : undefined;
    if (meta?.name) return { name: meta.name, namespace: meta.namespace ?? 'default' };
  }
  return undefined;
}
