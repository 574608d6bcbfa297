/**
 * What in a pod spec Podscope's kubelet stand-in does not do. A real kubelet acts on far more of
 * a pod than the driver does (volumes, security contexts, DNS, …); rather than ignore such fields
 * without a word, the driver lists them as the pod's warnings (DriverPod.warnings, the engine's
 * hints, the console's panel) and in its log. Fields that are not the kubelet's business at all
 * (scheduling, admission) and fields still at the API server's default are not listed.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';

/** Pod spec fields the driver (or the engine's rules) implements. */
const POD_IMPLEMENTED = new Set([
  'containers',
  'initContainers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'hostNetwork',
  'nodeName',
  'readinessGates',
  'serviceAccountName',
  'tolerations',
]);

/** Pod spec fields acted on by the scheduler, controllers or admission, never by a kubelet. */
const POD_NOT_KUBELET = new Set([
  'affinity',
  'nodeSelector',
  'schedulerName',
  'schedulingGates',
  'priority',
  'priorityClassName',
  'preemptionPolicy',
  'topologySpreadConstraints',
  'serviceAccount',
  'automountServiceAccountToken',
  'overhead',
]);

/** API-server defaults: a field still at its default changes nothing a user asked for. */
const POD_DEFAULTS: Record<string, unknown> = {
  dnsPolicy: 'ClusterFirst',
  enableServiceLinks: true,
  securityContext: {},
};

const CONTAINER_IMPLEMENTED = new Set([
  'name',
  'image',
  'imagePullPolicy',
  'command',
  'args',
  'workingDir',
  'env',
  'envFrom',
  'resources',
  'ports',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'lifecycle',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'restartPolicy',
  'restartPolicyRules',
]);

const CONTAINER_DEFAULTS: Record<string, unknown> = {
  stdin: false,
  stdinOnce: false,
  tty: false,
};

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function sameAsDefault(defaults: Record<string, unknown>, key: string, v: unknown): boolean {
  if (!(key in defaults)) return false;
  const d = defaults[key];
  return JSON.stringify(d) === JSON.stringify(v) || (isEmpty(d) && isEmpty(v));
}

function containerWarnings(path: string, c: V1Container): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(c)) {
    if (isEmpty(value) || CONTAINER_IMPLEMENTED.has(key)) continue;
    if (sameAsDefault(CONTAINER_DEFAULTS, key, value)) continue;
    out.push(`${path}.${key}`);
  }
  for (const [type, probe] of [
    ['livenessProbe', c.livenessProbe],
    ['readinessProbe', c.readinessProbe],
    ['startupProbe', c.startupProbe],
  ] as const) {
    if (probe?.grpc) out.push(`${path}.${type}.grpc`);
  }
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = c.lifecycle?.[hook];
    if (h?.tcpSocket) out.push(`${path}.lifecycle.${hook}.tcpSocket`);
    if (hook === 'preStop' && h?.httpGet) out.push(`${path}.lifecycle.preStop.httpGet`);
  }
  const lifecycle = c.lifecycle as Record<string, unknown> | undefined;
  if (lifecycle && !isEmpty(lifecycle.stopSignal)) out.push(`${path}.lifecycle.stopSignal`);
  if (c.resources?.claims?.length) out.push(`${path}.resources.claims`);
  return out;
}

/**
 * The field paths of `pod` the driver will not act on, e.g. `spec.volumes`,
 * `spec.containers[app].volumeMounts`, `spec.containers[app].readinessProbe.grpc`.
 */
export function unsupportedFields(pod: V1Pod): string[] {
  const spec = (pod.spec ?? {}) as unknown as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (isEmpty(value) && !(key in POD_DEFAULTS)) continue;
    if (POD_IMPLEMENTED.has(key) || POD_NOT_KUBELET.has(key)) continue;
    if (sameAsDefault(POD_DEFAULTS, key, value) || isEmpty(value)) continue;
    out.push(`spec.${key}`);
  }
  for (const c of pod.spec?.initContainers ?? [])
    out.push(...containerWarnings(`spec.initContainers[${c.name}]`, c));
  for (const c of pod.spec?.containers ?? [])
    out.push(...containerWarnings(`spec.containers[${c.name}]`, c));
  return out;
}

/** The warning a pod carries for those fields (English; the console translates by its id). */
export function unsupportedWarning(fields: readonly string[]): string | undefined {
  if (fields.length === 0) return undefined;
  return `Podscope's kubelet stand-in does not implement ${fields.join(', ')}: ignored on this node`;
}
