/** The live source: the server's tRPC API (cluster.watch over SSE, timeline queries). */
import { createTrpcSource } from '@/trpc/cluster-source';
import type { ClusterSource } from './source';

/** Status detail when no live server answers (kept for the console's offline hint). */
export const LIVE_UNAVAILABLE = 'live-unavailable';

export function createLiveSource(): ClusterSource {
  return createTrpcSource();
}
