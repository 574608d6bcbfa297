/**
 * The prober's results cache for one probe type, keyed by container ID: a port of
 * pkg/kubelet/prober/results/results_manager.go (kubernetes/kubernetes 5e1adf91). `set` reports
 * whether the value changed — upstream sends an update on its channel only then.
 */
export type StoredResult = 'success' | 'failure' | 'unknown';

export class ResultsManager {
  private readonly cache = new Map<string, StoredResult>();

  constructor(private readonly onUpdate: (containerId: string, result: StoredResult) => void) {}

  get(containerId: string): StoredResult | undefined {
    return this.cache.get(containerId);
  }

  /** Stores the result; true (and an update) when it differs from the cached one. */
  set(containerId: string, result: StoredResult): boolean {
    if (this.cache.get(containerId) === result) return false;
    this.cache.set(containerId, result);
    this.onUpdate(containerId, result);
    return true;
  }

  remove(containerId: string): void {
    this.cache.delete(containerId);
  }
}
