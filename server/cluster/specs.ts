/**
 * What the API server knows of a node's pods, as the agents need it: the records of the specs
 * bucket (names.ts `PODSCOPE_SPECS_<cluster>`), written by the console replica that holds the
 * API-view Lease (spec-publisher.ts) and read by each agent for its own node (agent/specs.ts),
 * which hands them to its node engine as the 'apiserver' hint provider — what KubeView is to the
 * engine in the embedded console. So an agent derives a pod with its real restartPolicy, its
 * declared (init) containers, probes and grace period, and the kubelet's posted hints, instead of
 * a spec inferred from the CRI, and a cluster console says what an embedded one says.
 *
 *   <node>.pod.<runtime uid>   PodSpecRecord: the pod, compacted (`compactPod`)
 *   <node>.node                NodeSpecRecord: the Node's host IPs (GetNodeHostIPs) and its
 *                              kubelet's version (status.nodeInfo.kubeletVersion)
 *
 * A pod deleted from the API server has its key deleted. Records carry the envelope's version,
 * the cluster and node (checked against the key) and the publishing term's API epoch, so an
 * agent can tell a deposed leader's late write from the current one's.
 *
 * Reading is hand-checked, not zod: the agent, the only reader, does not load zod (memory budget).
 * Everything read is untrusted and either accepted whole or refused with one reason.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { StorageType } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { BusConnection } from './bus/connection';
import { API_EPOCH, ENVELOPE_VERSION, type Parsed } from './envelope';

/** A pod's record is refused above this (a pod spec is a few KiB; the API caps objects at 1.5 MiB). */
export const MAX_SPEC_BYTES = 256 * 1024;

interface SpecHead {
  v: typeof ENVELOPE_VERSION;
  cluster: string;
  node: string;
  /** The API-view term that wrote it (`…-api`, envelope.ts newApiEpoch). */
  epoch: string;
  t: number;
}

export interface PodSpecRecord extends SpecHead {
  /** The uid on the pod's sandboxes (runtimeUid: a mirror pod's is its static pod's). */
  uid: string;
  /** The pod as the API serves it, compacted: what the kubelet's rules read, no more. */
  pod: V1Pod;
}

export interface NodeSpecRecord extends SpecHead {
  hostIPs: string[];
  /** status.nodeInfo.kubeletVersion, when the Node reports it (the rules of that minor apply). */
  kubeletVersion?: string;
}

// What the kubelet's rules never read (lib/kubelet, server/engine/pods/pod-view.ts), left out so a
// record stays small and carries nothing a node has no need of (env values, commands, volumes).
const POD_SPEC_OMIT = new Set([
  'volumes',
  'affinity',
  'nodeSelector',
  'imagePullSecrets',
  'serviceAccount',
  'serviceAccountName',
  'automountServiceAccountToken',
  'securityContext',
  'dnsConfig',
  'dnsPolicy',
  'hostAliases',
  'hostname',
  'subdomain',
  'setHostnameAsFQDN',
  'schedulerName',
  'schedulingGates',
  'topologySpreadConstraints',
  'resourceClaims',
  'enableServiceLinks',
]);
const CONTAINER_OMIT = new Set([
  'env',
  'envFrom',
  'command',
  'args',
  'volumeMounts',
  'volumeDevices',
  'workingDir',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
]);
const METADATA_KEEP = [
  'name',
  'namespace',
  'uid',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;
/** The annotations the kubelet reads: config.source (static pods), config.mirror, config.hash. */
const ANNOTATION_PREFIX = 'kubernetes.io/config.';

const without = <T extends object>(o: T, omit: ReadonlySet<string>): T =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !omit.has(k))) as T;

/** The pod with only what a node's derivation reads (spec, status, a few metadata fields). */
export function compactPod(pod: V1Pod): V1Pod {
  const meta = pod.metadata ?? {};
  const annotations = Object.fromEntries(
    Object.entries(meta.annotations ?? {}).filter(([k]) => k.startsWith(ANNOTATION_PREFIX)),
  );
  const metadata = Object.fromEntries(
    METADATA_KEEP.flatMap((k) => (meta[k] === undefined ? [] : [[k, meta[k]]])),
  ) as V1Pod['metadata'];
  if (metadata && Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const spec = pod.spec ? without(pod.spec, POD_SPEC_OMIT) : undefined;
  if (spec) {
    spec.containers = (spec.containers ?? []).map((c) => without(c, CONTAINER_OMIT));
    if (spec.initContainers)
      spec.initContainers = spec.initContainers.map((c) => without(c, CONTAINER_OMIT));
    if (spec.ephemeralContainers)
      spec.ephemeralContainers = spec.ephemeralContainers.map((c) => without(c, CONTAINER_OMIT));
  }
  return {
    ...(metadata ? { metadata } : {}),
    ...(spec ? { spec } : {}),
    ...(pod.status ? { status: pod.status } : {}),
  };
}

/** The specs bucket (history 1, like the live one); created by whoever opens it first. */
export function openSpecsBucket(bus: BusConnection): Promise<KV> {
  return new Kvm(bus.js).create(bus.names.specsBucket, {
    history: 1,
    replicas: bus.limits.replicas,
    storage: StorageType.File,
  });
}

export function encodeSpecRecord(record: PodSpecRecord | NodeSpecRecord): Uint8Array {
  return Buffer.from(JSON.stringify(record), 'utf8');
}

// ── reading (the agent) ─────────────────────────────────────────────────────

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An API time as client-node's deserializer gives it (a Date), from the record's JSON string. */
function revive(o: Record<string, unknown> | undefined, ...keys: string[]): void {
  if (!o) return;
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime())) o[k] = d;
    }
  }
}
const records = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter(isRecord) : [];

