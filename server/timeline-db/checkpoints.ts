/**
 * Checkpoints of either log (the `checkpoints` table, schema.ts): whole states, in snapshot.ts's
 * codec, keyed by the seq they are folded up to — the embedded log's seq, or the cluster's global
 * id. One implementation for both: its operations are units of work (work.ts), which the embedded
 * store runs synchronously inside its own transactions (store.ts, seek.ts, retention.ts) and the
 * cluster's checkpoint keeper runs through kysely (server/cluster/timeline/checkpoints.ts).
 *
 *   const cps = new Checkpoints(k, { cached: 4 });
 *   runSync(sqlite, cps.write({ seq, tMax, epochs: {}, snapshot: encodeSnapshot(state) }, now));
 *   runSync(sqlite, cps.atOrBelow(seq));            // the newest at or below seq, decoded
 *   await runAsync(k, cps.serving(t));              // the newest a state at t can start from
 *
 * Decoded checkpoints are kept in memory, a few: scrubbing and replay seek around one moment
 * again and again, and decoding one (gunzip + JSON) is a large share of a seek. States are
 * immutable values, so sharing one between callers is safe.
 */
import type { Database as SqliteDb } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { ClusterState } from '@/lib/timeline/state';
import type { Tables } from './schema';
import { decodeSnapshot, encodeSnapshot, type EncodedSnapshot } from './snapshot';
import { all, first, run, runSync, type Work } from './work';

/** A checkpoint as stored and read back. */
export interface Checkpoint {
  /** Every event up to and including this seq (the cluster's: a global id) is folded in. */
  seq: number;
  /** The newest event time folded in (0 when none). */
  tMax: number;
  /** The agent run each node's state came from ({} in embedded mode). */
  epochs: Readonly<Record<string, string>>;
  state: ClusterState;
}

export interface CheckpointInfo {
  seq: number;
  t: number;
  /** Stored size in bytes (after compression). */
  bytes: number;
}

export interface CheckpointsOptions {
  /** Decoded checkpoints kept (default 4). */
  cached?: number;
  /**
   * Whether what is read now may be kept: not inside a transaction that may still roll back
   * (the embedded store's append). Default: always.
   */
  cacheable?: () => boolean;
}

type Filter = [column: 'seq' | 'base' | 't_max', op: '<=' | '=' | '<', value: number];

export class Checkpoints {
  private readonly cache = new Map<number, Checkpoint>();
  private readonly size: number;
  private readonly cacheable: () => boolean;

  constructor(
    private readonly k: Kysely<Tables>,
    options: CheckpointsOptions = {},
  ) {
    this.size = options.cached ?? 4;
    this.cacheable = options.cacheable ?? (() => true);
  }

  /**
   * Stores a checkpoint; one already stored at that seq is kept (it is the same state, the fold
   * of the same events), and becomes the base when this one is.
   */
  *write(
    cp: {
      seq: number;
      tMax: number;
      epochs: Readonly<Record<string, string>>;
      snapshot: EncodedSnapshot;
    },
    now: number,
    options: { base?: boolean } = {},
  ): Work<CheckpointInfo> {
    const base = options.base ? 1 : 0;
    yield* run(
      this.k
        .insertInto('checkpoints')
        .values({
          seq: cp.seq,
          t_max: cp.tMax,
          epochs: JSON.stringify(cp.epochs),
          base,
          codec: cp.snapshot.codec,
          body: cp.snapshot.body,
          created_at: now,
        })
        .onConflict((oc) =>
          base ? oc.column('seq').doUpdateSet({ base: 1 }) : oc.column('seq').doNothing(),
        ),
    );
    return { seq: cp.seq, t: cp.tMax, bytes: cp.snapshot.body.length };
  }

  /** The seq of the newest checkpoint at or below `seq`, without decoding it. */
  *seqAtOrBelow(seq: number): Work<number | undefined> {
    return yield* this.newestSeq(['seq', '<=', seq]);
  }

  /** The newest checkpoint at or below `seq`. */
  *atOrBelow(seq: number): Work<Checkpoint | undefined> {
    return yield* this.newest(['seq', '<=', seq]);
  }

  /** The newest checkpoint a state at `t` can start from (it folded nothing newer than t). */
  *serving(t: number): Work<Checkpoint | undefined> {
    return yield* this.newest(['t_max', '<=', t]);
  }

  /** The checkpoint retention last built on (the log holds nothing before it). */
  *base(): Work<Checkpoint | undefined> {
    return yield* this.newest(['base', '=', 1]);
  }

  /** The newest checkpoint (undefined when there is none). */
  *latest(): Work<Checkpoint | undefined> {
    return yield* this.newest();
  }

