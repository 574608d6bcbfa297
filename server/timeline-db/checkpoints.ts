/**
 * The checkpoints table: full ClusterState snapshots keyed by the seq they include up to.
 */
import type { Database as Db, Statement } from 'better-sqlite3';
import type { ClusterState } from '@/lib/timeline';
import { decodeSnapshot, encodeSnapshot } from './snapshot';

export interface CheckpointInfo {
  seq: number;
  t: number;
  /** Stored size in bytes (after compression). */
  bytes: number;
}

interface CheckpointRow {
  seq: number;
  t: number;
  codec: string;
  body: Buffer;
}

/**
 * Decoded checkpoints kept in memory. Scrubbing and replay seek around one moment again and again;
 * decoding a checkpoint (gunzip + JSON) is a large share of a seek. States are immutable values,
 * so sharing one between callers is safe.
 */
const CACHED_CHECKPOINTS = 4;

export class CheckpointTable {
  private readonly cache = new Map<number, ClusterState>();
  private readonly put: Statement<[number, number, string, Buffer, number]>;
  private readonly atOrBefore: Statement<[number], CheckpointRow>;
  private readonly seqAtOrBefore: Statement<[number], number>;
  private readonly latest: Statement<[], number | null>;
  private readonly oldestBefore: Statement<[number, number], number>;
  private readonly deleteSeqs: Statement<[number, number]>;
  private readonly countAll: Statement<[], number>;

  constructor(private readonly db: Db) {
    this.put = db.prepare(
      'INSERT OR REPLACE INTO checkpoints (seq, t, codec, body, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.atOrBefore = db.prepare<[number], CheckpointRow>(
      'SELECT seq, t, codec, body FROM checkpoints WHERE seq <= ? ORDER BY seq DESC LIMIT 1',
    );
    this.seqAtOrBefore = db
      .prepare<[number], number>(
        'SELECT seq FROM checkpoints WHERE seq <= ? ORDER BY seq DESC LIMIT 1',
      )
      .pluck();
    this.latest = db.prepare<[], number | null>('SELECT max(seq) FROM checkpoints').pluck();
    this.oldestBefore = db
      .prepare<[number, number], number>(
        'SELECT seq FROM checkpoints WHERE seq < ? ORDER BY seq LIMIT 1 OFFSET ?',
      )
      .pluck();
    this.deleteSeqs = db.prepare<[number, number]>(
      'DELETE FROM checkpoints WHERE seq < ? AND seq <= ?',
    );
    this.countAll = db.prepare<[], number>('SELECT count(*) FROM checkpoints').pluck();
  }

  /** Writes the state as the checkpoint for state.seq; call inside a transaction. */
  write(state: ClusterState, now: number): CheckpointInfo & { rawBytes: number } {
    const { codec, body, rawBytes } = encodeSnapshot(state);
    this.put.run(state.seq, state.t, codec, body, now);
    this.cache.delete(state.seq);
    return { seq: state.seq, t: state.t, bytes: body.length, rawBytes };
  }

  /** The newest checkpoint whose seq is at or before `seq`, decoded. */
  nearest(seq: number): ClusterState | undefined {
    const at = this.seqAtOrBefore.get(seq);
    if (at === undefined) return undefined;
    const cached = this.cache.get(at);
    if (cached) {
      // Move to the back: Map iteration order is the eviction order.
      this.cache.delete(at);
      this.cache.set(at, cached);
      return cached;
    }
    const row = this.atOrBefore.get(at);
    if (!row) return undefined;
    const state = decodeSnapshot(row.codec, row.body);
    // A row read inside a transaction may still be rolled back.
    if (this.db.inTransaction) return state;
    this.cache.set(at, state);
    for (const key of this.cache.keys()) {
      if (this.cache.size <= CACHED_CHECKPOINTS) break;
      this.cache.delete(key);
    }
    return state;
  }

  /** Seq of the newest checkpoint at or before `seq`, without decoding it. */
  nearestSeq(seq: number): number | undefined {
    return this.seqAtOrBefore.get(seq);
  }

  latestSeq(): number {
    return this.latest.get() ?? 0;
  }

  /**
   * Deletes up to `batch` of the oldest checkpoints below `belowSeq`; returns how many went.
   * Bounded because each row can be megabytes.
   */
  deleteOldest(belowSeq: number, batch: number): number {
    if (belowSeq <= 0) return 0;
    const last = this.oldestBefore.get(belowSeq, batch - 1) ?? this.seqAtOrBefore.get(belowSeq - 1);
    if (last === undefined) return 0;
    for (const key of [...this.cache.keys()]) if (key <= last) this.cache.delete(key);
    return this.deleteSeqs.run(belowSeq, last).changes;
  }

  count(): number {
    return this.countAll.get() ?? 0;
  }
}