/**
 * The Date fields of a compacted pod, as KubeView holds them (its reflector deserializes with
 * client-node's ObjectSerializer, which the agent does not load): the same shape, so the same
 * derivation.
 */
function reviveDates(pod: Record<string, unknown>): void {
  revive(
    pod.metadata as Record<string, unknown> | undefined,
    'creationTimestamp',
    'deletionTimestamp',
  );
  const status = isRecord(pod.status) ? pod.status : undefined;
  if (!status) return;
  revive(status, 'startTime');
  for (const c of records(status.conditions)) revive(c, 'lastProbeTime', 'lastTransitionTime');
  for (const list of [
    status.containerStatuses,
    status.initContainerStatuses,
    status.ephemeralContainerStatuses,
  ])
    for (const s of records(list))
      for (const st of [s.state, s.lastState])
        if (isRecord(st)) {
          revive(st.running as Record<string, unknown> | undefined, 'startedAt');
          revive(st.terminated as Record<string, unknown> | undefined, 'startedAt', 'finishedAt');
        }
}

const fail = (reason: 'bad-envelope' | 'foreign-cluster' | 'subject-mismatch', detail: string) =>
  ({ ok: false, reason, detail }) as const;

/**
 * A specs entry read from KV under `key` (already parsed by names.parseSpecKey): accepted only
 * when it is well-formed and names this cluster, the key's node and (a pod) the key's uid.
 */
export function parseSpecRecord(
  data: Uint8Array,
  cluster: string,
  key: { kind: 'pod'; node: string; uid: string } | { kind: 'node'; node: string },
): Parsed<PodSpecRecord | NodeSpecRecord> {
  if (data.byteLength > MAX_SPEC_BYTES)
    return { ok: false, reason: 'too-large', detail: `${data.byteLength} bytes` };
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    return { ok: false, reason: 'not-json', detail: 'the entry is not JSON' };
  }
  if (!isRecord(raw)) return fail('bad-envelope', 'not an object');
  if (raw.v !== ENVELOPE_VERSION)
    return { ok: false, reason: 'unknown-version', detail: `v=${String(raw.v).slice(0, 20)}` };
  if (typeof raw.cluster !== 'string') return fail('bad-envelope', 'no cluster');
  if (raw.cluster !== cluster)
    return fail('foreign-cluster', `cluster "${raw.cluster.slice(0, 63)}", not "${cluster}"`);
  if (raw.node !== key.node)
    return fail('subject-mismatch', `the entry names node "${String(raw.node).slice(0, 253)}"`);
  if (typeof raw.epoch !== 'string' || !API_EPOCH.test(raw.epoch))
    return fail('bad-envelope', 'epoch is not an API-view epoch (<base36 ms>-<8 hex>-api)');
  if (typeof raw.t !== 'number' || !Number.isFinite(raw.t)) return fail('bad-envelope', 'no t');
  if (key.kind === 'node') {
    const ips = raw.hostIPs;
    if (
      !Array.isArray(ips) ||
      ips.length > 16 ||
      !ips.every((ip) => typeof ip === 'string' && ip.length <= 64)
    )
      return fail('bad-envelope', 'hostIPs is not a list of at most 16 addresses');
    const version = raw.kubeletVersion;
    if (version !== undefined && (typeof version !== 'string' || version.length > 64))
      return fail('bad-envelope', 'kubeletVersion is not a version string');
    const extra = Object.keys(raw).filter(
      (k) => !['v', 'cluster', 'node', 'epoch', 't', 'hostIPs', 'kubeletVersion'].includes(k),
    );
    if (extra.length > 0) return fail('bad-envelope', `unknown field "${extra[0]?.slice(0, 40)}"`);
    return { ok: true, value: raw as unknown as NodeSpecRecord };
  }
  if (raw.uid !== key.uid) return fail('subject-mismatch', 'the entry names another pod uid');
  const pod = raw.pod;
  if (!isRecord(pod) || !isRecord(pod.metadata) || !isRecord(pod.spec))
    return fail('bad-envelope', 'pod has no metadata or spec');
  const { name, namespace } = pod.metadata;
  if (
    typeof name !== 'string' ||
    name.length > 253 ||
    (namespace !== undefined && typeof namespace !== 'string')
  )
    return fail('bad-envelope', 'pod metadata has no name');
  if (pod.spec.nodeName !== key.node)
    return fail('subject-mismatch', 'the pod is bound to another node');
  if (
    !Array.isArray(pod.spec.containers) ||
    !pod.spec.containers.every((c) => isRecord(c) && typeof c.name === 'string')
  )
    return fail('bad-envelope', 'pod spec containers are not a list of named containers');
  for (const list of ['initContainers', 'ephemeralContainers'] as const) {
    const l = pod.spec[list];
    if (
      l !== undefined &&
      (!Array.isArray(l) || !l.every((c) => isRecord(c) && typeof c.name === 'string'))
    )
      return fail('bad-envelope', `pod spec ${list} are not a list of named containers`);
  }
  if (pod.status !== undefined && !isRecord(pod.status))
    return fail('bad-envelope', 'pod status is not an object');
  const extra = Object.keys(raw).filter(
    (k) => !['v', 'cluster', 'node', 'epoch', 't', 'uid', 'pod'].includes(k),
  );
  if (extra.length > 0) return fail('bad-envelope', `unknown field "${extra[0]?.slice(0, 40)}"`);
  reviveDates(pod);
  return { ok: true, value: raw as unknown as PodSpecRecord };
}
