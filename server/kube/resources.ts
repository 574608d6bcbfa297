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
  V1MicroTime,
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
import type { ResourceSpec } from './resource';

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

/**
 * client-node 2.0.1 types MicroTime fields as V1MicroTime (a Date) but its deserializer leaves
 * them as strings; make them what the type says, for listed and watched objects alike.
 */
function microTime(v: unknown): V1MicroTime | undefined {
  if (v === undefined || v === null) return undefined;
  if (v instanceof V1MicroTime) return v;
  if (!(v instanceof Date) && typeof v !== 'string' && typeof v !== 'number') return undefined;
  const t = new V1MicroTime(v instanceof Date ? v.getTime() : v);
  return Number.isNaN(t.getTime()) ? undefined : t;
}

function fixLease(l: V1Lease): V1Lease {
  if (l.spec) {
    const renewTime = microTime(l.spec.renewTime);
    const acquireTime = microTime(l.spec.acquireTime);
    l.spec = {
      ...l.spec,
      ...(renewTime ? { renewTime } : {}),
      ...(acquireTime ? { acquireTime } : {}),
    };
  }
  return l;
}

function fixEvent(e: CoreV1Event): CoreV1Event {
  const eventTime = microTime(e.eventTime);
  if (eventTime) e.eventTime = eventTime;
  const observed = microTime(e.series?.lastObservedTime);
  if (e.series && observed) e.series = { ...e.series, lastObservedTime: observed };
  return e;
}

const mapItems =
  <T>(fix: (o: T) => T) =>
  (list: { items: T[] }) => {
    list.items = list.items.map(fix);
    return list;
  };

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
      list: (o) => core.listEventForAllNamespaces(o).then(mapItems(fixEvent)),
      deserialize: (raw) => fixEvent(typed<CoreV1Event>('CoreV1Event')(raw)),
    },
    leases: {
      name: 'leases',
      path: `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`,
      list: (o) =>
        coordination
          .listNamespacedLease({ namespace: NODE_LEASE_NAMESPACE, ...o })
          .then(mapItems(fixLease)),
      deserialize: (raw) => fixLease(typed<V1Lease>('V1Lease')(raw)),
    },
  };
}
