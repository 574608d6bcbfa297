/**
 * The kubelet's container restart back-off, as pure data in and out.
 *
 * Port of client-go util/flowcontrol/backoff.go (kubernetes/kubernetes
 * staging/src/k8s.io/client-go/util/flowcontrol/backoff.go @ c53da4dc; the kubelet uses it without
 * jitter): Get, Next, Reset/DeleteEntry, IsInBackOffSince, IsInBackOffSinceUpdate, GC, hasExpired —
 * and getStableKey from pkg/kubelet/kuberuntime (doBackOff). The clock is a parameter (`now`), so
 * Podscope's kubelet stand-in (server/driver) and the engine's inference share one implementation
 * and tests never sleep.
 *
 * Kubelet defaults (pkg/kubelet/kubelet.go): backOffPeriod 10 s, MaxContainerBackOff 300 s
 * (timings.ts).
 */
import { KUBELET_DEFAULTS } from './timings';
import { finite, isObj, str } from './util';

export interface BackoffEntry {
  /** The current back-off window, ms. */
  backoffMs: number;
  /** When Next last moved this entry (the kubelet's restart time), epoch ms. */
  lastUpdateMs: number;
}

export interface BackoffState {
  initialMs: number;
  maxMs: number;
  entries: Readonly<Record<string, BackoffEntry>>;
}

export const CONTAINER_BACKOFF_INITIAL_MS = KUBELET_DEFAULTS.backOffPeriodMs;
export const CONTAINER_BACKOFF_MAX_MS = KUBELET_DEFAULTS.maxContainerBackOffMs;

/** NewBackOff(initial, max) with the kubelet's container defaults. */
export function newBackoff(
  initialMs: number = CONTAINER_BACKOFF_INITIAL_MS,
  maxMs: number = CONTAINER_BACKOFF_MAX_MS,
): BackoffState {
  return {
    initialMs: Math.max(0, finite(initialMs, 0)),
    maxMs: Math.max(0, finite(maxMs, 0)),
    entries: {},
  };
}

/** The kubelet's container back-off with every period multiplied by `scale` (the demo runs faster). */
export function scaledBackoff(scale: number): BackoffState {
  return newBackoff(CONTAINER_BACKOFF_INITIAL_MS * scale, CONTAINER_BACKOFF_MAX_MS * scale);
}

function normalize(state: BackoffState | undefined): BackoffState {
  if (!isObj(state)) return newBackoff();
  return {
    initialMs: Math.max(0, finite(state.initialMs, CONTAINER_BACKOFF_INITIAL_MS)),
    maxMs: Math.max(0, finite(state.maxMs, CONTAINER_BACKOFF_MAX_MS)),
    entries: isObj(state.entries) ? state.entries : {},
  };
}

function entryOf(state: BackoffState, id: string): BackoffEntry | undefined {
  const e = Object.prototype.hasOwnProperty.call(state.entries, id) ? state.entries[id] : undefined;
  if (!isObj(e)) return undefined;
  return {
    backoffMs: Math.max(0, finite(e.backoffMs, 0)),
    lastUpdateMs: finite(e.lastUpdateMs, 0),
  };
}

/** hasExpired: after 2×max without an update the back-off starts again from the beginning. */
export function hasExpired(eventTimeMs: number, lastUpdateMs: number, maxMs: number): boolean {
  return eventTimeMs - lastUpdateMs > maxMs * 2;
}

/** Get: the current back-off window for id (0 when there is none). */
export function backoffGet(state: BackoffState | undefined, id: string): number {
  return entryOf(normalize(state), id)?.backoffMs ?? 0;
}

/** The entry for id, if any (a copy). */
export function backoffEntry(
  state: BackoffState | undefined,
  id: string,
): BackoffEntry | undefined {
  return entryOf(normalize(state), id);
}

