/**
 * What a message of the API-view source (an `…-api` epoch, api-view.ts) may carry: only what the
 * API server knows and the runtime does not — its Events (kind 'k8s') and drift (NodeUpdated with
 * `drift` alone, PodUpdated whose patch is `drift` alone). Anything else under an API epoch (a
 * container state, a node's health, a pod's spec) is refused whole: the leader speaks for the API
 * server, never for a node's runtime, so a message that claims otherwise is forged or broken.
 * Strings are bounded as toTimelineEvent (server/kube/events.ts) clips them.
 */
import { z } from 'zod';
import { DRIFT_KINDS, DRIFT_STATUSES } from '@/lib/drift/types';

const text = (max: number) => z.string().max(max);
const name = text(253);
const value = z.union([z.string().max(4096), z.number(), z.boolean(), z.null()]);

const explanation = z.strictObject({
  id: text(200),
  params: z.record(text(64), z.union([value, z.array(value).max(64)])).optional(),
  rule: text(300).optional(),
  inputs: z.record(text(64), value).optional(),
});

const drift = z.strictObject({
  kind: z.enum(DRIFT_KINDS),
  node: name,
  podUid: text(128).optional(),
  pod: text(507).optional(),
  container: name.optional(),
  field: text(300),
  api: value,
  runtime: value,
  status: z.enum(DRIFT_STATUSES),
  since: z.number().optional(),
  why: explanation,
});
const driftList = z.array(drift).max(512).nullable();

const head = {
  seq: z.number(),
  t: z.number(),
  node: name,
  cause: z.number().optional(),
};

const k8sEvent = z.strictObject({
  ...head,
  kind: z.literal('k8s'),
  type: z.literal('Event'),
  reason: text(129),
  message: text(2049),
  eventType: z.enum(['Normal', 'Warning']),
  involvedObject: z.strictObject({
    kind: text(64),
    name: text(254),
    namespace: text(254).optional(),
    uid: text(128).optional(),
    fieldPath: text(254).optional(),
  }),
  count: z.number().int().min(0),
  firstTimestamp: z.number().optional(),
  lastTimestamp: z.number().optional(),
  source: text(254).optional(),
  podUid: text(128).optional(),
  container: text(254).optional(),
});

const nodeDrift = z.strictObject({
  ...head,
  kind: z.literal('node'),
  type: z.literal('NodeUpdated'),
  drift: driftList,
});

const podDrift = z.strictObject({
  ...head,
  kind: z.literal('pod'),
  type: z.literal('PodUpdated'),
  podUid: text(128),
  patch: z.strictObject({ drift: driftList }),
});

const apiEvent = z.union([k8sEvent, nodeDrift, podDrift]);

/** Undefined when every event is one the API view may publish; else why not (for the refusal). */
export function checkApiEvents(events: readonly unknown[]): string | undefined {
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (apiEvent.safeParse(e).success) continue;
    const { kind, type } = (e ?? {}) as { kind?: unknown; type?: unknown };
    return `event ${i} (${String(kind)}/${String(type)}) is not an API-server Event or drift`;
  }
  return undefined;
}
