/**
 * The overview's feed for a view: the scale view's synthetic cluster held in memory. (The live
 * server's feed is `overview.watch` / `overview.search`, live-feed.ts.)
 */
import type { ViewState } from '@/components/data/url-state';
import { SCALE } from '@/components/data/sources';
import { reduceAll } from '@/lib/timeline/reducer';
import { syntheticCluster } from '@/lib/timeline/synthetic';
import type { ClusterState } from '@/lib/timeline/state';
import type { OverviewFeed } from './feed';
import { createMemoryFeed } from './testing/memory-feed';

const ZONES = ['a', 'b', 'c'];

/**
 * The synthetic cluster at its end, its nodes given zone and pool labels (the generator has
 * none) so the overview's grouping has something to group by.
 */
export function scaleState(view: Pick<ViewState, 'scaleNodes' | 'demoStart'>): ClusterState {
  const nodes = view.scaleNodes ?? SCALE.nodes;
  const podsPerNode = view.scaleNodes === undefined ? SCALE.podsPerNode : 10;
  const big = syntheticCluster({
    nodes,
    podsPerNode,
    churn: view.scaleNodes === undefined ? SCALE.churn : nodes * 2,
    seed: SCALE.seed,
    startT: view.demoStart ?? 0,
  });
  const state = reduceAll(big.initial, big.events);
  Object.values(state.nodes).forEach((n, i) => {
    n.labels = {
      ...n.labels,
      'topology.kubernetes.io/zone': ZONES[i % ZONES.length] ?? 'a',
      'podscope.dev/pool': i % 10 === 0 ? 'gpu' : 'general',
    };
  });
  return state;
}

export function createScaleFeed(view: Pick<ViewState, 'scaleNodes' | 'demoStart'>): OverviewFeed {
  return createMemoryFeed(scaleState(view));
}
