/** Messages between the cluster benchmark and its load-generator child (IPC, one reply each). */

export type LoadRequest =
  | {
      op: 'start';
      servers: string;
      cluster: string;
      /** Node names are `<prefix>-00001`, … */
      prefix: string;
      pods: number;
      containers: number;
      /** Each node's heartbeat period (the agent's default is 5 s). */
      heartbeatMs: number;
    }
  /** Adds nodes up to `nodes` in all: each publishes its first relist and starts heartbeating. */
  | { op: 'grow'; nodes: number }
  /** Background churn: each node sends a churn relist every `everyMs` on average (0 stops). */
  | { op: 'churn'; everyMs: number }
  /**
   * Makes a flood's messages ahead of it: churn relists round robin over the nodes, at least
   * `events` events, encoded as the agent encodes them (their times are when they were made).
   */
  | { op: 'prepare'; events: number }
  /**
   * Publishes churn relists for `ms` (resolves when it ends) with at most `inFlight`
   * unacknowledged publishes: at `eventsPerS` events a second, or (0, the default) as fast as the
   * bus acknowledges them; the prepared messages while they last (then the flood ends early and
   * says so), or, with none prepared, relists made as it goes.
   */
  | { op: 'flood'; ms: number; inFlight: number; eventsPerS?: number }
  | { op: 'stats' }
  | { op: 'stop' };

export interface LoadStats {
  nodes: number;
  messages: number;
  events: number;
  heartbeats: number;
  publishErrors: number;
  /** The highest JetStream stream sequence acknowledged to it. */
  lastStreamSeq: number;
  /** How late the generator itself ran its heartbeat and churn timers (p99, ms). */
  selfLagMsP99: number;
  cpuMs: number;
  eventsPerChurn: number;
  eventsInitial: number;
  /** Messages and events made by the last `prepare` (0 when none). */
  prepared: { messages: number; events: number; ms: number };
  /** The last flood ran out of prepared messages before its time was up. */
  floodExhausted: boolean;
}

export type LoadReply = ({ ok: true } & LoadStats) | { ok: true } | { ok: false; error: string };

export interface LoadEnvelope<T> {
  id: number;
  body: T;
}
