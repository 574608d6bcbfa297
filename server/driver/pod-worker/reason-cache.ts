/**
 * The kubelet's ReasonCache for one pod (pkg/kubelet/reason_cache.go): the last start error per
 * container name, what the engine shows as a waiting reason (hints `syncErrors`). A failed start
 * is remembered, a successful one forgets.
 */
import type { SyncError } from '@/lib/kubelet/runtime';

export class ReasonCache {
  private readonly reasons = new Map<string, SyncError>();

  /** ReasonCache.Update with one sync's start results; true when anything changed. */
  update(results: ReadonlyMap<string, SyncError | undefined>): boolean {
    let changed = false;
    for (const [name, error] of results) {
      const old = this.reasons.get(name);
      if (error) {
        if (old?.reason !== error.reason || old.message !== error.message) changed = true;
        this.reasons.set(name, error);
      } else if (old) {
        this.reasons.delete(name);
        changed = true;
      }
    }
    return changed;
  }

  clear(): void {
    this.reasons.clear();
  }

  /** Container name → last start error. */
  entries(): Record<string, SyncError> {
    return Object.fromEntries(this.reasons);
  }
}
