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
 * Newer client-go adds `HasExpiredFunc` (used by Next, IsInBackOffSince*, and GC in place of the
 * 2 × max rule); the kubelet sets it on its container back-off to "600 s after the last update"
 * (pkg/kubelet/kubelet.go @ 000d95431f9f9ef4bb8298f8b78684eacbb18fa0). Here that is `resetMs`: when
 * set, an entry expires `resetMs` after its last update whatever the maximum; when absent, client-go's
 * default 2 × max applies (the image pull back-off).
 *
 * Kubelet defaults (pkg/kubelet/kubelet.go): backOffPeriod 10 s, MaxContainerBackOff 300 s, the
 * container back-off's maximum configurable per node (crashLoopBackOff.maxContainerRestartPeriod)
 * — all in timings.ts.
 */
import type { FeatureGates } from './gates';
import { crashLoopBackOffPeriods, KUBELET_DEFAULTS } from './timings';
import { crashLoopBackOffFor } from './version';
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
  /** HasExpiredFunc: an entry expires this long after its last update; absent: after 2 × maxMs. */
  resetMs?: number;
  entries: Readonly<Record<string, BackoffEntry>>;
}

export const CONTAINER_BACKOFF_INITIAL_MS = KUBELET_DEFAULTS.backOffPeriodMs;
export const CONTAINER_BACKOFF_MAX_MS = KUBELET_DEFAULTS.maxContainerBackOffMs;

/**
 * NewBackOff(initial, max), client-go's rule: an entry expires after 2 × max without an update
 * unless `resetMs` (a HasExpiredFunc of "resetMs after the last update") is given. Defaults: 10 s
 * and 300 s, the image pull back-off's periods.
 */
export function newBackoff(
  initialMs: number = CONTAINER_BACKOFF_INITIAL_MS,
  maxMs: number = CONTAINER_BACKOFF_MAX_MS,
  resetMs?: number,
): BackoffState {
  const reset = finite(resetMs, -1);
  return {
    initialMs: Math.max(0, finite(initialMs, 0)),
    maxMs: Math.max(0, finite(maxMs, 0)),
    ...(reset >= 0 ? { resetMs: reset } : {}),
    entries: {},
  };
}

/**
 * The kubelet's container (crash loop) back-off for a node: newCrashLoopBackOff's first window and
 * maximum for its crashLoopBackOff.maxContainerRestartPeriod (default 300 s; RangeError outside
 * 1 s–300 s) and the 600 s reset, every period multiplied by `scale` (a demo runs faster). With
 * `gates` (a node's kubelet version, version.ts), the crash-loop gates of that kubelet decide
 * whether the configured maximum counts at all (KubeletCrashLoopBackOffMax) and the defaults
 * (ReduceDefaultCrashLoopBackOffDecay); without, the newest minor's.
 */
export function containerBackoff(
  maxContainerRestartPeriodMs: number = KUBELET_DEFAULTS.maxContainerRestartPeriodMs,
  scale = 1,
  gates?: FeatureGates,
): BackoffState {
  const p = gates
    ? crashLoopBackOffFor(gates, maxContainerRestartPeriodMs)
    : crashLoopBackOffPeriods(maxContainerRestartPeriodMs);
  const k = Number.isFinite(scale) && scale > 0 ? scale : 1;
  return newBackoff(p.initialMs * k, p.maxMs * k, p.resetMs * k);
}

/** The kubelet's default container back-off with every period multiplied by `scale`. */
export function scaledBackoff(scale: number): BackoffState {
  return containerBackoff(KUBELET_DEFAULTS.maxContainerRestartPeriodMs, scale);
}

function normalize(state: BackoffState | undefined): BackoffState {
  if (!isObj(state)) return containerBackoff();
  const reset = finite(state.resetMs, -1);
  return {
    initialMs: Math.max(0, finite(state.initialMs, CONTAINER_BACKOFF_INITIAL_MS)),
    maxMs: Math.max(0, finite(state.maxMs, CONTAINER_BACKOFF_MAX_MS)),
    ...(reset >= 0 ? { resetMs: reset } : {}),
    entries: isObj(state.entries) ? state.entries : {},
  };
}

function entryOf(state: BackoffState, id: string): BackoffEntry | undefined {
  return entryIn(state.entries, id);
}

/** The entry for id in an entries table (one normalize would keep: an object, else none). */
function entryIn(entries: BackoffState['entries'], id: string): BackoffEntry | undefined {
  const e = Object.prototype.hasOwnProperty.call(entries, id) ? entries[id] : undefined;
  if (!isObj(e)) return undefined;
  return {
    backoffMs: Math.max(0, finite(e.backoffMs, 0)),
    lastUpdateMs: finite(e.lastUpdateMs, 0),
  };
}

/**
 * hasExpired: the back-off starts again from the beginning once eventTime is more than `resetMs`
 * after the last update (the kubelet's HasExpiredFunc), or, without `resetMs`, more than 2 × max.
 */
