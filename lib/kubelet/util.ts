/**
 * Defensive readers for API-shaped input. lib/kubelet accepts objects that came through JSON from
 * untrusted places (an API server, an annotation, an imported file), so every reader tolerates a
 * missing or mistyped field and returns a defined value instead of throwing.
 */
import type { V1Container, V1ContainerStatus, V1Pod, V1PodSpec } from '@kubernetes/client-node';

/** For values of unknown shape (parsed JSON). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** For typed values that may still be missing or malformed at run time. */
export const isObj = <T extends object>(v: T | null | undefined): v is T =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function asArray<T>(v: readonly T[] | undefined | null): readonly T[] {
  return Array.isArray(v) ? (v as readonly T[]) : [];
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A finite number or the fallback (NaN, Infinity, strings and missing values are rejected). */
export const finite = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

/** Container exit codes are int32 in the API; anything else reads as the fallback. */
export const int32 = (v: unknown, fallback = 0): number => {
  const n = finite(v, fallback);
  return Math.trunc(Math.max(-2147483648, Math.min(2147483647, n)));
};

/** The pod spec's container lists with malformed entries dropped (an entry must be an object). */
export interface SpecView {
  spec: V1PodSpec;
  initContainers: readonly V1Container[];
  containers: readonly V1Container[];
  restartPolicy: string;
}

/**
 * Views already built, by spec: one derivation asks for its pod's view a dozen times. A view is
 * reused only while the spec still holds the very container lists it was built from (the same
 * arrays, holding the same objects) and the same restartPolicy.
 */
const specViews = new WeakMap<object, { init: unknown; containers: unknown; view: SpecView }>();

export function specOf(pod: V1Pod | undefined): SpecView {
  const spec: V1PodSpec = isObj(pod) && isObj(pod.spec) ? pod.spec : { containers: [] };
  const known = specViews.get(spec);
  if (
    known &&
    known.init === spec.initContainers &&
    known.containers === spec.containers &&
    known.view.restartPolicy === str(spec.restartPolicy) &&
    sameItems(known.view.initContainers, spec.initContainers) &&
    sameItems(known.view.containers, spec.containers)
  )
    return known.view;
  const clean = (list: readonly V1Container[] | undefined): V1Container[] =>
    asArray(list)
      .filter((c) => isObj(c))
      .map((c) => (typeof c.name === 'string' ? c : { ...c, name: '' }));
  const view: SpecView = {
    spec,
    initContainers: clean(spec.initContainers),
    containers: clean(spec.containers),
    restartPolicy: str(spec.restartPolicy),
  };
  specViews.set(spec, { init: spec.initContainers, containers: spec.containers, view });
  return view;
}

/** Whether a view's list holds exactly the items of the spec's list (so it needed no cleaning). */
function sameItems(
  view: readonly V1Container[],
  list: readonly V1Container[] | undefined,
): boolean {
  const items = asArray(list);
  if (items.length !== view.length) return false;
  for (let i = 0; i < items.length; i++) if (items[i] !== view[i]) return false;
  return true;
}

/** podutil.GetContainerStatus: the first status with that name. */
export function getContainerStatus(
  statuses: readonly V1ContainerStatus[] | undefined,
  name: string,
): V1ContainerStatus | undefined {
  for (const s of asArray(statuses)) {
    if (isObj(s) && s.name === name) return s;
  }
  return undefined;
}

/** metav1.Time: whole seconds, as the API serializes it. Invalid or absent input gives undefined. */
export function apiTime(ms: number | undefined): Date | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** Epoch ms of an API time (a Date, or an RFC 3339 string that slipped through undecoded). */
export function timeMs(v: unknown): number | undefined {
  if (v instanceof Date) {
    const t = v.getTime();
    return Number.isNaN(t) ? undefined : t;
  }
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** Go's fmt %s of a []string: `[a b c]`. */
export const goList = (items: readonly string[]): string => `[${items.join(' ')}]`;

/**
 * Go's time.Duration.String() for a whole number of milliseconds: 10s, 1m20s, 5m0s, 1h0m0s,
 * 1.5s, 250ms, 0s. The kubelet prints back-off periods and PLEG ages this way.
 */
export function goDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '0s';
  const neg = ms < 0;
  let rest = Math.round(Math.abs(ms));
  if (rest === 0) return '0s';
  const sign = neg ? '-' : '';
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const frac = rest - s * 1000;
  const secs = frac === 0 ? `${s}` : `${s}.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  if (h > 0) return `${sign}${h}h${m}m${secs}s`;
  if (m > 0) return `${sign}${m}m${secs}s`;
  return `${sign}${secs}s`;
}
