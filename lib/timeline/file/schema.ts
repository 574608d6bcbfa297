/**
 * The zod 4 schema of a timeline file's JSON form (times of the Kubernetes API types are RFC 3339
 * strings, as the timeline codec writes them).
 *
 * The envelope (header, source, annotations) is strict: an unknown key there is an error. The
 * state and the events are loose: the fields Podscope reads are checked for type and size, and
 * any other field (a newer API field in a container status, say) is kept as it is, so replay
 * stays exact; checkBounds has already limited what such fields can hold.
 */
import { z } from 'zod';
import {
  CONTAINER_EVENT_TYPES,
  CONTAINER_LISTS,
  CONTAINER_STATE_NAMES,
  CRI_EVENT_SOURCES,
  CRI_EVENT_TYPES,
  K8S_EVENT_SEVERITIES,
  NODE_EVENT_TYPES,
  POD_EVENT_TYPES,
} from '../events';
import { PROBE_KINDS, RESTART_POLICIES } from '../state';
import { SPEC_SOURCES } from '../../kubelet/runtime';
import { KUBELET_VERSION_SOURCES } from '../../kubelet/version';
import { DRIFT_STATUSES } from '../../drift/types';
import type { FileLimits } from './limits';
import { TIMELINE_FORMAT, TIMELINE_VERSION } from './types';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;
/** Characters as server/timeline-db counts them for titles and entities: code points. */
const codePoints = (s: string): number => [...s].length;

/** Epoch milliseconds: any moment from 1970 to the year 275760 (the Date range). */
export const epochMs = z.number().min(0).max(8.64e15);

