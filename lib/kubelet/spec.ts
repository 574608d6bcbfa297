/**
 * Where a pod spec comes from when the API server does not give one (ARCHITECTURE.md "Where the
 * pod spec comes from"): Podscope's driver writes the whole V1Pod as JSON into the sandbox
 * annotation `podscope.dev/pod-spec`; failing that, a spec is inferred from the CRI alone.
 *
 * Both read untrusted strings: they validate, cap sizes and never throw.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { containersNewestFirst, sandboxesOf } from './records';
import { ANNOTATIONS, type RuntimePodStatus, type RuntimeSandbox } from './runtime';
import { finite, isObj, isRecord, str } from './util';
import { RESTART_POLICIES } from '../timeline/state';

/** Marks a pod whose spec Podscope inferred (the UI shows inferred facts as such). */
export const INFERRED_ANNOTATION = 'podscope.dev/spec-source';
/** Marks init containers Podscope took for sidecars because they ran alongside regular containers. */
export const INFERRED_SIDECAR_ANNOTATION = 'podscope.dev/inferred-sidecars';

/** Largest annotation Podscope will parse (the API limits all annotations of an object to 256 KiB). */
export const MAX_SPEC_ANNOTATION_BYTES = 256 * 1024;
const MAX_CONTAINERS = 256;
/** The API's restart policies (the one list, lib/timeline/state.ts). */
const RESTART_POLICY_SET: ReadonlySet<string> = new Set(RESTART_POLICIES);

/**
 * The spec from the CRI alone: regular and init containers from the `io.kubernetes.container.type`
 * annotation (no annotation = regular; ephemeral ones are left out), in order of first creation;
 * restartPolicy Always (the API default); hostNetwork from the newest sandbox's namespace mode.
 * An init container that ran at the same time as a regular container is taken for a sidecar.
 */
export function inferPodSpec(runtime: RuntimePodStatus): V1Pod {
  const records = [...containersNewestFirst(runtime)].reverse(); // oldest first
  const firstSeen = new Map<string, { type: string; image: string; at: number }>();
  for (const r of records) {
    const name = str(r.name);
    if (!name || firstSeen.has(name)) continue;
    const type = str(r.annotations?.[ANNOTATIONS.containerType]) || 'container';
    firstSeen.set(name, { type, image: str(r.image), at: finite(r.createdAt, 0) });
  }
  // image of the newest attempt
  for (const r of containersNewestFirst(runtime)) {
    const e = firstSeen.get(str(r.name));
    if (e && str(r.image)) e.image = str(r.image);
  }
  const regularNames = [...firstSeen].filter(([, v]) => v.type === 'container').map(([k]) => k);
  const regularRunning = records.some(
    (r) => regularNames.includes(str(r.name)) && r.state === 'running',
  );
  const sidecars: string[] = [];
  const initContainers: V1Container[] = [];
  const containers: V1Container[] = [];
  for (const [name, v] of firstSeen) {
    if (containers.length + initContainers.length >= MAX_CONTAINERS) break;
    if (v.type === 'init') {
      const runningNow = records.some((r) => str(r.name) === name && r.state === 'running');
      const sidecar = runningNow && regularRunning;
      if (sidecar) sidecars.push(name);
      initContainers.push({
        name,
        ...(v.image ? { image: v.image } : {}),
        ...(sidecar ? { restartPolicy: 'Always' } : {}),
      });
    } else if (v.type === 'container') {
      containers.push({ name, ...(v.image ? { image: v.image } : {}) });
    }
  }
  const sandbox = sandboxesOf(runtime)[0];
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(isRecord(sandbox?.labels) ? sandbox.labels : {})) {
    if (typeof v === 'string' && !k.startsWith('io.kubernetes.')) labels[k] = v;
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: str(runtime?.name) || str(sandbox?.name),
      namespace: str(runtime?.namespace) || str(sandbox?.namespace),
      uid: str(runtime?.uid) || str(sandbox?.uid),
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      annotations: {
        [INFERRED_ANNOTATION]: 'inferred',
        ...(sidecars.length > 0 ? { [INFERRED_SIDECAR_ANNOTATION]: sidecars.join(',') } : {}),
      },
    },
    spec: {
      ...(initContainers.length > 0 ? { initContainers } : {}),
      containers,
      restartPolicy: 'Always',
      ...(sandbox?.networkMode === 'NODE' ? { hostNetwork: true } : {}),
    },
  };
}

