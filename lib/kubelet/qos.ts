/**
 * The pod's QoS class. Port of ComputePodQOS / GetPodQOS from
 * pkg/apis/core/v1/helper/qos/qos.go (kubernetes/kubernetes, stored text; pod-level resources not
 * handled). A QoS class already in the pod status wins, as GetPodQOS returns it.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from './quantity';
import { isObj, specOf, str } from './util';

const SUPPORTED = ['cpu', 'memory'] as const;

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** Marks a resource name a container's requests or limits do not list. */
const ABSENT = Symbol('absent');

/**
 * Classes already computed, by spec view (specOf reuses a view while the container lists are the
 * same). The class depends on nothing but each container's cpu and memory requests and limits, so
 * those raw values are kept beside it and compared on every look: a spec whose quantities changed
 * in place is classified again.
 */
const classes = new WeakMap<object, { inputs: unknown[]; qos: QOSClass }>();

/** The raw cpu and memory requests and limits of every container, in the order qosOf reads them. */
function qosInputs(all: readonly V1Container[]): unknown[] {
  const inputs: unknown[] = [];
  for (const c of all) {
    const res = isObj(c.resources) ? c.resources : {};
    const requests: object = isObj(res.requests) ? res.requests : {};
    const limits: object = isObj(res.limits) ? res.limits : {};
    for (const name of SUPPORTED) inputs.push(own(requests, name), own(limits, name));
  }
  return inputs;
}

/** What Object.entries would give for that key: the value when it is an own enumerable property. */
function own(record: object, key: string): unknown {
  return Object.prototype.propertyIsEnumerable.call(record, key)
    ? (record as Record<string, unknown>)[key]
    : ABSENT;
}

export function computePodQOS(pod: V1Pod): QOSClass {
  const view = specOf(pod);
  const inputs = qosInputs([...view.containers, ...view.initContainers]);
  const known = classes.get(view);
  if (
    known &&
    known.inputs.length === inputs.length &&
    known.inputs.every((v, i) => v === inputs[i])
  )
    return known.qos;
  const qos = qosOf(view);
  classes.set(view, { inputs, qos });
  return qos;
}

function qosOf(view: ReturnType<typeof specOf>): QOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  const all: V1Container[] = [...view.containers, ...view.initContainers];
  for (const c of all) {
    const res = isObj(c.resources) ? c.resources : {};
    for (const [name, q] of Object.entries(isObj(res.requests) ? res.requests : {})) {
      if (!(SUPPORTED as readonly string[]).includes(name)) continue;
      const v = parseQuantity(q) ?? 0;
      if (v > 0) requests.set(name, (requests.get(name) ?? 0) + v);
    }
    const found = new Set<string>();
    for (const [name, q] of Object.entries(isObj(res.limits) ? res.limits : {})) {
      if (!(SUPPORTED as readonly string[]).includes(name)) continue;
      const v = parseQuantity(q) ?? 0;
      if (v > 0) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0) + v);
      }
    }
    if (!SUPPORTED.every((n) => found.has(n))) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || Math.abs(lim - req) > 1e-9 * Math.max(1, Math.abs(req))) {
        isGuaranteed = false;
        break;
      }
    }
  }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** GetPodQOS: the status's class if set, else computed from the spec. */
export function getPodQOS(pod: V1Pod): string {
  const fromStatus = isObj(pod) && isObj(pod.status) ? str(pod.status.qosClass) : '';
  return fromStatus || computePodQOS(pod);
}
