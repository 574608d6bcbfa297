/**
 * The API server's side of the comparison: the objects as listed/watched, indexed the ways the
 * join needs. A pod is found by the uid the runtime knows: the API uid for ordinary pods, and
 * for a mirror pod the static pod's uid, which the kubelet writes into the mirror's
 * `kubernetes.io/config.mirror` annotation (pkg/kubelet/pod/mirror_client.go CreateMirrorPod;
 * the static pod's uid is its config hash, pkg/kubelet/config/common.go).
 */
import type { V1Lease, V1Node, V1Pod } from '@kubernetes/client-node';

export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

/** Lease namespace the kubelet renews its node Lease in (pkg/kubelet/kubelet.go). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export interface ApiObjects {
  pods: readonly V1Pod[];
  nodes: readonly V1Node[];
  /** Node Leases (namespace kube-node-lease, named like the node). */
  leases: readonly V1Lease[];
  /** Runtime uid → epoch ms Podscope saw the pod deleted from the API server (recent only). */
  deletedPods?: Readonly<Record<string, number>>;
}

/** The uid the runtime labels this pod's sandboxes with. */
export function runtimeUid(pod: V1Pod): string | undefined {
  return pod.metadata?.annotations?.[MIRROR_ANNOTATION] ?? pod.metadata?.uid;
}

export const podKey = (pod: V1Pod): string =>
  `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

export interface ApiIndex {
  podByRuntimeUid: ReadonlyMap<string, V1Pod>;
  podsByNode: ReadonlyMap<string, readonly V1Pod[]>;
  nodeByName: ReadonlyMap<string, V1Node>;
  leaseByNode: ReadonlyMap<string, V1Lease>;
  deletedPods: Readonly<Record<string, number>>;
}

export function indexApi(api: ApiObjects): ApiIndex {
  const podByRuntimeUid = new Map<string, V1Pod>();
  const podsByNode = new Map<string, V1Pod[]>();
  for (const pod of api.pods) {
    const uid = runtimeUid(pod);
    if (uid) podByRuntimeUid.set(uid, pod);
    const node = pod.spec?.nodeName;
    if (node) {
      const list = podsByNode.get(node);
      if (list) list.push(pod);
      else podsByNode.set(node, [pod]);
    }
  }
  const nodeByName = new Map<string, V1Node>();
  for (const n of api.nodes) if (n.metadata?.name) nodeByName.set(n.metadata.name, n);
  const leaseByNode = new Map<string, V1Lease>();
  for (const l of api.leases) {
    if (l.metadata?.namespace !== undefined && l.metadata.namespace !== NODE_LEASE_NAMESPACE)
      continue;
    // The kubelet names its Lease after the node and sets holderIdentity to the node name.
    const node = l.spec?.holderIdentity ?? l.metadata?.name;
    if (node) leaseByNode.set(node, l);
  }
  return {
    podByRuntimeUid,
    podsByNode,
    nodeByName,
    leaseByNode,
    deletedPods: api.deletedPods ?? {},
  };
}