function validContainer(raw: unknown): V1Container | undefined {
  if (!isRecord(raw)) return undefined;
  const name = raw.name;
  if (typeof name !== 'string' || name === '' || name.length > 253) return undefined;
  if (
    raw.restartPolicy !== undefined &&
    !(typeof raw.restartPolicy === 'string' && RESTART_POLICY_SET.has(raw.restartPolicy))
  ) {
    return undefined;
  }
  if (raw.image !== undefined && typeof raw.image !== 'string') return undefined;
  if (raw.restartPolicyRules !== undefined && !Array.isArray(raw.restartPolicyRules))
    return undefined;
  return raw as unknown as V1Container;
}

function validContainers(raw: unknown, required: boolean): V1Container[] | undefined {
  if (raw === undefined && !required) return [];
  if (!Array.isArray(raw) || raw.length > MAX_CONTAINERS) return undefined;
  const out: V1Container[] = [];
  const names = new Set<string>();
  for (const item of raw as unknown[]) {
    const c = validContainer(item);
    if (!c || names.has(c.name)) return undefined;
    names.add(c.name);
    out.push(c);
  }
  return out;
}

const TIME_KEYS = new Set(['creationTimestamp', 'deletionTimestamp']);

/**
 * Pods already read from an annotations map (a sandbox's record keeps its map from relist to
 * relist): the text they were read from and the result. Checked against the text each time.
 */
const readSpecs = new WeakMap<object, { text: string; pod: V1Pod | undefined }>();

/**
 * The V1Pod the driver wrote on the sandbox (`podscope.dev/pod-spec`): metadata and spec, validated.
 * Invalid, oversized or missing → undefined. Status is never taken from the annotation.
 *
 * The text is parsed once per annotations map: every call for the same sandbox returns the same
 * object, which callers must not change.
 */
export function podFromSpecAnnotation(sandbox: RuntimeSandbox | undefined): V1Pod | undefined {
  try {
    const annotations =
      isObj(sandbox) && isRecord(sandbox.annotations) ? sandbox.annotations : undefined;
    const text = annotations?.[ANNOTATIONS.podSpec];
    if (!annotations || typeof text !== 'string') return undefined;
    const read = readSpecs.get(annotations);
    if (read?.text === text) return read.pod;
    const pod = parseSpecAnnotation(text);
    readSpecs.set(annotations, { text, pod });
    return pod;
  } catch {
    return undefined;
  }
}

function parseSpecAnnotation(text: string): V1Pod | undefined {
  try {
    if (text.length === 0 || text.length > MAX_SPEC_ANNOTATION_BYTES) return undefined;
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed) || !isRecord(parsed.spec)) return undefined;
    const spec = parsed.spec;
    const containers = validContainers(spec.containers, true);
    const initContainers = validContainers(spec.initContainers, false);
    if (!containers || !initContainers) return undefined;
    const all = new Set(containers.map((c) => c.name));
    if (initContainers.some((c) => all.has(c.name))) return undefined;
    if (
      spec.restartPolicy !== undefined &&
      !(typeof spec.restartPolicy === 'string' && RESTART_POLICY_SET.has(spec.restartPolicy))
    ) {
      return undefined;
    }
    if (spec.readinessGates !== undefined && !Array.isArray(spec.readinessGates)) return undefined;
    const metadata = isRecord(parsed.metadata) ? { ...parsed.metadata } : {};
    for (const key of TIME_KEYS) {
      const v = metadata[key];
      if (typeof v === 'string') {
        const t = Date.parse(v);
        if (Number.isNaN(t)) delete metadata[key];
        else metadata[key] = new Date(t);
      } else if (v !== undefined) {
        delete metadata[key];
      }
    }
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: metadata,
      spec: {
        ...(spec as unknown as NonNullable<V1Pod['spec']>),
        containers,
        ...(initContainers.length > 0 ? { initContainers } : {}),
      },
    };
  } catch {
    return undefined;
  }
}
