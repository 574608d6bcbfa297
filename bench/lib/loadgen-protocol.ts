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
   * Churn relists as fast as the bus acknowledges them, round robin over the nodes, with at most
   * `inFlight` unacknowledged publishes, for `ms` (resolves when it ends).
   */
  | { op: 'flood'; ms: number; inFlight: number }
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
}

export type LoadReply = ({ ok: true } & LoadStats) | { ok: true } | { ok: false; error: string };

export interface LoadEnvelope<T> {
  id: number;
  body: T;
}
