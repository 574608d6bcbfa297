/**
 * What the transport layers (tRPC, /metrics, /api/healthz, the CLI) may ask of the running
 * Podscope. Routers hold no state: they read through this interface.
 */
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { Subscription } from './bus';

export interface NodeSummary {
  name: string;
  endpoint: string;
  lab: boolean;
  connected: boolean;
  /** How the node is observed: the runtime's event stream plus relists, or relists only. */
  mode: 'events' | 'polling';
  lastRelistAt?: number;
  lastError?: string;
  skippedTicks: number;
  relists: number;
}

export interface RangeQuery {
  from?: number;
  to?: number;
  afterSeq?: number;
  limit?: number;
  nodes?: string[];
  /** Stop before the encoded events pass this many bytes (the first is always returned). */
  maxBytes?: number;
}

export interface Health {
  ok: boolean;
  /** Node name → ms since its last successful relist (null: never). */
  nodes: Record<string, number | null>;
  seq: number;
  subscribers: number;
  startedAt: number;
  /** The store's error while it cannot write (disk full …); events are held in memory meanwhile. */
  storeError?: string;
  /** Events recorded but not yet written, while storeError stands. */
  heldEvents?: number;
}

export interface EngineApi {
  /** The current state (seq = last recorded event). */
  snapshot(): ClusterState;
  /** Live batches from now on; subscribe first, then backfill (tRPC docs, "tracked"). */
  subscribe(signal?: AbortSignal): Subscription;
  /** Recorded events with seq > afterSeq, ascending, at most `limit`. */
  eventsAfter(afterSeq: number, limit: number): TimelineEvent[];
  /** The oldest seq still retained (events before it were removed by retention). */
  oldestSeq(): number;
  range(q: RangeQuery): TimelineEvent[];
  stateAt(t: number): ClusterState;
  nodes(): NodeSummary[];
  connect(node: { name: string; endpoint: string }): Promise<NodeSummary>;
  disconnect(name: string): Promise<void>;
  health(): Health;
  /** The Prometheus text exposition: the engine's series and the process's default metrics. */
  metrics(): Promise<string>;
  /** True when the endpoint may be dialled (configured or allow-listed). */
  endpointAllowed(endpoint: string): boolean;
}
