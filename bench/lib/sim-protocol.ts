/** Messages between the benchmark and its simulator child process (IPC, one reply per request). */

export interface SimNodeInfo {
  name: string;
  endpoint: string;
}

export type SimRequest =
  | {
      op: 'grow';
      /** Total nodes wanted (adds the missing ones, named bench-NNN in order). */
      nodes: number;
      /** The nodes to add, by name, instead (a simulator process of several: its share). */
      names?: string[];
      pods: number;
      containers: number;
      eventsMode: 'stream' | 'unimplemented';
    }
  /** Churn `perNode` containers on each named node (all when omitted). */
  | { op: 'churn'; perNode: number; nodes?: string[] }
  /**
   * Keeps churning in the background: `perSecond` containers per second across all nodes, in
   * `tickMs` steps. perSecond 0 stops it.
   */
  | { op: 'autochurn'; perSecond: number; tickMs: number }
  /** Changes one container slot of a node (kill if running, next attempt if exited). */
  | { op: 'flip'; node: string; slot: number }
  /** Describes a slot: pod uid, container name and current state. */
  | { op: 'slot'; node: string; slot: number }
  | { op: 'usage' }
  | { op: 'stop' };

export type SimReply =
  | { ok: true; nodes: SimNodeInfo[] }
  | { ok: true; changed: number; t: number }
  | { ok: true; t: number; podUid: string; container: string; to: 'exited' | 'running' }
  | { ok: true; podUid: string; container: string; state: string }
  | { ok: true; cpuMs: number; rssMb: number }
  | { ok: true }
  | { ok: false; error: string };

export interface Envelope<T> {
  id: number;
  body: T;
}