/** Next: move id's back-off to the next mark (doubling, capped at max); restart from initial when expired. */
export function backoffNext(
  state: BackoffState | undefined,
  id: string,
  eventTimeMs: number,
  nowMs: number,
): BackoffState {
  const s = normalize(state);
  const e = entryOf(s, id);
  const backoffMs =
    !e || hasExpired(finite(eventTimeMs, nowMs), e.lastUpdateMs, s.maxMs)
      ? s.initialMs
      : Math.min(e.backoffMs * 2, s.maxMs);
  return { ...s, entries: { ...s.entries, [id]: { backoffMs, lastUpdateMs: finite(nowMs, 0) } } };
}

/** Reset / DeleteEntry: forget id. */
export function backoffReset(state: BackoffState | undefined, id: string): BackoffState {
  const s = normalize(state);
  if (!Object.prototype.hasOwnProperty.call(s.entries, id)) return s;
  const entries = { ...s.entries };
  delete entries[id];
  return { ...s, entries };
}

/** IsInBackOffSince: true while less than the current window has passed since eventTime. */
export function isInBackOffSince(
  state: BackoffState | undefined,
  id: string,
  eventTimeMs: number,
  nowMs: number,
): boolean {
  const s = normalize(state);
  const e = entryOf(s, id);
  if (!e) return false;
  if (hasExpired(eventTimeMs, e.lastUpdateMs, s.maxMs)) return false;
  return nowMs - eventTimeMs < e.backoffMs;
}

/** IsInBackOffSinceUpdate: true while eventTime is less than the current window after the last update. */
export function isInBackOffSinceUpdate(
  state: BackoffState | undefined,
  id: string,
  eventTimeMs: number,
): boolean {
  const s = normalize(state);
  const e = entryOf(s, id);
  if (!e) return false;
  if (hasExpired(eventTimeMs, e.lastUpdateMs, s.maxMs)) return false;
  return eventTimeMs - e.lastUpdateMs < e.backoffMs;
}

/** GC: drop entries not updated for 2×max. */
export function backoffGC(state: BackoffState | undefined, nowMs: number): BackoffState {
  const s = normalize(state);
  const entries: Record<string, BackoffEntry> = {};
  for (const [id, raw] of Object.entries(s.entries)) {
    const e = entryOf(s, id);
    if (e && !(nowMs - e.lastUpdateMs > s.maxMs * 2)) entries[id] = raw;
  }
  return { ...s, entries };
}

/**
 * getStableKey (pkg/kubelet/kuberuntime/kuberuntime_container.go):
 * `<pod name>_<namespace>_<pod uid>_<container name>_<container hash>`; the hash is the container's
 * `io.kubernetes.container.hash` annotation, so a changed spec starts a fresh back-off.
 */
export function backoffKey(
  pod: { name?: string; namespace?: string; uid?: string },
  containerName: string,
  containerHash: string,
): string {
  return `${str(pod.name)}_${str(pod.namespace)}_${str(pod.uid)}_${containerName}_${containerHash}`;
}

/** format.Pod: `<name>_<namespace>(<uid>)`, as kubelet messages print a pod. */
export const formatPod = (pod: { name?: string; namespace?: string; uid?: string }): string =>
  `${str(pod.name)}_${str(pod.namespace)}(${str(pod.uid)})`;

/** An empty back-off with the kubelet's container defaults (same as newBackoff()). */
export const emptyBackoff = (): BackoffState => newBackoff();

/** The container a back-off entry belongs to. Without name, namespace and hash the key uses the uid alone. */
export interface BackoffRef {
  podUid: string;
  container: string;
  podName?: string;
  namespace?: string;
  /** The container's `io.kubernetes.container.hash` annotation. */
  hash?: string;
}

export const backoffKeyFor = (ref: BackoffRef): string =>
  backoffKey(
    { name: ref.podName ?? '', namespace: ref.namespace ?? '', uid: ref.podUid },
    ref.container,
    ref.hash ?? '',
  );

/**
 * The kubelet restarted a container: doBackOff found it outside its window and called
 * Next(key, finishedAt of the exited attempt) at the restart time. Observers call this when they see
 * a new attempt start, so later exits are judged against the right window.
 */
export function recordRestart(
  state: BackoffState | undefined,
  ref: BackoffRef,
  previousExitAt: number,
  restartAt: number,
): BackoffState {
  return backoffNext(state, backoffKeyFor(ref), previousExitAt, restartAt);
}
