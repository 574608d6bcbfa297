/**
 * API-server Events → timeline events (kind 'k8s'), tied to the node they concern: a Node event
 * to that node, a Pod event to the node the pod is bound to (else the reporting host, which the
 * kubelet sets to its node name). Events that concern no node (a Deployment scaled) are not
 * timeline material and are dropped. Strings are clipped: they come from the cluster, untrusted.
 */
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { runtimeUid } from '@/lib/drift/api';
import type { K8sEvent } from '@/lib/timeline/events';

export type NewK8sEvent = Omit<K8sEvent, 'seq'>;

const LIMITS = { reason: 128, message: 2048, name: 253, kind: 63 } as const;

const clip = (s: string | undefined, max: number): string =>
  s === undefined ? '' : s.length > max ? `${s.slice(0, max)}…` : s;

const ms = (d: Date | string | undefined): number | undefined => {
  if (d === undefined) return undefined;
  const v = new Date(d).getTime();
  return Number.isNaN(v) ? undefined : v;
};

/** `spec.containers{app}`, `spec.initContainers{init}` → the container name. */
export function containerOf(fieldPath: string | undefined): string | undefined {
  const m = /^spec\.(?:initContainers|containers|ephemeralContainers)\{([^}]+)\}$/.exec(
    fieldPath ?? '',
  );
  return m?.[1];
}

export interface EventContext {
  /** Observation time (epoch ms). */
  now: number;
  /** The API pod with this API uid, when known. */
  podByApiUid(uid: string): V1Pod | undefined;
}

export function toTimelineEvent(ev: CoreV1Event, ctx: EventContext): NewK8sEvent | undefined {
  const io = ev.involvedObject;
  const kind = clip(io.kind, LIMITS.kind);
  const host = ev.source?.host ?? ev.reportingInstance;
  let node: string | undefined;
  let podUid: string | undefined;
  if (kind === 'Node') {
    node = io.name;
  } else if (kind === 'Pod') {
    const pod = io.uid ? ctx.podByApiUid(io.uid) : undefined;
    node = pod?.spec?.nodeName ?? host;
    podUid = (pod ? runtimeUid(pod) : undefined) ?? io.uid;
  } else {
    node = host;
  }
  if (!node) return undefined;
  const container = containerOf(io.fieldPath);
  const first = ms(ev.firstTimestamp ?? ev.eventTime);
  const last = ms(ev.lastTimestamp ?? ev.series?.lastObservedTime ?? ev.eventTime);
  const source = ev.source?.component ?? ev.reportingComponent;
  return {
    kind: 'k8s',
    type: 'Event',
    node: clip(node, LIMITS.name),
    t: ctx.now,
    reason: clip(ev.reason, LIMITS.reason),
    message: clip(ev.message, LIMITS.message),
    eventType: ev.type === 'Warning' ? 'Warning' : 'Normal',
    involvedObject: {
      kind,
      name: clip(io.name, LIMITS.name),
      ...(io.namespace ? { namespace: clip(io.namespace, LIMITS.name) } : {}),
      ...(io.uid ? { uid: io.uid } : {}),
      ...(io.fieldPath ? { fieldPath: clip(io.fieldPath, LIMITS.name) } : {}),
    },
    count: ev.count ?? ev.series?.count ?? 1,
    ...(first !== undefined ? { firstTimestamp: first } : {}),
    ...(last !== undefined ? { lastTimestamp: last } : {}),
    ...(source ? { source: clip(source, LIMITS.name) } : {}),
    ...(podUid ? { podUid } : {}),
    ...(container ? { container: clip(container, LIMITS.name) } : {}),
  };
}
