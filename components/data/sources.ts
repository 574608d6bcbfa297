/**
 * Picks the console's data source from the view: the live server, the scripted demo
 * (`?source=demo`), or the 10,000-pod scale fixture as a recording (`?source=scale`).
 */
import { createDemoSource } from './demo-source';
import { generateScaleCluster } from './fixtures/scale';
import { createMemorySource } from './memory-source';
import { createLiveSource } from './live-source';
import type { ClusterSource } from './source';
import type { PodscopeClient } from '@/trpc/client';
import type { ViewState } from './url-state';

export function createSource(
  view: Pick<ViewState, 'source' | 'demoStart'>,
  client: PodscopeClient,
): ClusterSource {
  if (view.source === 'live') return createLiveSource(client);
  if (view.source === 'scale') {
    const big = generateScaleCluster({ start: view.demoStart ?? 0 });
    return createMemorySource(big.initial, big.events);
  }
  return createDemoSource(view.demoStart !== undefined ? { start: view.demoStart } : {});
}