  /** The newest checkpoint's seq (0 when there is none). */
  *latestSeq(): Work<number> {
    return (yield* this.newestSeq()) ?? 0;
  }

  *count(): Work<number> {
    const row = yield* first(
      this.k.selectFrom('checkpoints').select((eb) => eb.fn.countAll().as('n')),
    );
    return Number(row?.n ?? 0);
  }

  /**
   * Removes the checkpoints below `seq` (they would fold forward from removed events), the
   * oldest `limit` of them at most (each can be megabytes); returns how many went.
   */
  *deleteBelow(seq: number, limit = Number.POSITIVE_INFINITY): Work<number> {
    if (seq <= 0 || limit <= 0) return 0;
    let upTo = seq - 1;
    if (Number.isFinite(limit)) {
      const oldest = yield* all(
        this.k
          .selectFrom('checkpoints')
          .select('seq')
          .where('seq', '<', seq)
          .orderBy('seq')
          .limit(Math.floor(limit)),
      );
      const last = oldest.at(-1);
      if (!last) return 0;
      upTo = Number(last.seq);
    }
    for (const key of [...this.cache.keys()]) if (key <= upTo) this.cache.delete(key);
    return (yield* run(this.k.deleteFrom('checkpoints').where('seq', '<=', upTo))).changes;
  }

  private *newestSeq(filter?: Filter): Work<number | undefined> {
    let q = this.k.selectFrom('checkpoints').select('seq');
    if (filter) q = q.where(...filter);
    const row = yield* first(q.orderBy('seq', 'desc').limit(1));
    return row ? Number(row.seq) : undefined;
  }

  private *newest(filter?: Filter): Work<Checkpoint | undefined> {
    const seq = yield* this.newestSeq(filter);
    return seq === undefined ? undefined : yield* this.load(seq);
  }

  /** The checkpoint at exactly `seq`, decoded (kept: see the top). */
  *load(seq: number): Work<Checkpoint | undefined> {
    const cached = this.cache.get(seq);
    if (cached) {
      // Move to the back: Map iteration order is the eviction order.
      this.cache.delete(seq);
      this.cache.set(seq, cached);
      return cached;
    }
    const row = yield* first(
      this.k
        .selectFrom('checkpoints')
        .select(['seq', 't_max', 'epochs', 'codec', 'body'])
        .where('seq', '=', seq),
    );
    if (!row) return undefined;
    const cp: Checkpoint = {
      seq: Number(row.seq),
      tMax: Number(row.t_max),
      epochs: JSON.parse(row.epochs) as Record<string, string>,
      state: decodeSnapshot(row.codec, row.body),
    };
    if (!this.cacheable()) return cp;
    this.cache.set(seq, cp);
    for (const key of this.cache.keys()) {
      if (this.cache.size <= this.size) break;
      this.cache.delete(key);
    }
    return cp;
  }

  /** Forgets what is kept of the checkpoint at `seq` (it was just rewritten). */
  forget(seq: number): void {
    this.cache.delete(seq);
  }
}

/** The checkpoints of an SQLite file, synchronously: the embedded store's (store.ts). */
export class SqliteCheckpoints {
  private readonly units: Checkpoints;

  constructor(
    private readonly db: SqliteDb,
    k: Kysely<Tables>,
  ) {
    // A row read inside a transaction may still be rolled back: not kept.
    this.units = new Checkpoints(k, { cached: 4, cacheable: () => !db.inTransaction });
  }

  /** Writes the state as the checkpoint for state.seq; call inside a transaction. */
  write(
    state: ClusterState,
    now: number,
    options: { base?: boolean } = {},
  ): CheckpointInfo & { rawBytes: number } {
    const snapshot = encodeSnapshot(state);
    const info = runSync(
      this.db,
      this.units.write({ seq: state.seq, tMax: state.t, epochs: {}, snapshot }, now, options),
    );
    return { ...info, rawBytes: snapshot.rawBytes };
  }

  /** The state of the newest checkpoint at or before `seq`. */
  nearest(seq: number): ClusterState | undefined {
    return runSync(this.db, this.units.atOrBelow(seq))?.state;
  }

  /** Seq of the newest checkpoint at or before `seq`, without decoding it. */
  nearestSeq(seq: number): number | undefined {
    return runSync(this.db, this.units.seqAtOrBelow(seq));
  }

  latestSeq(): number {
    return runSync(this.db, this.units.latestSeq());
  }

  /** Deletes up to `batch` of the oldest checkpoints below `belowSeq`; returns how many went. */
  deleteOldest(belowSeq: number, batch: number): number {
    return runSync(this.db, this.units.deleteBelow(belowSeq, batch));
  }

  count(): number {
    return runSync(this.db, this.units.count());
  }
}
