/**
 * What the transport layers (tRPC, /metrics, /api/healthz, the CLI) may ask of the running
 * Podscope. Routers hold no state: they read through this interface.
 *
 * Two sources satisfy it: the embedded engine (engine.ts: its SQLite recorder answers
 * synchronously, seqs are the recorder's) and a cluster-mode console replica
 * (server/cluster/console.ts: the state followed from the bus, the timeline in PostgreSQL —
 * reads are asynchronous, seqs are global ids, server/cluster/global.ts). Timeline reads are
 * therefore `Awaitable`; callers await them.
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

export type Awaitable<T> = T | Promise<T>;

export interface EngineApi {
  /** 'cluster' for a console replica following the bus: no nodes to connect here, seqs are global ids. */
  readonly mode?: 'cluster';
  /** The current state (seq = last recorded event). */
  snapshot(): ClusterState;
  /** Live batches from now on; subscribe first, then backfill (tRPC docs, "tracked"). */
  subscribe(signal?: AbortSignal): Subscription;
  /** Recorded events with seq > afterSeq, ascending, at most `limit`. */
  eventsAfter(afterSeq: number, limit: number): Awaitable<TimelineEvent[]>;
  /** The oldest seq still retained (events before it were removed by retention). */
  oldestSeq(): Awaitable<number>;
  /**
   * Where the source can lag behind a seq another replica has already sent (cluster mode: this
   * replica's view of the bus): waits, at most `timeoutMs`, until it has reached `seq`, and says
   * whether `seq` is a point of this timeline at all (false: a foreign or future id).
   */
  reach?(seq: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /**
   * Resolves when the state changed with no event to show for it (cluster mode: a node's contact
   * judged by heartbeat age turned Unknown or came back): a watcher then sends a fresh snapshot.
   */
  rejudged?(signal?: AbortSignal): Promise<void>;
  range(q: RangeQuery): Awaitable<TimelineEvent[]>;
  stateAt(t: number): Awaitable<ClusterState>;
  nodes(): NodeSummary[];
  connect(node: { name: string; endpoint: string }): Promise<NodeSummary>;
  disconnect(name: string): Promise<void>;
  health(): Health;
  /** The Prometheus text exposition: the engine's series and the process's default metrics. */
  metrics(): Promise<string>;
  /** True when the endpoint may be dialled (configured or allow-listed). */
  endpointAllowed(endpoint: string): boolean;
}
