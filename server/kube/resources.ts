/**
 * The four collections Podscope reads from the API server, each as a ResourceSpec for the
 * reflector: how to list it (typed client, Dates deserialized) and where to watch it (raw JSON,
 * deserialized to the same typed shape so the store never mixes strings and Dates).
 *
 * Events are read from core/v1: the kubelet writes through events.k8s.io/v1, but both groups
 * serve the same objects, and core/v1 carries count/firstTimestamp/lastTimestamp as
 * `kubectl get events` shows them.
 */
import {
  CoordinationV1Api,
  CoreV1Api,
  type CoreV1Event,
  type KubeConfig,
  type V1Lease,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
// client-node 2.0.1 does not re-export its model serializer; the typed list calls use this same
// one internally, so watched objects come out exactly like listed ones (Dates, renamed fields).
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { NODE_LEASE_NAMESPACE } from '@/lib/drift/api';
import type { ResourceSpec } from './reflector';

export interface KubeResources {
  nodes: ResourceSpec<V1Node>;
  pods: ResourceSpec<V1Pod>;
  events: ResourceSpec<CoreV1Event>;
  leases: ResourceSpec<V1Lease>;
}

export interface ResourceOptions {
  /** Restrict pods, e.g. `spec.nodeName=node-a` when only some nodes are observed. */
  podFieldSelector?: string;
}

const typed =
  <T>(type: string) =>
  (raw: unknown): T =>
    ObjectSerializer.deserialize(raw, type) as T;

export function kubeResources(kc: KubeConfig, options: ResourceOptions = {}): KubeResources {
  const core = kc.makeApiClient(CoreV1Api);
  const coordination = kc.makeApiClient(CoordinationV1Api);
  const podSelector = options.podFieldSelector;
  return {
    nodes: {
      name: 'nodes',
      path: '/api/v1/nodes',
      list: (o) => core.listNode(o),
      deserialize: typed<V1Node>('V1Node'),
    },
    pods: {
      name: 'pods',
      path: '/api/v1/pods',
      list: (o) =>
        core.listPodForAllNamespaces({
          ...o,
          ...(podSelector ? { fieldSelector: podSelector } : {}),
        }),
      deserialize: typed<V1Pod>('V1Pod'),
      ...(podSelector ? { query: { fieldSelector: podSelector } } : {}),
    },
    events: {
      name: 'events',
      path: '/api/v1/events',
      list: (o) => core.listEventForAllNamespaces(o),
      deserialize: typed<CoreV1Event>('CoreV1Event'),
    },
    leases: {
      name: 'leases',
      path: `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`,
      list: (o) => coordination.listNamespacedLease({ namespace: NODE_LEASE_NAMESPACE, ...o }),
      deserialize: typed<V1Lease>('V1Lease'),
    },
  };
}