export function buildSchema(limits: FileLimits) {
  const name = z.string().min(1).max(limits.nameChars);
  const optName = z.string().max(limits.nameChars);
  const id = z.string().max(limits.idChars);
  // Names and ids the reducer and the UI look up in plain objects (nodes[node], pods[uid]):
  // one that every object inherits ("constructor", "__proto__", "toString" …) would find
  // Object.prototype's member instead of a node or pod.
  const notInherited = (s: string) => !(s in Object.prototype);
  const reserved = 'is a reserved name (every JavaScript object has a member called that)';
  const keyName = name.refine(notInherited, reserved);
  const keyId = id.min(1).refine(notInherited, reserved);
  const short = z.string().max(limits.shortTextChars);
  const message = z.string().max(limits.messageChars);
  const int = z.number().int();
  const time = z
    .string()
    .max(40)
    .regex(RFC3339, 'expected an RFC 3339 time like 2024-05-01T12:00:00Z')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'not a real date');

  const explanation = z.looseObject({
    id,
    params: z
      .record(z.string(), z.union([short, z.number(), z.boolean(), z.array(short).max(100)]))
      .optional(),
    rule: short.optional(),
    inputs: z.record(z.string(), z.union([short, z.number(), z.boolean(), z.null()])).optional(),
  });

  const driftValue = z.union([message, z.number(), z.boolean(), z.null()]);
  const drift = z.looseObject({
    kind: id,
    node: name,
    podUid: id.optional(),
    pod: short.optional(),
    container: optName.optional(),
    field: short,
    api: driftValue,
    runtime: driftValue,
    status: z.enum(DRIFT_STATUSES),
    since: epochMs.optional(),
    why: explanation,
  });
  const drifts = z.array(drift).max(1_000);

  const containerState = z.looseObject({
    waiting: z.looseObject({ reason: short.optional(), message: message.optional() }).optional(),
    running: z.looseObject({ startedAt: time.optional() }).optional(),
    terminated: z
      .looseObject({
        exitCode: int,
        signal: int.optional(),
        reason: short.optional(),
        message: message.optional(),
        startedAt: time.optional(),
        finishedAt: time.optional(),
        containerID: short.optional(),
      })
      .optional(),
  });

  const containerStatus = z.looseObject({
    name,
    state: containerState.optional(),
    lastState: containerState.optional(),
    ready: z.boolean(),
    restartCount: int.min(0),
    image: short.optional(),
    imageID: short.optional(),
    containerID: short.optional(),
    started: z.boolean().optional(),
  });

  const podCondition = z.looseObject({
    type: name,
    status: short,
    reason: short.optional(),
    message: message.optional(),
    lastTransitionTime: time.nullable().optional(),
    lastProbeTime: time.nullable().optional(),
  });

  const nodeCondition = z.looseObject({
    type: name,
    status: short,
    reason: short.optional(),
    message: message.optional(),
    lastTransitionTime: time.nullable().optional(),
    lastHeartbeatTime: time.nullable().optional(),
  });

  const podStatusFields = {
    phase: short.optional(),
    conditions: z.array(podCondition).optional(),
    initContainerStatuses: z.array(containerStatus).optional(),
    containerStatuses: z.array(containerStatus).optional(),
    podIP: short.optional(),
    podIPs: z.array(z.looseObject({ ip: short })).optional(),
    hostIP: short.optional(),
    startTime: time.optional(),
    qosClass: short.optional(),
    reason: short.optional(),
    message: message.optional(),
  };
  const podStatus = z.looseObject(podStatusFields);

  const specSource = z.enum(SPEC_SOURCES);
  const podSpec = z.looseObject({
    restartPolicy: z.enum(RESTART_POLICIES),
    initContainers: z.array(z.looseObject({ name, sidecar: z.boolean() })),
    containers: z.array(name),
    hostNetwork: z.boolean(),
    terminationGracePeriodSeconds: z.number().optional(),
    readinessGates: z.array(short).optional(),
    probes: z.record(name, z.array(z.enum(PROBE_KINDS))).optional(),
    unsupported: z.array(short).optional(),
  });

  const podView = z.looseObject({
    uid: keyId,
    name,
    namespace: optName,
    node: keyName,
    specSource,
    spec: podSpec,
    status: podStatus,
    why: z.looseObject({
      phase: explanation,
      conditions: z.record(z.string(), explanation),
      containers: z.record(z.string(), explanation),
    }),
    createdAt: epochMs,
    evictionDueAt: epochMs.optional(),
    nextRestartAt: z.record(z.string(), epochMs).optional(),
    deletionTimestamp: epochMs.optional(),
    drift: drifts.optional(),
  });

  const runtimeInfo = z.looseObject({ name: short, version: short, apiVersion: short });
  const runtimeCondition = z.looseObject({
    type: short,
    status: z.boolean(),
    reason: short,
    message,
  });
  const health = z.looseObject({
    connected: z.boolean(),
    lastRelistAt: epochMs.optional(),
    lastError: message.optional(),
    lastErrorAt: epochMs.optional(),
  });

  const amount = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
  const resourceUsage = z.looseObject({
    cpuCores: amount.optional(),
    memoryBytes: amount.optional(),
  });
  const nodeUsage = z.looseObject({
    at: epochMs,
    pods: z.record(
      keyId,
      z.looseObject({
        cpuCores: amount.optional(),
        memoryBytes: amount.optional(),
        containers: z.record(keyName, resourceUsage),
      }),
    ),
  });

  const kubeletVersion = z.looseObject({
    value: short,
    source: z.enum(KUBELET_VERSION_SOURCES),
    reported: short.optional(),
  });

  const nodeView = z.looseObject({
    name: keyName,
    endpoint: short,
    runtime: runtimeInfo.optional(),
    runtimeConditions: z.array(runtimeCondition),
    conditions: z.array(nodeCondition),
    why: z.record(z.string(), explanation),
    health,
    pods: z.record(z.string(), podView),
    drift: drifts.optional(),
    usage: nodeUsage.optional(),
    kubelet: kubeletVersion.optional(),
  });

  const clusterState = z.looseObject({
    seq: int.min(0),
    t: epochMs,
    nodes: z.record(z.string(), nodeView),
  });

  const base = {
    seq: int.min(1),
    t: epochMs,
    node: keyName,
    cause: int.min(1).optional(),
  };

  const criEvent = z.looseObject({
    ...base,
    kind: z.literal('cri'),
    type: z.enum(CRI_EVENT_TYPES),
    source: z.enum(CRI_EVENT_SOURCES),
    podUid: keyId.optional(),
    container: optName.optional(),
    id: id.optional(),
    runtimeTime: epochMs.optional(),
    detail: z.record(z.string(), z.union([message, z.number(), z.boolean(), z.null()])).optional(),
  });

  const stateName = z.enum(CONTAINER_STATE_NAMES);
  const containerEvent = z.looseObject({
    ...base,
    kind: z.literal('container'),
    type: z.enum(CONTAINER_EVENT_TYPES),
    podUid: keyId,
    list: z.enum(CONTAINER_LISTS),
    name: keyName,
    status: containerStatus.optional(),
    from: stateName.optional(),
    to: stateName.optional(),
    why: explanation.optional(),
  });

  const podPatch = z.looseObject({
    specSource: specSource.optional(),
    spec: podSpec.optional(),
    evictionDueAt: epochMs.nullable().optional(),
    nextRestartAt: z.record(z.string(), epochMs).nullable().optional(),
    deletionTimestamp: epochMs.nullable().optional(),
    status: z.looseObject(podStatusFields).optional(),
    whyPhase: explanation.optional(),
    drift: drifts.nullable().optional(),
  });

  const podEvent = z.looseObject({
    ...base,
    kind: z.literal('pod'),
    type: z.enum(POD_EVENT_TYPES),
    podUid: keyId,
    pod: podView.optional(),
    phase: short.optional(),
    condition: podCondition.optional(),
    from: short.optional(),
    why: explanation.optional(),
    patch: podPatch.optional(),
  });

  const nodeEvent = z.looseObject({
    ...base,
    kind: z.literal('node'),
    type: z.enum(NODE_EVENT_TYPES),
    endpoint: short.optional(),
    runtime: runtimeInfo.optional(),
    runtimeConditions: z.array(runtimeCondition).optional(),
    health: health.optional(),
    condition: nodeCondition.optional(),
    from: short.optional(),
    why: explanation.optional(),
    drift: drifts.nullable().optional(),
    usage: nodeUsage.nullable().optional(),
    kubelet: kubeletVersion.optional(),
  });

  const k8sEvent = z.looseObject({
    ...base,
    kind: z.literal('k8s'),
    type: z.literal('Event'),
    reason: short,
    message,
    eventType: z.enum(K8S_EVENT_SEVERITIES),
    involvedObject: z.looseObject({
      kind: short,
      name: short,
      namespace: optName.optional(),
      uid: id.optional(),
      fieldPath: short.optional(),
    }),
    count: int.min(0),
    firstTimestamp: epochMs.optional(),
    lastTimestamp: epochMs.optional(),
    source: short.optional(),
    podUid: keyId.optional(),
    container: optName.optional(),
  });

  const event = z.discriminatedUnion('kind', [
    criEvent,
    containerEvent,
    podEvent,
    nodeEvent,
    k8sEvent,
  ]);

  const annotation = z.strictObject({
    t: epochMs,
    entity: z
      .string()
      .min(1)
      .refine(
        (s) => codePoints(s) <= limits.entityChars,
        `longer than ${limits.entityChars} characters`,
      )
      .optional(),
    text: z
      .string()
      .refine((s) => s.trim() !== '', 'an annotation needs text')
      .refine(
        (s) => utf8Bytes(s) <= limits.annotationBytes,
        `longer than ${limits.annotationBytes} bytes`,
      ),
    author: z.string().max(limits.authorChars).optional(),
  });

  const source = z.strictObject({
    podscope: short,
    kind: z.enum(['saved', 'recorded', 'exported']).optional(),
    nodes: z
      .array(
        z.strictObject({
          name,
          endpoint: short.optional(),
          runtime: runtimeInfo.optional(),
        }),
      )
      .max(limits.maxArrayLength),
  });

  return z.strictObject({
    format: z.literal(TIMELINE_FORMAT),
    version: z.literal(TIMELINE_VERSION),
    title: z
      .string()
      .refine((s) => s.trim() !== '', 'a timeline needs a title')
      .refine(
        (s) => codePoints(s) <= limits.titleChars,
        `longer than ${limits.titleChars} characters`,
      ),
    notes: z
      .string()
      .refine((s) => utf8Bytes(s) <= limits.notesBytes, `longer than ${limits.notesBytes} bytes`),
    createdAt: epochMs,
    from: epochMs,
    to: epochMs,
    source,
    annotations: z.array(annotation).max(limits.annotations),
    initialState: clusterState,
    events: z.array(event).max(limits.maxEvents),
  });
}

export type TimelineFileSchema = ReturnType<typeof buildSchema>;
