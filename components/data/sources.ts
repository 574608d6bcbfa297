/**
 * Picks the console's data source from the view: the live server, the built-in demo (a recording
 * of the demo workload, `?source=demo`), or a synthetic 10,000-pod cluster as a recording
 * (`?source=scale`, lib/timeline/synthetic.ts).
 */
import { syntheticCluster } from '@/lib/timeline/synthetic';
import { createDemoSource } from './demo-source';
import { createMemorySource } from './memory-source';
import { createLiveSource } from './live-source';
import type { ClusterSource } from './source';
import type { PodscopeClient } from '@/trpc/client';
import type { ViewState } from './url-state';

/** The scale view: 100 nodes × 100 pods, then some churn (crashes, restarts, pods replaced). */
export const SCALE = { nodes: 100, podsPerNode: 100, churn: 2_000, seed: 42 } as const;

export function createSource(
  view: Pick<ViewState, 'source' | 'demoStart'>,
  client: PodscopeClient,
): ClusterSource {
  if (view.source === 'live') return createLiveSource(client);
  if (view.source === 'scale') {
    const big = syntheticCluster({ ...SCALE, startT: view.demoStart ?? 0 });
    return createMemorySource(big.initial, big.events);
  }
  return createDemoSource(view.demoStart !== undefined ? { start: view.demoStart } : {});
}
