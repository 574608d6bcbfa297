/**
 * The taint-eviction controller, for a scenario's node: a pod whose NoExecute toleration ran out
 * is deleted from the API server, once (pkg/controller/tainteviction taint_eviction.go: the timed
 * worker fires at the toleration's end, `Marking for deletion Pod ns/name`, then the deletion with
 * the pod's own grace period). When a pod is due comes from the derived state: `evictionDueAt`,
 * i.e. when the node lifecycle controller's taint began (Ready left True) plus the pod's
 * tolerationSeconds (lib/kubelet/eviction.ts; 300 s by default). The deletion reaches the kubelet
 * when its API connection allows (server/driver/node/api-link.ts).
 */
import type { ClusterState } from '@/lib/timeline/state';
import type { DriverClock, DriverTimer } from '@/server/driver/clock';

export interface EvictingDriver {
  readonly node: string;
  evict?(uid: string): void;
}

export interface TaintEvictionOptions {
  driver: EvictingDriver;
  clock: DriverClock;
  observe: () => ClusterState | Promise<ClusterState>;
  /** How often due pods are looked for (scenario time; default 1 s). */
  periodMs?: number;
  log?: (line: string) => void;
}

export function startTaintEviction(options: TaintEvictionOptions): { stop(): void } {
  const { driver, clock } = options;
  const evicted = new Set<string>();
  let timer: DriverTimer | undefined;
  let stopped = false;
  const period = options.periodMs ?? 1_000;
  /** Evicts the pods due now; returns when the next one falls due (as the state says now). */
  const evictDue = (state: ClusterState): number => {
    let next = Infinity;
    const evict = driver.evict?.bind(driver);
    if (!evict) return next;
    const now = clock.now();
    for (const pod of Object.values(state.nodes[driver.node]?.pods ?? {})) {
      if (stopped) return next;
      if (evicted.has(pod.uid) || pod.deletionTimestamp !== undefined) continue;
      if (pod.evictionDueAt === undefined) continue;
      if (pod.evictionDueAt > now) {
        next = Math.min(next, pod.evictionDueAt);
        continue;
      }
      evicted.add(pod.uid);
      try {
        evict(pod.uid);
      } catch (err) {
        options.log?.(`taint eviction of ${pod.namespace}/${pod.name}: ${String(err)}`);
      }
    }
    return next;
  };
  // Like the controller's timed workers: wake at the next toleration's end, and look again at
  // least every period (a node's readiness, hence every due time, can change at any moment).
  const arm = (next: number) => {
    if (stopped) return;
    const wait = Math.max(0, Math.min(period, next - clock.now()));
    timer = clock.setTimer(wait, () => {
      timer = undefined;
      const failed = (err: unknown) => {
        options.log?.(`taint eviction: ${String(err)}`);
        arm(Infinity);
      };
      try {
        const state = options.observe();
        // A synchronous observer (the engine's snapshot) is read at the very moment the timer is due.
        if (state instanceof Promise) state.then((s) => arm(evictDue(s)), failed);
        else arm(evictDue(state));
      } catch (err) {
        failed(err);
      }
    });
  };
  arm(Infinity);
  return {
    stop: () => {
      stopped = true;
      timer?.cancel();
      timer = undefined;
    },
  };
}