export function hasExpired(
  eventTimeMs: number,
  lastUpdateMs: number,
  maxMs: number,
  resetMs?: number,
): boolean {
  const limit = typeof resetMs === 'number' && Number.isFinite(resetMs) ? resetMs : maxMs * 2;
  return eventTimeMs - lastUpdateMs > limit;
}

/** hasExpired with the state's own rule. */
const expired = (s: BackoffState, eventTimeMs: number, lastUpdateMs: number): boolean =>
  hasExpired(eventTimeMs, lastUpdateMs, s.maxMs, s.resetMs);

/** Get: the current back-off window for id (0 when there is none). */
export function backoffGet(state: BackoffState | undefined, id: string): number {
  return backoffEntry(state, id)?.backoffMs ?? 0;
}

/**
 * The entry for id, if any (a copy). Reads the table as normalize would keep it (the entries of
 * an object state, else none) without building the normalized state: derivation asks this for
 * every exited container of every pod on every relist.
 */
export function backoffEntry(
  state: BackoffState | undefined,
  id: string,
): BackoffEntry | undefined {
  return isObj(state) && isObj(state.entries) ? entryIn(state.entries, id) : undefined;
}

/** Next: move id's back-off to the next mark (doubling, capped at max); restart from initial when expired. */
export function backoffNext(
  state: BackoffState | undefined,
  id: string,
  eventTimeMs: number,
  nowMs: number,
): BackoffState {
  return backoffNextAll(state, [{ id, eventTimeMs, nowMs }]);
}

/** One Next call: the entry's id, the event time and the time of the call. */
export interface BackoffStep {
  id: string;
  eventTimeMs: number;
  nowMs: number;
}

/**
 * Next for several ids in order: the state `backoffNext` would reach one call at a time, with
 * the entries copied once (a node's table holds an entry per restarted container, and one relist
 * can see many restarts).
 */
export function backoffNextAll(
  state: BackoffState | undefined,
  steps: readonly BackoffStep[],
): BackoffState {
  const s = normalize(state);
  const entries: Record<string, BackoffEntry> = { ...s.entries };
  const next = { ...s, entries };
  nextInto(next, entries, steps);
  return next;
}

/**
 * A table for one owner to change in place (recordRestartsInPlace): the state normalize keeps,
 * with its own copy of the entries.
 */
export function ownBackoff(state: BackoffState | undefined): BackoffState {
  const s = normalize(state);
  return { ...s, entries: { ...s.entries } };
}

/** backoffNextAll's steps written into `entries`, the entries of the normalized state `s`. */
function nextInto(
  s: BackoffState,
  entries: Record<string, BackoffEntry>,
  steps: readonly BackoffStep[],
): void {
  for (const { id, eventTimeMs, nowMs } of steps) {
    const e = entryIn(entries, id);
    const backoffMs =
      !e || expired(s, finite(eventTimeMs, nowMs), e.lastUpdateMs)
        ? s.initialMs
        : Math.min(e.backoffMs * 2, s.maxMs);
    // An own property whatever the id ("__proto__" included), as a spread would write it.
    Object.defineProperty(entries, id, {
      value: { backoffMs, lastUpdateMs: finite(nowMs, 0) },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
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
  if (expired(s, eventTimeMs, e.lastUpdateMs)) return false;
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
  if (expired(s, eventTimeMs, e.lastUpdateMs)) return false;
  return eventTimeMs - e.lastUpdateMs < e.backoffMs;
}

/** GC: drop entries that have expired at `nowMs` (not updated for resetMs, or 2 × max). */
export function backoffGC(state: BackoffState | undefined, nowMs: number): BackoffState {
  const s = normalize(state);
  const entries: Record<string, BackoffEntry> = {};
  for (const [id, raw] of Object.entries(s.entries)) {
    const e = entryOf(s, id);
    if (e && !expired(s, nowMs, e.lastUpdateMs)) entries[id] = raw;
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

/** An empty back-off with the kubelet's container defaults (same as containerBackoff()). */
export const emptyBackoff = (): BackoffState => containerBackoff();

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

/** One restart an observer saw: recordRestart's arguments. */
export interface Restart {
  ref: BackoffRef;
  previousExitAt: number;
  restartAt: number;
}

/** recordRestart for each restart in order, as one update of the state. */
export function recordRestarts(
  state: BackoffState | undefined,
  restarts: readonly Restart[],
): BackoffState {
  return backoffNextAll(
    state,
    restarts.map((r) => ({
      id: backoffKeyFor(r.ref),
      eventTimeMs: r.previousExitAt,
      nowMs: r.restartAt,
    })),
  );
}

/**
 * recordRestarts written into `state` instead of a copy: the same entries, for a table one owner
 * holds alone, made by ownBackoff or backoffGC (a node's table holds an entry per restarted
 * container; copying it on every relist that sees a restart allocated ~150 KB a relist).
 */
export function recordRestartsInPlace(state: BackoffState, restarts: readonly Restart[]): void {
  nextInto(
    state,
    state.entries,
    restarts.map((r) => ({
      id: backoffKeyFor(r.ref),
      eventTimeMs: r.previousExitAt,
      nowMs: r.restartAt,
    })),
  );
}
